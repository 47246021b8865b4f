// The header hodyn-rotors generated from core/robots/aerial_manipulator/rotors.json
// (built with -Werror and hodyn's warnings): constexpr data, make_rotors<S>(),
// and the TiltHex allocation of seed 000 eq. 28.
#include "aerial_manipulator_rotors.hpp"

#include <hodyn/models/tilthex.hpp>
#include <hodyn/models/tilthex_rotor_set.hpp>

#include "support/error_metrics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <cmath>

namespace {

namespace am = aerial_manipulator_rotors;

static_assert(am::kNumRotors == 6, "six TiltHex propellers");
static_assert(am::kRotors[0].spin == -1 && am::kRotors[1].spin == 1,
              "odd propellers clockwise, constexpr data");
static_assert(am::kRotors[5].max_speed == 1200.0, "constexpr data");

// The header's printed digits (from rotors.json) against the code that
// computes the TiltHex: positions and axes within 4 ulps normwise — equal to
// the bit only when the code rounds as the build that wrote the file did, not
// under FMA contraction (-march=native; test_rotor_file.cpp) — and the
// literal fields bit for bit.
TEST(GeneratedRotorHeader, IsTheTiltHexRotorSet) {
  const hodyn::RotorSet<am::kNumRotors, double> set = am::make_rotors<double>();
  const hodyn::RotorSet<6, double> tilthex = hodyn::tilthex_rotor_set();
  EXPECT_EQ(hodyn::check_rotor_set(set), hodyn::Status::kOk);
  for (int i = 0; i < 6; ++i) {
    EXPECT_LE(hodyn::test::normwise_ulps(set[i].position, tilthex[i].position), 4.0)
        << "rotor " << i;
    EXPECT_LE(hodyn::test::normwise_ulps(set[i].axis, tilthex[i].axis), 4.0) << "rotor " << i;
    EXPECT_EQ(set[i].spin, tilthex[i].spin);
    EXPECT_EQ(set[i].thrust_coefficient, tilthex[i].thrust_coefficient);
    EXPECT_EQ(set[i].drag_coefficient, tilthex[i].drag_coefficient);
    EXPECT_EQ(set[i].min_speed, tilthex[i].min_speed);
    EXPECT_EQ(set[i].max_speed, tilthex[i].max_speed);
    EXPECT_EQ(set[i].time_constant, tilthex[i].time_constant);
  }
}

TEST(GeneratedRotorHeader, GivesTheTiltHexAllocation) {
  const hodyn::Matrix6<double> a = hodyn::rotor_allocation(am::make_rotors<double>());
  const hodyn::Matrix6<double> expected = hodyn::tilthex_allocation<double>();
  double worst = 0;
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r)
      worst = std::max(worst, std::abs(a(r, c) - expected(r, c)) / std::abs(expected(r, c)));
  std::printf("generated header vs tilthex_allocation: max relative entry error %.3g\n", worst);
  EXPECT_LE(worst, 1e-15);

  // float: the data rounded once to float, the products in float.
  const Eigen::Matrix<float, 6, 6> af = hodyn::rotor_allocation(am::make_rotors<float>());
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r)
      EXPECT_NEAR(static_cast<double>(af(r, c)), expected(r, c), 1e-6 * std::abs(expected(r, c)))
          << "entry " << r << ", " << c;
}

}  // namespace
