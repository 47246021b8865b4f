// hodyn/detail/applied_loads.hpp — applied wrenches as Taylor coefficients
// in the world frame, shared by inverse and forward dynamics.
#pragma once

#include "hodyn/detail/isa.hpp"
#include <array>

#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Every load entry of orders 0..order is finite.
template <class Tree, int MaxOrder, class Scalar>
bool loads_finite(const ExternalLoads<Tree, MaxOrder, Scalar>& loads, int order) {
  for (int j = 0; j < Tree::kNumBodies; ++j)
    for (int k = 0; k <= order; ++k) {
      if (loads.has_world_wrench[j] && !all_finite(loads.world_wrench[j][k])) return false;
      if (loads.has_body_wrench[j] && !all_finite(loads.body_wrench[j][k])) return false;
    }
  for (int k = 0; k <= order; ++k)
    if (!all_finite(loads.joint_torque[k])) return false;
  return true;
}

/// Coefficients 0..order of the applied wrench on body j in the world frame;
/// a body-frame wrench is carried along the body pose C_j = F_j A⁰_j (eqs. 69-70).
template <class Tree, int MaxOrder, class Scalar>
void applied_wrench_coefficients(const Model<Tree, Scalar>& model,
                                 const ExternalLoads<Tree, MaxOrder, Scalar>& loads, int j,
                                 int order, const BodySeries<MaxOrder, Scalar>& b,
                                 std::array<SV<Scalar>, MaxOrder + 1>& out) {
  for (int k = 0; k <= order; ++k) out[k] = SV<Scalar>{};
  if (loads.has_world_wrench[j])
    for (int k = 0; k <= order; ++k)
      out[k] = inverse_factorial<Scalar>(k) * SV<Scalar>::from(loads.world_wrench[j][k]);
  if (!loads.has_body_wrench[j]) return;
  const Pose<Scalar>& a = model.home_pose(j);
  MovingFrame<MaxOrder, Scalar> frame;
  frame.start(b.rotation * M3<Scalar>::from(a.rotation),
              b.rotation * V3<Scalar>::from(a.translation) + b.translation);
  std::array<SV<Scalar>, MaxOrder + 1> wb{};
  for (int k = 0; k <= order; ++k) {
    wb[k] = inverse_factorial<Scalar>(k) * SV<Scalar>::from(loads.body_wrench[j][k]);
    if (k > 0) frame.extend(k, b.twist);
    out[k] += frame.to_world(k, wb);
  }
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
