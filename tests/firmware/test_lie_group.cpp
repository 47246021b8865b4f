// tests/firmware/test_lie_group.cpp — exp/log round trips on target:
// se3_log(exp([Y] q)) = Y q for random unit screws and angles in (0, 3), and
// so3_log of axis-angle rotations, including the small-angle series branch.
// exp and log are a few dozen well-conditioned operations away from angle π
// (where log's axis is ill-conditioned), so the bound is kLieGrowth · eps with
// kLieGrowth = 64 (the measured worst is printed) — except that the
// exponential's translation a − R a cancels to O(θ |a|) at small angles θ, so
// its rounding (eps |a|) is a relative error eps / θ of the result: the SE(3)
// errors are normalised by (1 + 1/θ).
#include <hodyn/logarithm.hpp>
#include <hodyn/screw_exponential.hpp>

#include <algorithm>

#include "self_test.hpp"

namespace hodyn {
namespace firmware_test {

void run_lie_group_checks(Checks& checks) noexcept {
  checks.group("lie group");
  constexpr double kLieGrowth = 64.0;
  Random rng(7u);
  double worst_se3 = 0.0, worst_so3 = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    Vector3<Scalar> e(Scalar(rng.uniform()), Scalar(rng.uniform()), Scalar(rng.uniform()));
    e.normalize();
    const Vector3<Scalar> point(Scalar(rng.uniform()), Scalar(rng.uniform()),
                                Scalar(rng.uniform()));
    Twist<Scalar> y;
    y << e, point.cross(e);
    // Angles over (0, 3): the last trials small (the series branch of se3_log).
    const double angle = trial < 16 ? 1.5 + 1.5 * rng.uniform() : 1e-3 * (1.0 + rng.uniform());
    const Scalar q = Scalar(angle);
    const Pose<Scalar> c = screw_exponential<Scalar>(y, q);
    const Twist<Scalar> back = se3_log(c);
    const Twist<Scalar> expected = y * q;
    worst_se3 =
        std::max(worst_se3, static_cast<double>((back - expected).norm() / expected.norm()) /
                                (1.0 + 1.0 / angle));
    const Vector3<Scalar> w = so3_log<Scalar>(axis_angle_rotation<Scalar>(e, q));
    worst_so3 = std::max(worst_so3, static_cast<double>((w - e * q).norm() / q));
  }
  checks.expect_le(worst_se3, kLieGrowth * kEps, "se3_log(exp([Y] q)) = Y q");
  checks.measure("se3 exp/log round trip / (1 + 1/angle)", worst_se3 / kEps, " eps");
  checks.expect_le(worst_so3, kLieGrowth * kEps, "so3_log(Rot(e, q)) = e q");
  checks.measure("so3 exp/log round trip", worst_so3 / kEps, " eps");
}

}  // namespace firmware_test
}  // namespace hodyn
