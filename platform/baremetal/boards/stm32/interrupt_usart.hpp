// boards/stm32/interrupt_usart.hpp — an interrupt-driven STM32 USART behind
// the runtime's SerialPort, shared by the STM32 ports.
//
// Receive: RXNEIE on; the handler moves every byte into a ring (ByteRing), the
// main loop takes them with read_available(). No busy-wait per byte: at
// 921600 baud a byte arrives every 10.9 us, and the CPU spends only the
// handler's few dozen cycles on it. A byte the ring cannot take, and a
// hardware overrun, count as overruns.
// Transmit: write() hands a byte straight to the data register when nothing
// is queued and the register is empty, else queues it and turns TXEIE on; the
// handler sends the queue and turns TXEIE off when it is empty. write() waits
// only when the whole transmit ring is full, and then also sends from the
// ring itself, so that it ends with interrupts masked (a fault handler's
// console) too.
//
// The register-level part is a policy `Hw` because the USART IP differs
// between families: the F4's (RM0090 chapter 30: SR, DR; stm32f4_usart.hpp)
// and the H7's (RM0433 chapter 48: ISR, ICR, RDR, TDR, FIFO;
// boards/stm32h743/stm32_usart.hpp). Hw provides:
//   std::uint32_t status();                       one read of the status register
//   static bool rx_not_empty(s), overrun(s), tx_empty(s);
//   static bool rx_not_empty_only(s);             RXNE set and ORE clear
//   std::uint8_t read_data();                     after status(): clears RXNE (and ORE on F4)
//   std::uint32_t read_data_word();               the same read, the register whole
//   void clear_overrun();                         what else ORE needs (ICR on H7)
//   void write_data(std::uint8_t);
//   bool tx_interrupt_enabled(); void set_tx_interrupt(bool);
//   void set_rx_interrupt(bool);
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/byte_ring.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "hodyn/baremetal/serial_port.hpp"

namespace hodyn {
namespace baremetal {

template <class Hw, std::size_t RxCapacity, std::size_t TxCapacity>
class InterruptUsart final : public SerialPort {
 public:
  explicit constexpr InterruptUsart(Hw hw) noexcept : hw_(hw) {}

  Hw& hardware() noexcept { return hw_; }

  /// Receive interrupt on (the USART must already be configured and enabled,
  /// and its NVIC line enabled by the board).
  void start() noexcept {
    const std::uint32_t primask = cortex_m::save_and_disable_interrupts();
    hw_.set_rx_interrupt(true);
    cortex_m::restore_interrupts(primask);
  }

  using SerialPort::write;
  void write(const std::uint8_t* data, std::size_t size) noexcept override {
    std::size_t i = 0;
    // Nothing queued: the handler has nothing to send, and only this
    // function queues, so the ring stays empty while the data register takes
    // the bytes in order, one status read each (a COMMAND under QEMU, whose
    // TXE is always set: ~6 instructions a byte instead of ~13).
    if (tx_.empty()) {
      while (i < size && Hw::tx_empty(hw_.status())) hw_.write_data(data[i++]);
    }
    for (; i < size; ++i) {
      for (;;) {
        // Nothing queued: the handler has nothing to send, so the data
        // register may take the byte now, in order.
        if (tx_.empty() && Hw::tx_empty(hw_.status())) {
          hw_.write_data(data[i]);
          break;
        }
        if (tx_.push(data[i])) {
          set_tx_interrupt_masked(true);
          break;
        }
        // The ring is full: the handler drains it at the line rate — unless
        // it cannot run (interrupts masked, or a fault handler printing), so
        // move one byte here too, with interrupts masked (the handler is the
        // ring's only other consumer).
        drain_one_masked();
      }
    }
  }

  std::size_t read_available(std::uint8_t* buffer, std::size_t capacity) noexcept override {
    return rx_.pop(buffer, capacity);
  }

  std::uint32_t take_overrun_count() noexcept override {
    const std::uint32_t total = overruns_;
    const std::uint32_t n = total - overruns_taken_;
    overruns_taken_ = total;
    return n;
  }

  /// What the handler measured since the last call (its 32-bit cycle sum
  /// wraps after 2^32 cycles of handler time: take it more often than that).
  InterruptLoad take_interrupt_load() noexcept override {
    const std::uint32_t primask = cortex_m::save_and_disable_interrupts();
    const InterruptLoad load{interrupt_cycles_, interrupt_entries_};
    interrupt_cycles_ = 0;
    interrupt_entries_ = 0;
    cortex_m::restore_interrupts(primask);
    return load;
  }

  std::uint32_t interrupt_cycles_since_take() const noexcept override {
    // One aligned 32-bit load: atomic against the handler, no masking.
    return *static_cast<const volatile std::uint32_t*>(&interrupt_cycles_);
  }

  /// The interrupt handler's work (the board's <USART>_IRQHandler calls it).
  /// Inlined into the board's handler (its meter around it).
  [[gnu::always_inline]] void on_interrupt() noexcept {
    const std::uint32_t s = hw_.status();
    if (__builtin_expect(Hw::rx_not_empty_only(s), 1)) {
      // The common entry, one received byte, and nothing else this entry: a
      // transmit data register emptied meanwhile with TXEIE on keeps the
      // (level-sensitive) interrupt line asserted, so the handler runs again
      // at once for it (one entry more then, 2 instructions fewer in every
      // receive entry; under QEMU the transmit ring is never used).
      if (!rx_.push_low_byte(hw_.read_data_word())) overruns_ = overruns_ + 1u;
      return;
    }
    if (Hw::rx_not_empty(s) || Hw::overrun(s)) {
      const std::uint8_t byte = hw_.read_data();
      if (Hw::overrun(s)) {
        hw_.clear_overrun();
        overruns_ = overruns_ + 1u;
      }
      if (Hw::rx_not_empty(s) && !rx_.push(byte)) overruns_ = overruns_ + 1u;
    }
    // The transmit interrupt's state from its shadow (a RAM byte, not a
    // read of the control register, every entry).
    if (tx_interrupt_on_ && Hw::tx_empty(s)) {
      std::uint8_t byte = 0;
      if (tx_.pop(byte)) {
        hw_.write_data(byte);
      } else {
        hw_.set_tx_interrupt(false);
        tx_interrupt_on_ = false;
      }
    }
  }

  /// Called by the board's handler with the cycles it measured around on_interrupt().
  void account_interrupt(std::uint32_t cycles) noexcept {
    interrupt_cycles_ += cycles;
    ++interrupt_entries_;
  }

  std::size_t rx_queued() const noexcept { return rx_.size(); }
  std::size_t tx_queued() const noexcept { return tx_.size(); }

 private:
  void drain_one_masked() noexcept {
    const std::uint32_t primask = cortex_m::save_and_disable_interrupts();
    std::uint8_t byte = 0;
    if (Hw::tx_empty(hw_.status()) && tx_.pop(byte)) hw_.write_data(byte);
    cortex_m::restore_interrupts(primask);
  }

  void set_tx_interrupt_masked(bool on) noexcept {
    const std::uint32_t primask = cortex_m::save_and_disable_interrupts();
    hw_.set_tx_interrupt(on);
    tx_interrupt_on_ = on;
    cortex_m::restore_interrupts(primask);
  }

  Hw hw_;
  ByteRing<RxCapacity> rx_;
  ByteRing<TxCapacity> tx_;
  volatile std::uint32_t overruns_ = 0;  ///< written by the handler only
  std::uint32_t overruns_taken_ = 0;     ///< by the main loop only
  /// TXEIE as last written (by the handler, or masked by the main loop).
  volatile bool tx_interrupt_on_ = false;
  std::uint32_t interrupt_cycles_ = 0;  ///< handler only (read masked); 64-bit sums were
                                        ///< 3 instructions an entry more
  std::uint32_t interrupt_entries_ = 0;
};

}  // namespace baremetal
}  // namespace hodyn
