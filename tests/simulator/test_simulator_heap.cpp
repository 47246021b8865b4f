// No heap in the simulator's step path: Plant::step (with a gust and a payload
// attaching mid-run) and SensorModel::measure allocate nothing.
#include "support/heap_counter.hpp"  // defines the counting operator new (this TU only)

#include <gtest/gtest.h>

#include "simulator/plant_fixtures.hpp"

namespace hodyn {
namespace {

TEST(SimulatorHeap, PlantStepAndSensorMeasureDoNotAllocate) {
  const sim::PlantParameters params;
  sim::Plant plant;
  sim::PlantInput hover;
  ASSERT_EQ(plant.set_state(test::moving_state(params, hover)), Status::kOk);
  sim::Disturbances d;
  d.num_gusts = 1;
  d.gusts[0] = {0.002, 0.004, Vector3<double>(1.0, 0.0, 0.0), Vector3<double>(0.0, 0.1, 0.0)};
  d.has_payload = true;
  d.payload.time = 0.005;
  d.payload.mass = 0.2;
  ASSERT_EQ(plant.set_disturbances(d), Status::kOk);
  sim::SensorModel sensors;
  sim::SensorModelParameters sensor_params;
  sensor_params.noise = sim::SensorNoise::realistic();
  sensor_params.delay = 3e-3;
  ASSERT_EQ(sensors.configure(sensor_params), Status::kOk);
  hodyn_sensors frame{};
  sim::PlantRates rates;

  test::HeapProbe probe;
  Status status = Status::kOk;
  for (int k = 0; k < 10 && status == Status::kOk; ++k) {
    status = plant.step(test::smooth_input(hover, k * 1e-3), 1e-3);
    if (status == Status::kOk) status = sensors.measure(plant.state(), frame);
    if (status == Status::kOk) status = plant.evaluate_rates(hover, rates);
  }
  const long allocations = probe.count();
  EXPECT_EQ(status, Status::kOk);
  EXPECT_TRUE(plant.payload_attached());
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace hodyn
