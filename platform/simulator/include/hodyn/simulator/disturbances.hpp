// hodyn/simulator/disturbances.hpp — what the environment does to the plant
// beyond gravity: wind gusts on the base and a payload picked up by a link.
//
// Gust: a force and a torque on the base, at its centre of mass, with
// world-frame directions and the (1 − cos) profile of aviation gust models
//   s(t) = ½ (1 − cos(2π (t − start)/duration))   for start ≤ t ≤ start + duration,
//   F(t) = s(t) F_peak,  n(t) = s(t) n_peak,  ∫F dt = F_peak duration / 2.
// The plant evaluates it at every Runge–Kutta stage time.
//
// Payload step: from `time` on, body `body` (1..nJ, any link) carries an extra point mass
// `mass` at `offset` (that body's frame, i.e. from its centre of mass). The
// plant adds it to its own copy of the model (Model::set_body) at the first
// integration step that starts at or after `time`, so it acts at most one
// step (≤ 250 µs) late; the velocities are kept (the mass appears moving with
// the body).
#pragma once

#include <array>

#include "hodyn/spatial_algebra.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

/// A (1 − cos) gust on the base, world-frame directions.
struct Gust {
  double start = 0.0;                                     ///< s
  double duration = 0.0;                                  ///< s, > 0
  Vector3<double> peak_force = Vector3<double>::Zero();   ///< N, world
  Vector3<double> peak_torque = Vector3<double>::Zero();  ///< N m, world

  /// s(t) ∈ [0, 1]: 0 outside [start, start + duration], 1 in the middle.
  double profile(double t) const;
  /// (n(t); F(t)), world axes, acting at the base centre of mass.
  Wrench<double> wrench(double t) const;
};

/// A point mass attached to body `body` from `time` on.
struct PayloadStep {
  double time = 0.0;  ///< s
  int body = 3;       ///< 1..nJ (the 12-DoF robot: 1..6, 3 and 6 its end effectors)
  double mass = 0.0;  ///< kg, ≥ 0
  Vector3<double> offset = Vector3<double>::Zero();  ///< m, in the body's frame

  /// The body's inertia with the point mass added (ten parameters add up).
  SpatialInertia<double> combined_with(const SpatialInertia<double>& body_inertia) const;
};

/// Everything the plant is disturbed by; fixed capacity, no heap.
struct Disturbances {
  static constexpr int kMaxGusts = 4;
  std::array<Gust, kMaxGusts> gusts{};
  int num_gusts = 0;  ///< gusts[0..num_gusts) are active
  bool has_payload = false;
  PayloadStep payload{};

  /// Sum of the active gusts at time t, world axes, at the base centre of mass.
  Wrench<double> gust_wrench(double t) const;
  /// kOk, or kInvalidArgument / kNonFiniteInput for a malformed entry; a
  /// payload must sit on a link, body 1..num_joints (6: the 12-DoF robot).
  Status validate(int num_joints = 6) const;
};

}  // namespace hodyn::sim
