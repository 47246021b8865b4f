// The plant's integrator: the SE(3) exponential, the convergence order of
// RKMK4, conservation of energy and momentum, and the gust's impulse.
#include <gtest/gtest.h>

#include <hodyn/logarithm.hpp>
#include <hodyn/screw_exponential.hpp>
#include <hodyn/simulator/rkmk4.hpp>
#include <hodyn/simulator/se3_exponential.hpp>

#include <cmath>
#include <cstdio>

#include "simulator/plant_fixtures.hpp"

namespace hodyn {
namespace {

using sim::Plant;
using sim::PlantInput;
using sim::PlantParameters;
using sim::PlantState;

TEST(Se3Exponential, MatchesScrewExponentialAndLog) {
  const double angles[] = {0.0, 1e-9, 1e-4, 0.05, 0.0999, 0.1001, 0.7, 2.5};
  for (double theta : angles) {
    const Vector3<double> e = Vector3<double>(0.3, -0.8, 0.5).normalized();
    const Vector3<double> v(0.7, 0.2, -0.4);
    const Twist<double> u = spatial_vector<double>(theta * e, v);
    const Pose<double> c = sim::se3_exponential(u);
    EXPECT_LT((c.rotation.transpose() * c.rotation - Matrix3<double>::Identity()).norm(), 1e-15);
    EXPECT_LT((se3_log(c) - u).norm(), 2e-15 * (1.0 + u.norm())) << "theta " << theta;
    if (theta > 1e-3) {  // screw_exponential(u/θ, θ) is the same map
      const Pose<double> ref = screw_exponential<double>(u / theta, theta);
      EXPECT_LT((ref.matrix() - c.matrix()).norm(), 1e-13) << "theta " << theta;
    }
  }
}

/// Runs `seconds` with the inputs of smooth_input sampled every millisecond.
PlantState run_moving(double step, double seconds) {
  PlantParameters params;
  params.step = step;
  Plant plant;
  EXPECT_EQ(plant.configure(params), Status::kOk);
  PlantInput hover;
  EXPECT_EQ(plant.set_state(test::moving_state(params, hover)), Status::kOk);
  const int periods = static_cast<int>(std::lround(seconds / 1e-3));
  for (int k = 0; k < periods; ++k) {
    EXPECT_EQ(plant.step(test::smooth_input(hover, k * 1e-3), 1e-3), Status::kOk);
  }
  EXPECT_EQ(plant.saturated_calls(), 0u);  // the order is that of the smooth dynamics
  return plant.state();
}

struct StateErrors {
  double pose, twist, q, theta;
};

StateErrors errors(const PlantState& s, const PlantState& ref) {
  return {se3_log(ref.base_pose.inverse() * s.base_pose).norm(),
          (s.base_twist - ref.base_twist).norm(), (s.q - ref.q).norm(),
          (s.motor_position - ref.motor_position).norm()};
}

TEST(PlantIntegrator, ConvergesWithOrderFour) {
  const double h = 1.0 / 4000.0;
  const PlantState ref = run_moving(h / 32.0, 1.0);
  StateErrors e[3];
  for (int i = 0; i < 3; ++i) e[i] = errors(run_moving(h / double(1 << i), 1.0), ref);
  const auto order = [](double coarse, double fine) { return std::log2(coarse / fine); };
  const char* names[] = {"pose", "twist", "q", "theta"};
  for (int c = 0; c < 4; ++c) {
    const double err[3] = {(&e[0].pose)[c], (&e[1].pose)[c], (&e[2].pose)[c]};
    const double p1 = order(err[0], err[1]);
    const double p2 = order(err[1], err[2]);
    std::printf("%-6s errors h, h/2, h/4: %.3e %.3e %.3e  orders %.3f %.3f\n", names[c], err[0],
                err[1], err[2], p1, p2);
    EXPECT_GE(p1, 3.7) << names[c];
    EXPECT_GE(p2, 3.7) << names[c];
  }
}

TEST(PlantIntegrator, ConservesEnergyAndMomentumWhenFree) {
  for (double step : {1.0 / 8000.0, 1.0 / 32000.0}) {
    PlantParameters params = test::conservative_parameters();
    params.step = step;
    Plant plant;
    ASSERT_EQ(plant.configure(params), Status::kOk);
    ASSERT_EQ(plant.set_state(test::free_moving_state()), Status::kOk);
    sim::PlantEnergy e0, e1;
    Wrench<double> p0, p1;
    ASSERT_EQ(sim::plant_energy(plant.model(), params, plant.state(), e0), Status::kOk);
    ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p0), Status::kOk);
    PlantInput zero;  // u = 0; rotor commands irrelevant (c_f = c_d = 0)
    for (int k = 0; k < 2000; ++k) ASSERT_EQ(plant.step(zero, 1e-3), Status::kOk);
    ASSERT_EQ(sim::plant_energy(plant.model(), params, plant.state(), e1), Status::kOk);
    ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p1), Status::kOk);
    const double energy_error = std::abs(e1.total() - e0.total()) / e0.total();
    const double angular_error = (angular(p1) - angular(p0)).norm() / angular(p0).norm();
    const double linear_error = (linear(p1) - linear(p0)).norm() / linear(p0).norm();
    const Matrix3<double>& r = plant.state().base_pose.rotation;
    const double orthonormality = (r.transpose() * r - Matrix3<double>::Identity()).norm();
    std::printf(
        "step 1/%.0f: 2 s relative drift energy %.2e (E0 = %.4f J), angular momentum "
        "%.2e, linear momentum %.2e, |RtR - I| %.1e\n",
        1.0 / step, energy_error, e0.total(), angular_error, linear_error, orthonormality);
    EXPECT_LE(energy_error, 1e-8);
    EXPECT_LE(angular_error, 1e-8);
    EXPECT_LE(linear_error, 1e-8);
    EXPECT_LE(orthonormality, 1e-13);
  }
}

TEST(PlantIntegrator, GustImpulseEqualsMomentumChange) {
  const PlantParameters params = test::conservative_parameters();
  Plant plant;
  ASSERT_EQ(plant.configure(params), Status::kOk);
  ASSERT_EQ(plant.set_state(test::free_moving_state()), Status::kOk);
  sim::Disturbances d;
  d.num_gusts = 2;
  d.gusts[0] = {0.1, 0.2, Vector3<double>(3.0, -2.0, 5.0), Vector3<double>::Zero()};
  d.gusts[1] = {0.4, 0.15, Vector3<double>::Zero(), Vector3<double>(0.2, -0.1, 0.3)};
  ASSERT_EQ(plant.set_disturbances(d), Status::kOk);
  Wrench<double> p0, p1, p2;
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p0), Status::kOk);
  const PlantInput zero;
  for (int k = 0; k < 350; ++k) ASSERT_EQ(plant.step(zero, 1e-3), Status::kOk);
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p1), Status::kOk);
  for (int k = 350; k < 600; ++k) ASSERT_EQ(plant.step(zero, 1e-3), Status::kOk);
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p2), Status::kOk);
  // ∫F dt = F_peak · duration / 2 for the (1 − cos) profile.
  const Vector3<double> impulse = d.gusts[0].peak_force * 0.1;
  const Vector3<double> angular_impulse = d.gusts[1].peak_torque * 0.075;
  const double linear_error = (linear(p1) - linear(p0) - impulse).norm() / impulse.norm();
  const double torque_error =
      (angular(p2) - angular(p1) - angular_impulse).norm() / angular_impulse.norm();
  std::printf("gust: linear impulse error %.2e, angular impulse error %.2e (relative)\n",
              linear_error, torque_error);
  EXPECT_LE(linear_error, 1e-9);
  EXPECT_LE(torque_error, 1e-9);
  EXPECT_LE((linear(p2) - linear(p1)).norm(), 1e-9 * impulse.norm());  // torque-only gust
}

}  // namespace
}  // namespace hodyn
