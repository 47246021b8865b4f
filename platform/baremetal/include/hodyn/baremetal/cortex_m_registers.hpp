// hodyn/baremetal/cortex_m_registers.hpp — the few ARMv7-M system registers
// the runtime touches, as our own register structs (no CMSIS).
//
// Addresses and bit fields: ARMv7-M Architecture Reference Manual (DDI 0403E),
// B3.2 "System Control Space" and B3.3 "The system timer, SysTick"; the
// Cortex-M7 and Cortex-M4 Technical Reference Manuals list the same layout.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {
namespace cortex_m {

/// A memory-mapped 32-bit register at a fixed address.
inline volatile std::uint32_t& reg32(std::uintptr_t address) noexcept {
  return *reinterpret_cast<volatile std::uint32_t*>(address);
}

// System Control Block (DDI 0403E, B3.2.2).
inline constexpr std::uintptr_t kCpacr = 0xE000ED88;  ///< Coprocessor Access Control
inline constexpr std::uintptr_t kCfsr = 0xE000ED28;   ///< Configurable Fault Status
inline constexpr std::uintptr_t kHfsr = 0xE000ED2C;   ///< HardFault Status
inline constexpr std::uintptr_t kMmfar = 0xE000ED34;  ///< MemManage Fault Address
inline constexpr std::uintptr_t kBfar = 0xE000ED38;   ///< BusFault Address
inline constexpr std::uintptr_t kVtor = 0xE000ED08;   ///< Vector Table Offset
inline constexpr std::uintptr_t kCcr = 0xE000ED14;    ///< Configuration and Control
inline constexpr std::uintptr_t kIcsr = 0xE000ED04;   ///< Interrupt Control and State

/// ICSR.PENDSTSET: the SysTick exception is pending (DDI 0403E, B3.2.4).
inline constexpr std::uint32_t kIcsrSysTickPending = 1u << 26;

/// CPACR: CP10 and CP11 (the FPU) full access, bits [23:20] (DDI 0403E, B3.2.20).
inline constexpr std::uint32_t kCpacrFpuFullAccess = 0xFu << 20;

/// SysTick (DDI 0403E, B3.3.2): CSR at 0xE000E010, then RVR, CVR, CALIB.
struct SysTickRegisters {
  volatile std::uint32_t csr;    ///< control and status
  volatile std::uint32_t rvr;    ///< reload value (24 bits)
  volatile std::uint32_t cvr;    ///< current value (counts down)
  volatile std::uint32_t calib;  ///< calibration (read only)
};
inline constexpr std::uintptr_t kSysTickBase = 0xE000E010;
inline constexpr std::uint32_t kSysTickEnable = 1u << 0;
inline constexpr std::uint32_t kSysTickInterrupt = 1u << 1;
inline constexpr std::uint32_t kSysTickProcessorClock = 1u << 2;
inline constexpr std::uint32_t kSysTickCountFlag = 1u << 16;
inline constexpr std::uint32_t kSysTickMaxReload = 0x00FFFFFFu;

inline SysTickRegisters& systick_registers() noexcept {
  return *reinterpret_cast<SysTickRegisters*>(kSysTickBase);
}

// NVIC (DDI 0403E, B3.4.3): set-enable words at 0xE000E100 (bit n%32 of word
// n/32), clear-enable at 0xE000E180, set-pending at 0xE000E200, one priority
// byte per interrupt from 0xE000E400 (a part implements its upper bits only:
// 4 on the STM32F4/H7).
inline constexpr std::uintptr_t kNvicIser = 0xE000E100;
inline constexpr std::uintptr_t kNvicIcer = 0xE000E180;
inline constexpr std::uintptr_t kNvicIspr = 0xE000E200;
inline constexpr std::uintptr_t kNvicIpr = 0xE000E400;

inline void nvic_set_priority(std::uint32_t irq, std::uint8_t priority) noexcept {
  *reinterpret_cast<volatile std::uint8_t*>(kNvicIpr + irq) = priority;
}
inline void nvic_enable(std::uint32_t irq) noexcept {
  reg32(kNvicIser + 4u * (irq / 32u)) = 1u << (irq % 32u);
}
inline void nvic_disable(std::uint32_t irq) noexcept {
  reg32(kNvicIcer + 4u * (irq / 32u)) = 1u << (irq % 32u);
}
inline bool nvic_enabled(std::uint32_t irq) noexcept {
  return (reg32(kNvicIser + 4u * (irq / 32u)) & (1u << (irq % 32u))) != 0u;
}
/// Makes the interrupt pending (it runs as soon as it is enabled and unmasked).
inline void nvic_set_pending(std::uint32_t irq) noexcept {
  reg32(kNvicIspr + 4u * (irq / 32u)) = 1u << (irq % 32u);
}

inline void data_synchronization_barrier() noexcept { __asm__ volatile("dsb" ::: "memory"); }
inline void instruction_synchronization_barrier() noexcept { __asm__ volatile("isb" ::: "memory"); }
inline void wait_for_interrupt() noexcept { __asm__ volatile("wfi"); }
inline void disable_interrupts() noexcept { __asm__ volatile("cpsid i" ::: "memory"); }
inline void enable_interrupts() noexcept { __asm__ volatile("cpsie i" ::: "memory"); }

/// Masks interrupts (PRIMASK = 1) and returns the previous PRIMASK, for
/// restore_interrupts(): a critical section that nests.
inline std::uint32_t save_and_disable_interrupts() noexcept {
  std::uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  return primask;
}
inline void restore_interrupts(std::uint32_t primask) noexcept {
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

inline std::uintptr_t stack_pointer() noexcept {
  std::uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

}  // namespace cortex_m
}  // namespace baremetal
}  // namespace hodyn
