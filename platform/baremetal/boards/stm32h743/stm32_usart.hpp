// boards/stm32h743/stm32_usart.hpp — the register level of the STM32H7 USART
// (RM0433 rev 7, chapter 48 "USART/LPUART"; register map 48.7), FIFO mode off,
// 8N1, oversampling by 16: the Hw policy of InterruptUsart
// (../stm32/interrupt_usart.hpp), which the F4 port shares with its own
// policy (../stm32/stm32f4_usart.hpp: another IP, SR/DR instead of
// ISR/ICR/RDR/TDR).
//
// NOT TESTED ON HARDWARE, NOT EMULATED (this repository has neither): it
// compiles and links; check it against your board before relying on it.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {

struct Stm32UsartRegisters {
  volatile std::uint32_t cr1;    // 0x00
  volatile std::uint32_t cr2;    // 0x04
  volatile std::uint32_t cr3;    // 0x08
  volatile std::uint32_t brr;    // 0x0C
  volatile std::uint32_t gtpr;   // 0x10
  volatile std::uint32_t rtor;   // 0x14
  volatile std::uint32_t rqr;    // 0x18
  volatile std::uint32_t isr;    // 0x1C
  volatile std::uint32_t icr;    // 0x20
  volatile std::uint32_t rdr;    // 0x24
  volatile std::uint32_t tdr;    // 0x28
  volatile std::uint32_t presc;  // 0x2C
};

class Stm32h7Usart {
 public:
  static constexpr std::uint32_t kCr1Ue = 1u << 0;      // USART enable
  static constexpr std::uint32_t kCr1Re = 1u << 2;      // receiver enable
  static constexpr std::uint32_t kCr1Te = 1u << 3;      // transmitter enable
  static constexpr std::uint32_t kCr1Rxneie = 1u << 5;  // RXNE (and ORE) interrupt
  static constexpr std::uint32_t kCr1Txeie = 1u << 7;   // TXE interrupt
  static constexpr std::uint32_t kIsrOre = 1u << 3;     // overrun
  static constexpr std::uint32_t kIsrRxne = 1u << 5;    // RX data register not empty
  static constexpr std::uint32_t kIsrTxe = 1u << 7;     // TX data register empty
  static constexpr std::uint32_t kIcrOrecf = 1u << 3;

  explicit constexpr Stm32h7Usart(std::uintptr_t base_address) noexcept : base_(base_address) {}

  /// 8N1 at `baud` from the USART's kernel clock `kernel_clock_hz` (its bus
  /// clock must already be enabled in RCC and its pins set to the USART's
  /// alternate function), interrupts off. False when the divider is out of
  /// range (BRR = usart_ker_ck / baud, 16..0xFFFF, RM0433 48.5.7).
  bool configure(std::uint32_t kernel_clock_hz, std::uint32_t baud) noexcept {
    if (baud == 0u) return false;
    const std::uint32_t divider = (kernel_clock_hz + baud / 2u) / baud;
    if (divider < 16u || divider > 0xFFFFu) return false;
    Stm32UsartRegisters& r = regs();
    r.cr1 = 0u;  // disabled while configuring; 8 data bits, no parity, FIFO off
    r.cr2 = 0u;  // 1 stop bit
    r.cr3 = 0u;
    r.presc = 0u;
    r.brr = divider;
    r.cr1 = kCr1Te | kCr1Re | kCr1Ue;
    return true;
  }

  // The Hw policy of InterruptUsart.
  std::uint32_t status() const noexcept { return regs().isr; }
  static bool rx_not_empty(std::uint32_t s) noexcept { return (s & kIsrRxne) != 0u; }
  static bool overrun(std::uint32_t s) noexcept { return (s & kIsrOre) != 0u; }
  /// A received byte and no overrun (one mask and compare).
  static bool rx_not_empty_only(std::uint32_t s) noexcept {
    return (s & (kIsrRxne | kIsrOre)) == kIsrRxne;
  }
  static bool tx_empty(std::uint32_t s) noexcept { return (s & kIsrTxe) != 0u; }
  /// Reading RDR clears RXNE.
  std::uint8_t read_data() noexcept { return static_cast<std::uint8_t>(regs().rdr & 0xFFu); }
  /// The data register read whole (the byte in bits 0-7), as read_data() clears flags.
  std::uint32_t read_data_word() noexcept { return regs().rdr; }
  /// ORE is cleared through ICR on this IP (not by the data read).
  void clear_overrun() noexcept { regs().icr = kIcrOrecf; }
  void write_data(std::uint8_t byte) noexcept { regs().tdr = byte; }
  bool tx_interrupt_enabled() const noexcept { return (regs().cr1 & kCr1Txeie) != 0u; }
  void set_tx_interrupt(bool on) noexcept { set_cr1(kCr1Txeie, on); }
  void set_rx_interrupt(bool on) noexcept { set_cr1(kCr1Rxneie, on); }

  Stm32UsartRegisters& regs() const noexcept {
    return *reinterpret_cast<Stm32UsartRegisters*>(base_);
  }

 private:
  void set_cr1(std::uint32_t bit, bool on) noexcept {
    Stm32UsartRegisters& r = regs();
    r.cr1 = on ? (r.cr1 | bit) : (r.cr1 & ~bit);
  }
  std::uintptr_t base_;
};

}  // namespace baremetal
}  // namespace hodyn
