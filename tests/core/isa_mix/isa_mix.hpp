// Two translation units of one executable compiled for different instruction
// sets (isa_mix_portable.cpp without flags, isa_mix_avx2.cpp with -mavx2
// -mfma), each running inverse dynamics on the aerial manipulator through the
// same templates. Each reports what it computed and how its workspace looks.
#pragma once

#include <array>
#include <cstddef>

namespace isa_mix {

struct Report {
  std::array<double, 6 * 3> joint_torque{};  ///< τ^(0..2), 6 joints each
  std::array<double, 6 * 3> base_wrench{};   ///< Q₁^(0..2)
  std::size_t workspace_bytes = 0;           ///< sizeof(InverseDynamicsData<AM, 5>)
  int max_lane_order = -1;                   ///< double lanes of this TU (0: scalar kernels)
  int status = -1;                           ///< hodyn::Status of the call
};

Report run_portable();
Report run_avx2();

}  // namespace isa_mix
