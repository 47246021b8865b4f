// hodyn/control/feedback_linearization_plugin.hpp — the feedback-linearization
// controller (feedback_linearization.hpp) behind the plugin interface: named
// parameters, ABI frames in and out. Registered as "feedback_linearization".
//
// The plugin is the thin module; the control law and its safety logic live in
// FeedbackLinearization<double>, which is unit-tested on its own.
#pragma once

#include <cstddef>

#include "hodyn/control/feedback_linearization.hpp"
#include "hodyn/plugin/controller_plugin.hpp"

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

class FeedbackLinearizationPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kName = "feedback_linearization";

  /// Starts with the default settings applied (so update() works at once).
  FeedbackLinearizationPlugin() noexcept;

  Status configure(const plugin::Parameter* parameters, std::size_t count) noexcept override;
  void reset() noexcept override;
  Status update(const plugin::Sensors& sensors, const plugin::Reference& reference,
                plugin::Command& command) noexcept override;
  std::size_t parameter_count() const noexcept override;
  Status parameter_info(std::size_t index, plugin::ParameterInfo& info) const noexcept override;

  const FeedbackLinearization<double>& controller() const noexcept { return controller_; }
  const FeedbackLinearizationSettings& settings() const noexcept { return settings_; }

 private:
  FeedbackLinearizationSettings settings_{};
  FeedbackLinearization<double> controller_{};
  FeedbackLinearization<double>::Measurement measurement_{};
  FeedbackLinearization<double>::Reference reference_{};
  FeedbackLinearization<double>::Output output_{};
};

}  // namespace control
}  // namespace hodyn
