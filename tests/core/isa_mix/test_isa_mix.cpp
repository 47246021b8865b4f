// Translation units built for different instruction sets link into one
// program without breaking the one-definition rule (detail/isa.hpp): each
// keeps its own lane kernels and workspace layout, and both compute the same
// dynamics. Without the per-ISA inline namespace the linker keeps one copy of
// each template instantiation for both units, and one of them then runs a
// kernel on a workspace of the other layout: with the tags removed by hand and
// the AVX2 unit linked first, this test ended in a segmentation fault.
#include "isa_mix.hpp"

#include <gtest/gtest.h>

#include <cmath>

TEST(IsaMix, BothUnitsKeepTheirOwnKernelsAndAgree) {
  const isa_mix::Report portable = isa_mix::run_portable();
  const isa_mix::Report avx2 = isa_mix::run_avx2();
  ASSERT_EQ(portable.status, 0);
  ASSERT_EQ(avx2.status, 0);
  // The portable unit (SSE2: 16-byte lanes, too narrow for double) runs the
  // scalar kernels; the AVX2 unit runs double lanes up to order 3.
  EXPECT_EQ(portable.max_lane_order, 0);
  EXPECT_EQ(avx2.max_lane_order, 3);
  EXPECT_NE(portable.workspace_bytes, avx2.workspace_bytes)
      << "the two layouts should differ, else this test shows nothing";
  for (std::size_t i = 0; i < portable.joint_torque.size(); ++i) {
    const double scale = 1.0 + std::abs(portable.joint_torque[i]);
    EXPECT_LT(std::abs(portable.joint_torque[i] - avx2.joint_torque[i]) / scale, 1e-12) << i;
  }
  for (std::size_t i = 0; i < portable.base_wrench.size(); ++i) {
    const double scale = 1.0 + std::abs(portable.base_wrench[i]);
    EXPECT_LT(std::abs(portable.base_wrench[i] - avx2.base_wrench[i]) / scale, 1e-12) << i;
  }
}
