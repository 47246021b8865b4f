// Propeller allocation with motor limits (hodyn/control/rotor_allocation.hpp).
#include <gtest/gtest.h>

#include <hodyn/control/rotor_allocation.hpp>

#include "support/random.hpp"

namespace {

using hodyn::Status;
using hodyn::control::RotorAllocation;
using Wrench = hodyn::Wrench<double>;

RotorAllocation<double> configured() {
  RotorAllocation<double> a;
  EXPECT_EQ(a.configure(hodyn::TiltHexParameters{}, hodyn::RotorParameters{}), Status::kOk);
  return a;
}

TEST(RotorAllocation, InsideTheLimitsTheWrenchIsProducedExactly) {
  const auto alloc = configured();
  EXPECT_NEAR(alloc.condition_number(), 7.74, 0.01);  // docs/aerial-manipulator.md
  const hodyn::Matrix6<double> a = hodyn::tilthex_allocation<double>();
  hodyn::test::Rng rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    // Speeds well inside [100, 1200] rad/s, then the wrench they make.
    RotorAllocation<double>::RotorVector speed;
    for (int i = 0; i < 6; ++i) speed(i) = rng.uniform(300.0, 1100.0);
    const RotorAllocation<double>::RotorVector x = speed.cwiseProduct(speed);
    const Wrench w = a * x;
    RotorAllocation<double>::RotorVector solved;
    ASSERT_EQ(alloc.speeds_squared(w, solved), Status::kOk);
    EXPECT_LT((solved - x).norm() / x.norm(), 1e-12);
  }
}

TEST(RotorAllocation, HoverNeedsEqualSpeedsOf801RadPerSecond) {
  const auto alloc = configured();
  Wrench hover = Wrench::Zero();
  hover(5) = 4.0 * 9.81;
  RotorAllocation<double>::RotorVector x;
  ASSERT_EQ(alloc.speeds_squared(hover, x), Status::kOk);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(std::sqrt(x(i)), 801.5, 0.1);
}

TEST(RotorAllocation, OutOfReachWrenchIsSaturatedAndBetterThanClamping) {
  const auto alloc = configured();
  const hodyn::Matrix6<double> a = hodyn::tilthex_allocation<double>();
  const hodyn::RotorParameters limits;
  hodyn::test::Rng rng(5);
  int better_or_equal = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Wrench w;
    w << 3.0 * rng.vec3(), 20.0 * rng.vec3();
    w(5) += 60.0;
    RotorAllocation<double>::RotorVector x;
    const Status s = alloc.speeds_squared(w, x);
    const RotorAllocation<double>::RotorVector naive = alloc.unconstrained(w);
    bool inside = true;
    for (int i = 0; i < 6; ++i)
      inside = inside && naive(i) >= 100.0 * 100.0 && naive(i) <= 1200.0 * 1200.0;
    if (inside) {
      EXPECT_EQ(s, Status::kOk);
      continue;
    }
    EXPECT_EQ(s, Status::kActuatorSaturated);
    for (int i = 0; i < 6; ++i) {
      EXPECT_GE(x(i), limits.min_speed * limits.min_speed * (1 - 1e-12));
      EXPECT_LE(x(i), limits.max_speed * limits.max_speed * (1 + 1e-12));
    }
    // Weighted residual against the naive per-rotor clamp of A⁻¹W.
    RotorAllocation<double>::RotorVector clamped = naive;
    for (int i = 0; i < 6; ++i) clamped(i) = alloc.clamp(clamped(i));
    hodyn::Vector6<double> s_w;
    s_w << 5, 5, 5, 1, 1, 2;
    const double ours = (s_w.asDiagonal() * (a * x - w)).norm();
    const double theirs = (s_w.asDiagonal() * (a * clamped - w)).norm();
    if (ours <= theirs * (1 + 1e-9)) ++better_or_equal;
  }
  EXPECT_GE(better_or_equal, 30);  // clamp-and-resolve is a heuristic, not BVLS
}

TEST(RotorAllocation, LiteralEquation28IsRejectedAsSingular) {
  RotorAllocation<double> alloc;
  hodyn::TiltHexParameters literal;
  literal.alternate_tilt = false;
  literal.alternate_drag = false;
  EXPECT_EQ(alloc.configure(literal, hodyn::RotorParameters{}), Status::kSingularAllocation);
  EXPECT_FALSE(alloc.configured());
  hodyn::RotorParameters bad;
  bad.max_speed = 50.0;  // below min_speed
  EXPECT_EQ(alloc.configure(hodyn::TiltHexParameters{}, bad), Status::kInvalidArgument);
}

TEST(RotorAllocation, FloatBuildsAndAgrees) {
  RotorAllocation<float> f;
  ASSERT_EQ(f.configure(hodyn::TiltHexParameters{}, hodyn::RotorParameters{}), Status::kOk);
  hodyn::Wrench<float> hover = hodyn::Wrench<float>::Zero();
  hover(5) = 39.24f;
  RotorAllocation<float>::RotorVector x;
  ASSERT_EQ(f.speeds_squared(hover, x), Status::kOk);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(std::sqrt(x(i)), 801.5f, 0.5f);
}

}  // namespace
