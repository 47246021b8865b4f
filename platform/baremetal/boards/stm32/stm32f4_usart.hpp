// boards/stm32/stm32f4_usart.hpp — the register level of the STM32F4 USART
// (RM0090 rev 19, chapter 30; register map 30.6.8): SR 0x00, DR 0x04,
// BRR 0x08, CR1 0x0C, CR2 0x10, CR3 0x14, GTPR 0x18. The same IP as the
// F1/F2 USART; NOT the H7's (RM0433: ISR/ICR/RDR/TDR, FIFO, prescaler), which
// has its own policy. The Hw policy of InterruptUsart (interrupt_usart.hpp).
//
// QEMU's netduinoplus2 models this register set (hw/char/stm32f2xx_usart.c):
// transmission is synchronous there (TXE always set), BRR is stored but
// ignored, RXNE raises the interrupt when RXNEIE is set.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {

struct Stm32f4UsartRegisters {
  volatile std::uint32_t sr;    // 0x00 status
  volatile std::uint32_t dr;    // 0x04 data
  volatile std::uint32_t brr;   // 0x08 baud rate
  volatile std::uint32_t cr1;   // 0x0C
  volatile std::uint32_t cr2;   // 0x10
  volatile std::uint32_t cr3;   // 0x14
  volatile std::uint32_t gtpr;  // 0x18
};

class Stm32f4Usart {
 public:
  // SR (RM0090 30.6.1)
  static constexpr std::uint32_t kSrOre = 1u << 3;   ///< overrun
  static constexpr std::uint32_t kSrRxne = 1u << 5;  ///< read data register not empty
  static constexpr std::uint32_t kSrTc = 1u << 6;    ///< transmission complete
  static constexpr std::uint32_t kSrTxe = 1u << 7;   ///< transmit data register empty
  // CR1 (RM0090 30.6.4)
  static constexpr std::uint32_t kCr1Re = 1u << 2;
  static constexpr std::uint32_t kCr1Te = 1u << 3;
  static constexpr std::uint32_t kCr1Rxneie = 1u << 5;
  static constexpr std::uint32_t kCr1Txeie = 1u << 7;
  static constexpr std::uint32_t kCr1Ue = 1u << 13;
  static constexpr std::uint32_t kCr1Over8 = 1u << 15;

  explicit constexpr Stm32f4Usart(std::uintptr_t base_address) noexcept : base_(base_address) {}

  /// BRR for oversampling by 16 (OVER8 = 0): USARTDIV = f_pclk / (16 baud),
  /// mantissa in [15:4], 4-bit fraction in [3:0] — together f_pclk / baud,
  /// rounded (RM0090 30.3.4, equation 1). 0 when out of range (< 16 or > 0xFFFF).
  static constexpr std::uint32_t baud_register(std::uint32_t pclk_hz, std::uint32_t baud) noexcept {
    if (baud == 0u) return 0u;
    const std::uint32_t divider = (pclk_hz + baud / 2u) / baud;
    return divider < 16u || divider > 0xFFFFu ? 0u : divider;
  }

  /// 8N1 at `baud` from the bus clock `pclk_hz` (the USART's RCC clock and
  /// its pins must be set up), transmitter and receiver on, interrupts off.
  /// False (the USART untouched) when the divider is out of range.
  bool configure(std::uint32_t pclk_hz, std::uint32_t baud) noexcept {
    const std::uint32_t brr = baud_register(pclk_hz, baud);
    if (brr == 0u) return false;
    Stm32f4UsartRegisters& r = regs();
    r.cr1 = 0u;  // disabled while configuring: 8 data bits, no parity, OVER8 = 0
    r.cr2 = 0u;  // 1 stop bit
    r.cr3 = 0u;  // no flow control, no DMA
    r.brr = brr;
    r.cr1 = kCr1Ue | kCr1Te | kCr1Re;
    return true;
  }

  // The Hw policy of InterruptUsart.
  std::uint32_t status() const noexcept { return regs().sr; }
  static bool rx_not_empty(std::uint32_t s) noexcept { return (s & kSrRxne) != 0u; }
  static bool overrun(std::uint32_t s) noexcept { return (s & kSrOre) != 0u; }
  /// A received byte and no overrun (one mask and compare).
  static bool rx_not_empty_only(std::uint32_t s) noexcept {
    return (s & (kSrRxne | kSrOre)) == kSrRxne;
  }
  static bool tx_empty(std::uint32_t s) noexcept { return (s & kSrTxe) != 0u; }
  /// The SR read in status() followed by this DR read clears RXNE and ORE.
  std::uint8_t read_data() noexcept { return static_cast<std::uint8_t>(regs().dr & 0xFFu); }
  /// The data register read whole (the byte in bits 0-7), as read_data() clears flags.
  std::uint32_t read_data_word() noexcept { return regs().dr; }
  void clear_overrun() noexcept {}
  void write_data(std::uint8_t byte) noexcept { regs().dr = byte; }
  bool tx_interrupt_enabled() const noexcept { return (regs().cr1 & kCr1Txeie) != 0u; }
  void set_tx_interrupt(bool on) noexcept { set_cr1(kCr1Txeie, on); }
  void set_rx_interrupt(bool on) noexcept { set_cr1(kCr1Rxneie, on); }

  Stm32f4UsartRegisters& regs() const noexcept {
    return *reinterpret_cast<Stm32f4UsartRegisters*>(base_);
  }

 private:
  void set_cr1(std::uint32_t bit, bool on) noexcept {
    Stm32f4UsartRegisters& r = regs();
    r.cr1 = on ? (r.cr1 | bit) : (r.cr1 & ~bit);
  }
  std::uintptr_t base_;
};

}  // namespace baremetal
}  // namespace hodyn
