// hodyn/control/feedback_linearization_plugin.hpp — the feedback-linearization
// controller (feedback_linearization.hpp) behind the plugin interface: named
// parameters, ABI frames in and out. Registered as "feedback_linearization".
//
// The plugin is the thin module; the control law and its safety logic live in
// FeedbackLinearization<Robot, Scalar>, which is unit-tested on its own. A
// plugin is built per robot type: its model is Robot::describe()'s robot, and
// its run-time parameters tune the controller, never the robot. Scalar is
// double or float (FeedbackLinearizationPlugin / ...Float: the 12-DoF robot).
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/control/feedback_linearization.hpp"
#include "hodyn/plugin/controller_plugin.hpp"
#include "hodyn/plugin/float_frames.hpp"

namespace hodyn {
namespace control {

/// Run-time settings the parameters map onto: the controller's configuration
/// plus the gains given as bandwidths (all poles of each group at −λ).
struct FeedbackLinearizationSettings {
  FeedbackLinearizationConfig config{};
  double position_bandwidth = 8.0;   ///< λ of the base position (rad/s)
  double attitude_bandwidth = 20.0;  ///< λ of the base attitude (rad/s)
  double joint_bandwidth = 25.0;     ///< λ of the joints (rad/s)
  bool integral_action = true;       ///< (s+λ)⁵ with ∫e, else (s+λ)⁴

  /// The configuration with the gains computed from the bandwidths.
  FeedbackLinearizationConfig resolved() const;
};

namespace detail {
/// The plugin's parameter table (robot independent; compiled once in
/// hodyn::feedback_linearization). Sets the named values on `settings`:
/// kInvalidArgument for an unknown name or a value out of its range,
/// kNonFiniteInput for NaN / ±inf (then `settings` may be partly set: callers
/// pass a copy).
Status apply_parameters(FeedbackLinearizationSettings& settings,
                        const plugin::Parameter* parameters, std::size_t count) noexcept;
std::size_t parameter_count() noexcept;
Status parameter_info(std::size_t index, plugin::ParameterInfo& info) noexcept;
}  // namespace detail

/// The plugin over FeedbackLinearization<Robot, Scalar>: frames (double) are
/// converted to Scalar on the way in and back to double on the way out.
template <class Robot, class Scalar>
class BasicFeedbackLinearizationPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kName = "feedback_linearization";
  using Controller = FeedbackLinearization<Robot, Scalar>;
  /// The robot this plugin is built for (hosts check it: plugin/abi.h).
  static constexpr const char* kRobotName = Robot::kName;
  static constexpr std::uint32_t kRobotId = Robot::kId;
  static constexpr int kNumJoints = Controller::kNumJoints;
  static constexpr int kNumRotors = Controller::kNumRotors;

  /// Starts with the default settings applied (so update() works at once).
  BasicFeedbackLinearizationPlugin() noexcept;

  Status configure(const plugin::Parameter* parameters, std::size_t count) noexcept override;
  void reset() noexcept override;
  Status update(const plugin::Sensors& sensors, const plugin::Reference& reference,
                plugin::Command& command) noexcept override;
  /// The same step on float frames (plugin/float_frames.hpp), for a host
  /// linked with the plugin (FloatFramePlugin, plugin/c_adapter.hpp): the
  /// same command as update() on the frames' values widened to double.
  Status float_update(const plugin::SensorsF32& sensors, const plugin::ReferenceF32& reference,
                      plugin::CommandF32& command) noexcept;
  std::size_t parameter_count() const noexcept override;
  Status parameter_info(std::size_t index, plugin::ParameterInfo& info) const noexcept override;

  const Controller& controller() const noexcept { return controller_; }
  const FeedbackLinearizationSettings& settings() const noexcept { return settings_; }

 private:
  FeedbackLinearizationSettings settings_{};
  Controller controller_{};
  typename Controller::Measurement measurement_{};
  typename Controller::Reference reference_{};
  typename Controller::Output output_{};
};

/// The plugin in double precision ("feedback_linearization").
using FeedbackLinearizationPlugin =
    BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, double>;
/// The same in float, for single-precision FPUs (Cortex-M4F): library
/// hodyn::feedback_linearization_float, registered by
/// hodyn::feedback_linearization_float_static as "feedback_linearization_float".
using FeedbackLinearizationPluginFloat =
    BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, float>;

// The definitions are in feedback_linearization_plugin_impl.hpp, for the one
// source file that instantiates the plugin for another robot type.
extern template class BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, double>;
extern template class BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, float>;

}  // namespace control
}  // namespace hodyn
