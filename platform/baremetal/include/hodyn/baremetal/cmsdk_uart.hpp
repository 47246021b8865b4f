// hodyn/baremetal/cmsdk_uart.hpp — driver of the Arm CMSDK APB UART, the UART
// of the MPS2 FPGA images (UART0 at 0x40004000) and of QEMU's mps2-an385/
// an386/an500/an511 models. Polling only: blocking write, non-blocking read.
//
// Register map (Arm Cortex-M System Design Kit TRM, DDI 0479, "APB UART";
// QEMU hw/char/cmsdk-apb-uart.c models the same):
//   0x000 DATA      [7:0] received / to send
//   0x004 STATE     bit 0 TX buffer full, bit 1 RX buffer full,
//                   bit 2 TX overrun, bit 3 RX overrun (write 1 to clear)
//   0x008 CTRL      bit 0 TX enable, bit 1 RX enable, bits 2..5 interrupt enables
//   0x00C INTSTATUS read: pending interrupts; write 1: clear
//   0x010 BAUDDIV   [19:0] PCLK / baud, at least 16
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/serial_port.hpp"

namespace hodyn {
namespace baremetal {

struct CmsdkUartRegisters {
  volatile std::uint32_t data;
  volatile std::uint32_t state;
  volatile std::uint32_t ctrl;
  volatile std::uint32_t intstatus;
  volatile std::uint32_t bauddiv;
};

class CmsdkUart final : public SerialPort {
 public:
  static constexpr std::uint32_t kStateTxFull = 1u << 0;
  static constexpr std::uint32_t kStateRxFull = 1u << 1;
  static constexpr std::uint32_t kStateTxOverrun = 1u << 2;
  static constexpr std::uint32_t kStateRxOverrun = 1u << 3;
  static constexpr std::uint32_t kCtrlTxEnable = 1u << 0;
  static constexpr std::uint32_t kCtrlRxEnable = 1u << 1;
  static constexpr std::uint32_t kMinBaudDivider = 16;

  explicit constexpr CmsdkUart(std::uintptr_t base_address) noexcept : base_(base_address) {}

  /// Enables TX and RX at `baud` from the peripheral clock `pclk_hz`
  /// (interrupts off). False when the divider would be below 16.
  bool init(std::uint32_t pclk_hz, std::uint32_t baud) noexcept;

  using SerialPort::write;
  void write(const std::uint8_t* data, std::size_t size) noexcept override;
  std::size_t read_available(std::uint8_t* buffer, std::size_t capacity) noexcept override;
  std::uint32_t take_overrun_count() noexcept override;

 private:
  CmsdkUartRegisters& regs() const noexcept {
    return *reinterpret_cast<CmsdkUartRegisters*>(base_);
  }
  std::uintptr_t base_;
  std::uint32_t overruns_ = 0;
};

}  // namespace baremetal
}  // namespace hodyn
