// Gust profile and payload inertia (hodyn/simulator/disturbances.hpp).
#include "hodyn/simulator/disturbances.hpp"

#include <cmath>

namespace hodyn::sim {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;

bool finite(double x) { return std::isfinite(x); }
bool finite(const Vector3<double>& v) { return v.allFinite(); }
}  // namespace

double Gust::profile(double t) const {
  if (!(duration > 0.0) || t <= start || t >= start + duration) return 0.0;
  return 0.5 * (1.0 - std::cos(kTwoPi * (t - start) / duration));
}

Wrench<double> Gust::wrench(double t) const {
  const double s = profile(t);
  return spatial_vector<double>(s * peak_torque, s * peak_force);
}

SpatialInertia<double> PayloadStep::combined_with(
    const SpatialInertia<double>& body_inertia) const {
  // A point mass m at r: mass m, first moment m r, rotational inertia −m [r]² about the origin.
  const SpatialInertia<double> point =
      SpatialInertia<double>::from_mass_com_inertia(mass, offset, Matrix3<double>::Zero());
  SpatialInertia<double> sum = body_inertia;
  sum.mass += point.mass;
  sum.first_moment += point.first_moment;
  sum.rotational_inertia += point.rotational_inertia;
  return sum;
}

Wrench<double> Disturbances::gust_wrench(double t) const {
  Wrench<double> w = Wrench<double>::Zero();
  for (int i = 0; i < num_gusts; ++i) w += gusts[static_cast<std::size_t>(i)].wrench(t);
  return w;
}

Status Disturbances::validate(int num_joints) const {
  if (num_gusts < 0 || num_gusts > kMaxGusts) return Status::kInvalidArgument;
  for (int i = 0; i < num_gusts; ++i) {
    const Gust& g = gusts[static_cast<std::size_t>(i)];
    if (!finite(g.start) || !finite(g.duration) || !finite(g.peak_force) || !finite(g.peak_torque))
      return Status::kNonFiniteInput;
    if (!(g.duration > 0.0)) return Status::kInvalidArgument;
  }
  if (has_payload) {
    if (!finite(payload.time) || !finite(payload.mass) || !finite(payload.offset))
      return Status::kNonFiniteInput;
    if (payload.body < 1 || payload.body > num_joints || payload.mass < 0.0)
      return Status::kInvalidArgument;
  }
  return Status::kOk;
}

}  // namespace hodyn::sim
