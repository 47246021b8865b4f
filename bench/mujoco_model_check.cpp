// mujoco_model_check.cpp — ctest check (label bench_model) that the MJCF of the
// MuJoCo baseline, bench/aerial_manipulator.xml, is hodyn's aerial manipulator:
// total mass 4 kg, hover force 39.24 N, and mj_inverse / mj_forward agree with
// hodyn's order-0 inverse dynamics at 64 random states to 1e-6 (see
// mujoco_aerial_manipulator.hpp for the conventions). Usage: <exe> <path.xml>.
#include <cstdio>
#include <string>

#include "mujoco_aerial_manipulator.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s aerial_manipulator.xml\n", argv[0]);
    return 2;
  }
  std::string error;
  const hodyn_bench::MujocoModelPtr model = hodyn_bench::load_mujoco_model(argv[1], error);
  if (!model) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  double worst = 0.0;
  error = hodyn_bench::check_mujoco_model(model.get(), 1e-6, worst);
  if (!error.empty()) {
    std::fprintf(stderr, "FAIL: %s\n", error.c_str());
    return 1;
  }
  std::printf("MJCF agrees with hodyn's aerial manipulator (largest deviation %.3g)\n", worst);
  return 0;
}
