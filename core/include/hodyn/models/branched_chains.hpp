// hodyn/models/branched_chains.hpp — the scaled benchmark family of seed 000 Table 4.
//
// A floating base with `Branches` serial chains of `BodiesPerBranch` links each:
// N = 1 + Branches·BodiesPerBranch bodies (Table 4 uses 5 branches, N up to
// 996). Every chain is built like one arm of the aerial manipulator and
// continued: links 0.12 m long hanging down, joint axes cycling y, x, z, the
// Table 3 inertias; the chains are mounted on a circle of radius c/2 = 0.09 m
// below the base, equally spaced in azimuth.
#pragma once

#include <array>
#include <cmath>

#include "hodyn/model.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

template <int Branches, int BodiesPerBranch>
struct BranchedChainsTree {
  static_assert(Branches >= 1 && BodiesPerBranch >= 1, "at least one branch of one body");
  static constexpr int kNumBodies = 1 + Branches * BodiesPerBranch;

 private:
  static constexpr std::array<int, kNumBodies> make_parents() {
    std::array<int, kNumBodies> p{};
    p[0] = -1;
    for (int br = 0; br < Branches; ++br)
      for (int i = 0; i < BodiesPerBranch; ++i) {
        const int j = 1 + br * BodiesPerBranch + i;
        p[j] = i == 0 ? 0 : j - 1;
      }
    return p;
  }
  static constexpr std::array<JointKind, kNumBodies> make_joints() {
    std::array<JointKind, kNumBodies> k{};
    k[0] = JointKind::kFloatingBase;
    constexpr JointKind cycle[3] = {JointKind::kRevoluteY, JointKind::kRevoluteX,
                                    JointKind::kRevoluteZ};
    for (int j = 1; j < kNumBodies; ++j) k[j] = cycle[(j - 1) % BodiesPerBranch % 3];
    return k;
  }

 public:
  static constexpr std::array<int, kNumBodies> kParent = make_parents();
  static constexpr std::array<JointKind, kNumBodies> kJoint = make_joints();
};

/// Fills `model` with the Table 3 parameters on the branched geometry above
/// (fixed, valid constants: this cannot fail short of a programming error).
template <int Branches, int BodiesPerBranch, class Scalar = double>
Status make_branched_chains(Model<BranchedChainsTree<Branches, BodiesPerBranch>, Scalar>& model) {
  using V3 = Vector3<Scalar>;
  const double b = 0.10, d = 0.06, radius = 0.09;
  Status s = model.set_gravity(V3(Scalar(0), Scalar(0), Scalar(-9.81)));
  if (s != Status::kOk) return s;
  s = model.set_body(0, Pose<Scalar>::identity(),
                     SpatialInertia<Scalar>::from_mass_com_inertia(
                         Scalar(2.5), V3::Zero(), V3(Scalar(0.03), Scalar(0.03), Scalar(0.05)).asDiagonal().toDenseMatrix()));
  if (s != Status::kOk) return s;
  const auto link = SpatialInertia<Scalar>::from_mass_com_inertia(
      Scalar(0.25), V3::Zero(), V3(Scalar(0.002), Scalar(0.002), Scalar(0.001)).asDiagonal().toDenseMatrix());
  const V3 axes[3] = {V3::UnitY(), V3::UnitX(), V3::UnitZ()};
  const double pi = 3.14159265358979323846;
  for (int br = 0; br < Branches; ++br) {
    const double phi = 2.0 * pi * br / Branches;
    const double x = radius * std::cos(phi), y = radius * std::sin(phi);
    for (int i = 0; i < BodiesPerBranch; ++i) {
      const int j = 1 + br * BodiesPerBranch + i;
      const V3 com(Scalar(x), Scalar(y), Scalar(-b - d - 2 * d * i));
      s = model.set_body(j, Pose<Scalar>::from_translation(com), link);
      if (s != Status::kOk) return s;
      s = model.set_revolute_axis(j, axes[i % 3], com + V3(Scalar(0), Scalar(0), Scalar(d)));
      if (s != Status::kOk) return s;
    }
  }
  return Status::kOk;
}

}  // namespace hodyn
