// tests/firmware/self_test.hpp — what the on-target self-test groups share:
// the scalar of this build, its unit roundoff, a tiny deterministic RNG, and
// the group entry points (one .cpp each).
#pragma once

#include <cstdint>
#include <limits>

#include "check.hpp"

#ifndef HODYN_FIRMWARE_SCALAR
#error "HODYN_FIRMWARE_SCALAR (double or float) must be defined by CMake"
#endif

namespace hodyn {
namespace firmware_test {

/// The scalar the core runs in on this target (double on Cortex-M7 with its
/// double FPU, float on Cortex-M4F).
using Scalar = HODYN_FIRMWARE_SCALAR;

/// Machine epsilon of Scalar as a double (2.2e-16 or 1.2e-7): every tolerance
/// below is a multiple of it, so one constant per check serves both builds.
inline constexpr double kEps = static_cast<double>(std::numeric_limits<Scalar>::epsilon());

/// xorshift32 (Marsaglia 2003): deterministic, two words of state.
class Random {
 public:
  explicit Random(std::uint32_t seed) noexcept : state_(seed != 0u ? seed : 0x9E3779B9u) {}
  std::uint32_t next() noexcept {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  /// Uniform in [-1, 1].
  double uniform() noexcept { return static_cast<double>(next()) / 2147483647.5 - 1.0; }

 private:
  std::uint32_t state_;
};

void run_dynamics_checks(Checks& checks) noexcept;
void run_lie_group_checks(Checks& checks) noexcept;
void run_controller_checks(Checks& checks) noexcept;
/// octo_arm's controller (test_controller_octo_arm.cpp; its own image, main_octo_arm.cpp).
void run_octo_arm_controller_checks(Checks& checks) noexcept;
void run_runtime_checks(Checks& checks) noexcept;
/// The STM32F405 port's peripherals (test_stm32f405.cpp; its image only).
void run_stm32f405_checks(Checks& checks) noexcept;

}  // namespace firmware_test
}  // namespace hodyn
