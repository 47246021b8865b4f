// tests/firmware/test_stm32f405.cpp — the STM32F405 port's own parts, on the
// part (QEMU's STM32F405 SoC model, netduinoplus2): the clock tree's bounded
// waits and fallback, the PLL register, USART1's registers and interrupt
// (vector position 37 reaches our handler), the byte ring, the motor outputs'
// timer registers read back against commanded speeds. Expected values are
// worked out by hand from RM0090 and the mapping documented in
// boards/stm32f405/pwm_outputs.hpp, not taken from the code under test.
#include <cmath>
#include <cstdint>
#include <limits>

#include "board_stm32f405.hpp"
#include "hodyn/baremetal/byte_ring.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "hodyn/baremetal/runtime.hpp"

#include "self_test.hpp"

extern "C" void USART1_IRQHandler() noexcept;
extern "C" void Default_Handler(void);

namespace hodyn {
namespace firmware_test {
namespace {

namespace bm = baremetal;
namespace f4 = baremetal::stm32f405;
namespace cm = baremetal::cortex_m;

void check_clock_tree(Checks& checks) noexcept {
  const f4::ClockTree& boot = f4::boot_clock_tree();
  checks.measure_count("clock tree status", static_cast<unsigned>(boot.status));
  bm::console().print("  clock tree: ").print(f4::to_string(boot.status))
      .print(boot.rcc_responds ? ", RCC responds" : ", no RCC (emulator)").print("\n");
  if (!boot.rcc_responds) {
    // QEMU: RCC_CR reads 0, HSERDY never rises: the wait ends after its bound
    // and the clock is the emulator's documented 168 MHz.
    checks.expect(boot.status == f4::ClockStatus::kHseTimeout, "emulator: HSE wait timed out");
    checks.expect(boot.failed_wait_polls == 200000u, "emulator: the HSE wait stopped at its 200 000 polls");
    checks.expect(boot.sysclk_hz == 168000000u && bm::board::core_clock_hz() == 168000000u,
                  "emulator: fallback SYSCLK 168 MHz (QEMU's fixed clock)");
    checks.expect(boot.apb2_hz == 84000000u && boot.apb1_timer_hz == 84000000u,
                  "emulator: nominal APB2 84 MHz, APB1 timers 84 MHz");
    checks.expect(bm::board::has_semihosting(), "emulator: console on semihosting");
  } else {
    const bool pll = boot.status == f4::ClockStatus::kPllFromHse && boot.sysclk_hz == 168000000u;
    const bool hsi = boot.status != f4::ClockStatus::kPllFromHse && boot.sysclk_hz == 16000000u;
    checks.expect(pll || hsi, "chip: 168 MHz from the PLL, or the 16 MHz HSI with a status");
  }
  // A second run must end, in bounded time, with the same outcome.
  const std::uint64_t t0 = bm::cycles();
  const f4::ClockTree again = f4::configure_clock_tree();
  const std::uint64_t took = bm::cycles() - t0;
  checks.expect(again.status == boot.status && again.sysclk_hz == boot.sysclk_hz,
                "configure_clock_tree() again: the same outcome");
  const std::uint64_t ms = took / (bm::board::core_clock_hz() / 1000u);
  checks.measure_count("configure_clock_tree() took", ms, " ms (SysTick)");
  checks.expect(ms < 2000u, "configure_clock_tree() returns (bounded waits), < 2 s");
  // HSE 8 MHz: M = 4, N = 168 << 6, P = 2 -> 00 << 16, PLLSRC << 22, Q = 7 << 24.
  checks.expect(f4::pll_configuration_register() == 0x07402A04u,
                "RCC_PLLCFGR for 8 MHz HSE = 0x07402A04 (M 4, N 168, P 2, Q 7, HSE)");
}

void check_usart1(Checks& checks) noexcept {
  using Usart = bm::Stm32f4Usart;
  checks.expect(Usart::baud_register(84000000u, 921600u) == 91u, "BRR(84 MHz, 921600) = 91");
  checks.expect(Usart::baud_register(16000000u, 115200u) == 139u, "BRR(16 MHz, 115200) = 139");
  checks.expect(Usart::baud_register(1000000u, 921600u) == 0u, "BRR below 16 refused");
  checks.expect(f4::usart1_configured(), "USART1 configured");
  const bm::Stm32f4UsartRegisters& r = f4::usart1().hardware().regs();
  if (!f4::boot_clock_tree().rcc_responds) {
    checks.expect(r.brr == 91u, "USART1 BRR = 91 (921600 baud from 84 MHz)");
  }
  // UE (13), RXNEIE (5), TE (3), RE (2); TXEIE (7) off with nothing queued.
  checks.expect((r.cr1 & 0xFFFFu) == 0x202Cu, "USART1 CR1 = UE | RXNEIE | TE | RE");
  checks.expect(cm::nvic_enabled(37u), "NVIC line 37 (USART1) enabled");
  bm::board::serial_port().write("stm32f405 usart1: hello over the interrupt-driven USART\r\n");
  checks.measure_count("USART1 transmit ring after the line", f4::usart1().tx_queued(), " bytes");
  // The vector table: position 16 + 37 holds our handler, 16 + 81 (FPU) the default.
  const std::uint32_t* table = reinterpret_cast<const std::uint32_t*>(0x08000000u);
  checks.expect(table[16 + 37] == reinterpret_cast<std::uintptr_t>(&USART1_IRQHandler),
                "vector 16 + 37 = USART1_IRQHandler");
  checks.expect(table[16 + 81] == reinterpret_cast<std::uintptr_t>(&Default_Handler),
                "vector 16 + 81 (FPU) = Default_Handler");
  // The interrupt itself: pend line 37; the handler runs (nothing received)
  // and counts one entry.
  (void)f4::usart1().take_interrupt_load();
  cm::nvic_set_pending(37u);
  cm::data_synchronization_barrier();
  cm::instruction_synchronization_barrier();
  const bm::InterruptLoad load = f4::usart1().take_interrupt_load();
  checks.expect(load.entries == 1u, "a pended USART1 interrupt ran our handler once");
  checks.measure_count("cycles in that first handler entry (no -icount: not a timing)", load.cycles);
  std::uint8_t b[4];
  checks.expect(bm::board::serial_port().read_available(b, sizeof b) == 0u,
                "nothing received (serial0 is idle)");
}

void check_byte_ring(Checks& checks) noexcept {
  bm::ByteRing<8> ring;
  bool ok = true;
  for (std::uint8_t k = 0; k < 8; ++k) ok = ok && ring.push(static_cast<std::uint8_t>(10 + k));
  checks.expect(ok && ring.size() == 8u, "ring: 8 bytes fit a ring of 8");
  checks.expect(!ring.push(99), "ring: the 9th is refused");
  std::uint8_t out[16] = {};
  checks.expect(ring.pop(out, 3) == 3u && out[0] == 10 && out[2] == 12, "ring: first in, first out");
  // Wrap the indices around the buffer many times; order kept.
  std::uint8_t next_in = 18, next_out = 13;
  bool order = true;
  for (int round = 0; round < 100; ++round) {
    while (ring.push(next_in)) ++next_in;
    std::uint8_t byte = 0;
    for (int k = 0; k < 5 && ring.pop(byte); ++k) order = order && byte == next_out++;
  }
  checks.expect(order, "ring: order kept over 100 wrap-arounds");
  std::size_t drained = ring.pop(out, sizeof out);
  checks.expect(drained <= 8u && ring.empty(), "ring: drained");
}

void check_motor_outputs(Checks& checks) noexcept {
  checks.expect(!f4::motor_outputs().start(84000000u, 10u, 1200.0), "10 Hz PWM refused");
  checks.expect(f4::start_motor_outputs(1200.0, 400u), "motor outputs started (400 Hz, 1200 rad/s)");
  const std::uint32_t timer_hz = f4::boot_clock_tree().apb1_timer_hz;
  const f4::GeneralPurposeTimerRegisters* timers[2] = {
      reinterpret_cast<const f4::GeneralPurposeTimerRegisters*>(0x40000400u),   // TIM3
      reinterpret_cast<const f4::GeneralPurposeTimerRegisters*>(0x40000800u)};  // TIM4
  for (const f4::GeneralPurposeTimerRegisters* t : timers) {
    checks.expect(t->psc + 1u == timer_hz / 1000000u, "PSC: the timer counts at 1 MHz");
    if (!f4::boot_clock_tree().rcc_responds) checks.expect(t->psc == 83u, "emulator: PSC = 83");
    checks.expect(t->arr == 2499u, "ARR = 2499: 2500 us, 400 Hz");
    checks.expect((t->ccmr1 & 0xFFFFu) == 0x6868u && (t->ccmr2 & 0xFFFFu) == 0x6868u,
                  "CCMR1/2 = 0x6868: PWM mode 1, preload, all four channels");
    checks.expect((t->ccer & 0xFFFFu) == 0x1111u, "CCER = 0x1111: four outputs enabled");
    checks.expect((t->cr1 & 0x81u) == 0x81u, "CR1: counter on, ARR preloaded");
    bool stopped = true;
    for (int c = 0; c < 4; ++c) stopped = stopped && t->ccr[c] == 1000u;
    checks.expect(stopped, "every compare register at 1000 us (stop) after start");
  }
  bm::RotorOutputs* out = bm::board::rotor_outputs();
  checks.expect(out != nullptr && out->channels() == 8u, "board::rotor_outputs(): 8 channels");
  if (out == nullptr) return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // 1000 us + 1000 us x speed / 1200 rad/s, clamped; NaN, inf, negative: stop.
  const double speeds[8] = {0.0, 300.0, 600.0, 900.0, 1200.0, 1500.0, -5.0, nan};
  const std::uint32_t expected[8] = {1000, 1250, 1500, 1750, 2000, 2000, 1000, 1000};
  out->command(speeds, 8);
  bool all = true;
  for (int i = 0; i < 8; ++i) all = all && timers[i / 4]->ccr[i % 4] == expected[i];
  checks.expect(all, "compare registers read back = 1000 + 1000 w / w_full (8 rotors)");
  const double six[6] = {120.0, 456.0, 790.0, 1000.0, 1199.0, inf};
  const std::uint32_t six_expected[8] = {1100, 1380, 1658, 1833, 1999, 1000, 1000, 1000};
  out->command(six, 6);
  all = true;
  for (int i = 0; i < 8; ++i) all = all && timers[i / 4]->ccr[i % 4] == six_expected[i];
  checks.expect(all, "6 rotors commanded: rotors 6, 7 stop; +inf stops");
  out->stop();
  all = true;
  for (int i = 0; i < 8; ++i) all = all && timers[i / 4]->ccr[i % 4] == 1000u;
  checks.expect(all, "stop(): every compare register 1000 us");
}

}  // namespace

void run_stm32f405_checks(Checks& checks) noexcept {
  checks.group("stm32f405");
  check_clock_tree(checks);
  check_usart1(checks);
  check_byte_ring(checks);
  check_motor_outputs(checks);
}

}  // namespace firmware_test
}  // namespace hodyn
