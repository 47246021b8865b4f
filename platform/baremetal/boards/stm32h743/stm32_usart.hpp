// boards/stm32h743/stm32_usart.hpp — polling driver of the STM32H7 USART
// (RM0433 rev 7, chapter 48 "USART/LPUART"), FIFO mode off, 8N1,
// oversampling by 16. Register offsets: RM0433 48.7 (register map).
//
// NOT TESTED ON HARDWARE (this repository has none): it compiles and links;
// check it against your board before relying on it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/serial_port.hpp"

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

class Stm32Usart final : public SerialPort {
 public:
  static constexpr std::uint32_t kCr1Ue = 1u << 0;    // USART enable
  static constexpr std::uint32_t kCr1Re = 1u << 2;    // receiver enable
  static constexpr std::uint32_t kCr1Te = 1u << 3;    // transmitter enable
  static constexpr std::uint32_t kIsrOre = 1u << 3;   // overrun
  static constexpr std::uint32_t kIsrRxne = 1u << 5;  // RX data register not empty
  static constexpr std::uint32_t kIsrTxe = 1u << 7;   // TX data register empty
  static constexpr std::uint32_t kIcrOrecf = 1u << 3;

  explicit constexpr Stm32Usart(std::uintptr_t base_address) noexcept : base_(base_address) {}

  /// 8N1 at `baud` from the USART's kernel clock `kernel_clock_hz` (its bus
  /// clock must already be enabled in RCC and its pins set to the USART's
  /// alternate function). False when the divider is out of range.
  bool init(std::uint32_t kernel_clock_hz, std::uint32_t baud) noexcept;

  using SerialPort::write;
  void write(const std::uint8_t* data, std::size_t size) noexcept override;
  std::size_t read_available(std::uint8_t* buffer, std::size_t capacity) noexcept override;
  std::uint32_t take_overrun_count() noexcept override;

 private:
  Stm32UsartRegisters& regs() const noexcept {
    return *reinterpret_cast<Stm32UsartRegisters*>(base_);
  }
  std::uintptr_t base_;
  std::uint32_t overruns_ = 0;
};

}  // namespace baremetal
}  // namespace hodyn
