// hodyn/control/geometric_lqr_plugin.hpp — the geometric LQR (geometric_lqr.hpp)
// behind the plugin interface: named parameters, ABI frames in and out.
// Registered as "lqr" for the 12-DoF aerial manipulator (docs/lqr.md).
//
// Every configure() re-designs all gains (N + 1 linearizations and Riccati
// solves); update() is heap-free and fixed-cost. The sensor and reference
// frames are converted as for the feedback-linearization plugin (the same
// functions, feedback_linearization_plugin_impl.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/control/geometric_lqr.hpp"
#include "hodyn/plugin/controller_plugin.hpp"

namespace hodyn {
namespace control {

namespace detail_lqr {
/// The parameter table: sets the named values on `config`; kInvalidArgument
/// for an unknown name or a value out of range, kNonFiniteInput for NaN/±inf
/// (`config` may then be partly set: callers pass a copy).
Status apply_parameters(GeometricLqrConfig& config, const plugin::Parameter* parameters,
                        std::size_t count) noexcept;
std::size_t parameter_count() noexcept;
Status parameter_info(std::size_t index, plugin::ParameterInfo& info) noexcept;
}  // namespace detail_lqr

class GeometricLqrPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kName = "lqr";
  using Controller = GeometricLqr;
  static constexpr const char* kRobotName = AerialManipulatorRobot::kName;
  static constexpr std::uint32_t kRobotId = AerialManipulatorRobot::kId;
  static constexpr int kNumJoints = Controller::kNumJoints;
  static constexpr int kNumRotors = Controller::kNumRotors;

  /// Starts with the default configuration designed (update() works at once).
  GeometricLqrPlugin() noexcept;

  Status configure(const plugin::Parameter* parameters, std::size_t count) noexcept override;
  void reset() noexcept override;
  Status update(const plugin::Sensors& sensors, const plugin::Reference& reference,
                plugin::Command& command) noexcept override;
  std::size_t parameter_count() const noexcept override;
  Status parameter_info(std::size_t index, plugin::ParameterInfo& info) const noexcept override;

  const Controller& controller() const noexcept { return controller_; }

 private:
  GeometricLqrConfig config_{};
  Controller controller_{};
  Controller::Measurement measurement_{};
  Controller::Reference reference_{};
  Controller::Output output_{};
};

}  // namespace control
}  // namespace hodyn
