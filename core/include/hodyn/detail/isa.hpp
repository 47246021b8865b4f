// hodyn/detail/isa.hpp — which SIMD configuration this translation unit
// compiles the algorithms for, and the inline namespace that tags it.
//
// The coefficient-lane kernels (detail/coefficient_lanes.hpp) are chosen by
// the instruction set the compiler targets: the lane width is a macro of the
// translation unit, and it changes the code of the algorithms and the layout
// of their workspaces (InverseDynamicsData holds lane arrays). Two translation
// units built for different instruction sets (say one with hodyn::native,
// one portable) would otherwise define the same templates differently, and
// the linker would keep one of them for both: a violation of the
// one-definition rule, with workspaces read at the wrong offsets.
//
// So everything whose code or layout depends on the lanes — the algorithms,
// their Data and Input types and hodyn::detail — lives in an inline namespace
// named after the configuration (hodyn::isa_simd32 for 32-byte lanes, …,
// hodyn::isa_scalar without lanes). Code still writes hodyn::inverse_dynamics;
// each configuration gets its own symbols. The model and its geometry
// (Model, Pose, SpatialInertia, MotionDerivatives, Status, the trees) do not
// depend on the lanes and are not tagged, so a Model built in one
// translation unit can be handed to algorithms compiled for another.
// docs/design.md ("Instruction sets and the one-definition rule") says more.
#pragma once

#if !defined(HODYN_COEFFICIENT_LANE_BYTES)
#if !(defined(__GNUC__) || defined(__clang__))
#define HODYN_COEFFICIENT_LANE_BYTES 0
#elif defined(__AVX512F__)
#define HODYN_COEFFICIENT_LANE_BYTES 64
#elif defined(__AVX__)
#define HODYN_COEFFICIENT_LANE_BYTES 32
#elif defined(__SSE2__) || defined(__ARM_NEON)
#define HODYN_COEFFICIENT_LANE_BYTES 16
#else
#define HODYN_COEFFICIENT_LANE_BYTES 0
#endif
#endif
#if !defined(HODYN_COEFFICIENT_LANES)
#define HODYN_COEFFICIENT_LANES (HODYN_COEFFICIENT_LANE_BYTES > 0)
#endif

#if !(HODYN_COEFFICIENT_LANES)
#define HODYN_ISA_NAMESPACE isa_scalar
#elif HODYN_COEFFICIENT_LANE_BYTES == 16
#define HODYN_ISA_NAMESPACE isa_simd16
#elif HODYN_COEFFICIENT_LANE_BYTES == 32
#define HODYN_ISA_NAMESPACE isa_simd32
#elif HODYN_COEFFICIENT_LANE_BYTES == 64
#define HODYN_ISA_NAMESPACE isa_simd64
#else
#error "HODYN_COEFFICIENT_LANE_BYTES must be 0, 16, 32 or 64"
#endif

/// Opens / closes the configuration's inline namespace (see the file comment).
#define HODYN_ISA_NAMESPACE_BEGIN inline namespace HODYN_ISA_NAMESPACE {
#define HODYN_ISA_NAMESPACE_END }
