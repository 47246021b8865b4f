// hodyn/baremetal/rotor_outputs.hpp — the motor outputs of a board: the
// controller's commanded rotor speeds to the ESCs (PWM pulses from a timer's
// compare registers on the STM32 ports, boards/stm32/timer_pwm_outputs.hpp).
//
//   if (RotorOutputs* out = board::rotor_outputs()) out->command(speeds, n);
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace baremetal {

class RotorOutputs {
 public:
  /// Commands rotors 0..count-1 (rad/s); outputs past `count` stop. A speed
  /// outside [0, full scale] is clamped; a non-finite one stops its rotor.
  virtual void command(const double* speed_rad_s, std::size_t count) noexcept = 0;
  /// The same from float speeds (a float controller's command: no
  /// conversion through double, a library call on the Cortex-M4F).
  virtual void command(const float* speed_rad_s, std::size_t count) noexcept = 0;
  /// Every output to its stop value.
  virtual void stop() noexcept = 0;
  /// How many rotors the board can drive.
  virtual std::size_t channels() const noexcept = 0;
  /// The speed (rad/s) that gets the full output.
  virtual double full_scale_rad_s() const noexcept = 0;
  /// What the hardware holds for `channel` now, read back from it (on the
  /// STM32F405 the compare register: the pulse width in microseconds).
  virtual std::uint32_t output_value(std::size_t channel) const noexcept = 0;

 protected:
  RotorOutputs() = default;
  RotorOutputs(const RotorOutputs&) = default;
  RotorOutputs& operator=(const RotorOutputs&) = default;
  ~RotorOutputs() = default;  // never deleted through the interface
};

namespace board {

/// The board's motor outputs, or nullptr when it has none (the MPS2 ports: a
/// weak default in src/rotor_outputs_none.cpp).
RotorOutputs* rotor_outputs() noexcept;

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn
