// Safety properties of the core: no heap use in any public call, statuses and
// zeroed outputs on bad input, recovery after a failure, the float pipeline,
// and the size of the inverse-dynamics workspace.
//
// This binary replaces the global allocation functions (every standard
// operator new/delete variant, and on glibc malloc/calloc/realloc/free) with
// counting versions (support/heap_counter.hpp); a test reads the counters
// around a call of the core with a HeapProbe.
#include <hodyn/hodyn.hpp>

// The counting allocator: included here and nowhere else in this executable.
#include "support/heap_counter.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <string>

namespace {

using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

using AMTree = hodyn::AerialManipulatorTree;
constexpr int kMaxOrder = 5;
template <class S>
using Data = hodyn::InverseDynamicsData<AMTree, kMaxOrder, S>;
template <class S>
using Motion = hodyn::MotionDerivatives<AMTree, kMaxOrder, S>;
template <class S>
using Loads = hodyn::ExternalLoads<AMTree, kMaxOrder, S>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using hodyn::test::HeapProbe;
using hodyn::test::Rng;

void random_motion(Rng& rng, Motion<double>& m) {
  m.base_pose.rotation = rng.rotation();
  m.base_pose.translation = rng.vec3();
  for (auto& v : m.base_twist) v = rng.vec6();
  for (auto& x : m.q)
    for (int i = 0; i < x.size(); ++i) x(i) = rng.normal();
}
void random_loads(Rng& rng, Loads<double>& l) {
  for (int j = 0; j < AMTree::kNumBodies; ++j) {
    l.has_world_wrench[j] = j % 2 == 0;
    l.has_body_wrench[j] = j % 3 == 0;
    for (auto& w : l.world_wrench[j]) w = rng.vec6();
    for (auto& w : l.body_wrench[j]) w = rng.vec6();
  }
  for (auto& t : l.joint_torque)
    for (int i = 0; i < t.size(); ++i) t(i) = rng.normal();
}

// The test objects live on the heap (allocated before the probes) so that the
// binary's stack use stays small; the calls under test get references.
struct Fixture {
  std::unique_ptr<hodyn::AerialManipulatorModel<double>> model = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  std::unique_ptr<Motion<double>> motion = std::make_unique<Motion<double>>();
  std::unique_ptr<Loads<double>> loads = std::make_unique<Loads<double>>();
  std::unique_ptr<Data<double>> data = std::make_unique<Data<double>>();
  Fixture() {
    EXPECT_EQ(hodyn::make_aerial_manipulator(*model), Status::kOk);
    Rng rng(7);
    random_motion(rng, *motion);
    random_loads(rng, *loads);
  }
};

// ---- heap ----------------------------------------------------------------

TEST(HeapFree, CountersWork) {
  {
    HeapProbe probe;
    void* p = ::operator new(64);
    ::operator delete(p);
    EXPECT_GE(probe.count(), 1);
  }
  {
    HeapProbe probe;
    auto v = std::make_unique<std::array<double, 100>>();
    EXPECT_GE(probe.count(), 1);
  }
#ifdef __GLIBC__
  {
    HeapProbe probe;
    void* volatile p = std::malloc(32);
    std::free(p);
    EXPECT_GE(probe.count(), 1);
  }
#endif
}

TEST(HeapFree, InverseDynamicsAllOrdersWithAndWithoutLoads) {
  Fixture f;
  for (int order = 0; order <= kMaxOrder; ++order) {
    long n_plain = 0, n_loads = 0;
    Status s_plain, s_loads;
    {
      HeapProbe probe;
      s_plain = hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, order);
      n_plain = probe.count();
    }
    {
      HeapProbe probe;
      s_loads = hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, f.loads.get(), order);
      n_loads = probe.count();
    }
    EXPECT_EQ(s_plain, Status::kOk);
    EXPECT_EQ(s_loads, Status::kOk);
    EXPECT_EQ(n_plain, 0) << "order " << order;
    EXPECT_EQ(n_loads, 0) << "order " << order;
  }
  // Failing calls do not allocate either.
  f.motion->q[0](2) = kNaN;
  long n = 0;
  Status s;
  {
    HeapProbe probe;
    s = hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, f.loads.get(), 3);
    n = probe.count();
  }
  EXPECT_EQ(s, Status::kNonFiniteInput);
  EXPECT_EQ(n, 0);
}

TEST(HeapFree, ForwardHybridAndClosedFormsAllOrders) {
  Fixture f;
  // Consistent inputs: the inverse dynamics of the fixture's motion.
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, kMaxOrder), Status::kOk);
  auto in = std::make_unique<hodyn::HybridDynamicsInput<AMTree, kMaxOrder>>();
  in->base_pose = f.motion->base_pose;
  in->base_twist = f.motion->base_twist[0];
  in->q = f.motion->q[0];
  in->q_dot = f.motion->q[1];
  for (int k = 0; k <= kMaxOrder; ++k) {
    in->base_wrench[k] = f.data->base_wrench[k];
    in->joint_torque[k] = f.data->joint_torque[k];
    in->joint_acceleration[k] = f.motion->q[k + 2];
    in->base_acceleration[k] = f.motion->base_twist[k + 1];
  }
  in->motion_prescribed = {true, false, false, true, false, true};
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<AMTree, kMaxOrder>>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<AMTree>>();
  auto state = std::make_unique<hodyn::MotionDerivatives<AMTree, 1>>();
  state->base_pose = f.motion->base_pose;
  for (int k = 0; k < 3; ++k) state->base_twist[k] = f.motion->base_twist[k];
  for (int k = 0; k < 4; ++k) state->q[k] = f.motion->q[k];
  auto loads1 = std::make_unique<hodyn::ExternalLoads<AMTree, 1>>();
  loads1->has_world_wrench[2] = loads1->has_body_wrench[5] = true;
  loads1->world_wrench[2][0].setOnes();
  loads1->body_wrench[5][1].setOnes();

  for (int order = 0; order <= kMaxOrder; ++order) {
    long n = 0;
    Status s_fd, s_fd_loads, s_base, s_hybrid, s_hybrid_motion;
    {
      HeapProbe probe;
      s_fd = hodyn::forward_dynamics(*f.model, *fd, *in, order);
      s_fd_loads = hodyn::forward_dynamics(*f.model, *fd, *in, f.loads.get(), order);
      in->base_wrench_frame = hodyn::WrenchFrame::kBase;
      s_base = hodyn::forward_dynamics(*f.model, *fd, *in, order);
      in->base_wrench_frame = hodyn::WrenchFrame::kWorld;
      s_hybrid = hodyn::hybrid_dynamics(*f.model, *fd, *in, f.loads.get(), order);
      in->base_input = hodyn::BaseInput::kMotion;
      s_hybrid_motion = hodyn::hybrid_dynamics(*f.model, *fd, *in, order);
      in->base_input = hodyn::BaseInput::kWrench;
      n = probe.count();
    }
    EXPECT_EQ(s_fd, Status::kOk);
    EXPECT_EQ(s_fd_loads, Status::kOk);
    EXPECT_EQ(s_base, Status::kOk);
    EXPECT_EQ(s_hybrid, Status::kOk);
    EXPECT_EQ(s_hybrid_motion, Status::kOk);
    EXPECT_EQ(n, 0) << "order " << order;
  }
  long n = 0;
  Status s_mm, s_eom, s_eom_rates;
  {
    HeapProbe probe;
    s_mm = hodyn::mass_matrix(*f.model, *eom, state->base_pose, state->q[0]);
    s_eom = hodyn::equations_of_motion(*f.model, *eom, *state, false);
    s_eom_rates = hodyn::equations_of_motion(*f.model, *eom, *state, loads1.get(), true);
    n = probe.count();
  }
  EXPECT_EQ(s_mm, Status::kOk);
  EXPECT_EQ(s_eom, Status::kOk);
  EXPECT_EQ(s_eom_rates, Status::kOk);
  EXPECT_EQ(n, 0);
  // Bad input is reported without allocating, with zero outputs.
  in->q_dot(1) = kNaN;
  {
    HeapProbe probe;
    EXPECT_EQ(hodyn::forward_dynamics(*f.model, *fd, *in, 2), Status::kNonFiniteInput);
    n = probe.count();
  }
  EXPECT_EQ(n, 0);
  for (int k = 0; k <= 2; ++k) EXPECT_TRUE(fd->motion.q[k + 2].isZero());
}

TEST(HeapFree, ModelSettersAndBuilders) {
  auto model = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  const auto inertia = SpatialInertia<double>::from_mass_com_inertia(
      0.3, Vec3(0.01, 0.0, -0.02), Vec3(0.001, 0.002, 0.003).asDiagonal().toDenseMatrix());
  const Pose<double> pose = Pose<double>::from_translation(Vec3(0.1, 0.0, -0.2));
  std::array<Status, 8> s{};
  long n = 0;
  {
    HeapProbe probe;
    s[0] = hodyn::make_aerial_manipulator(*model);
    s[1] = model->set_body(2, pose, inertia);
    s[2] = model->set_revolute_axis(2, Vec3::UnitX(), Vec3(0.1, 0.0, -0.1));
    s[3] = model->set_joint_screw(3, (Vec6() << 0, 0, 1, 0, -0.09, 0).finished());
    s[4] = model->set_gravity(Vec3(0, 0, -9.8));
    s[5] = model->set_body(9, pose, inertia);                     // rejected
    s[6] = model->set_revolute_axis(1, Vec3(2, 0, 0), Vec3::Zero());  // rejected
    s[7] = model->set_prismatic_axis(1, Vec3::UnitY());               // rejected
    n = probe.count();
  }
  EXPECT_EQ(n, 0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(s[i], Status::kOk) << i;
  for (int i = 5; i < 8; ++i) EXPECT_NE(s[i], Status::kOk) << i;
  // Branched chains and float casting.
  using BigTree = hodyn::BranchedChainsTree<5, 4>;
  auto big = std::make_unique<hodyn::Model<BigTree, double>>();
  auto model_f = std::make_unique<hodyn::AerialManipulatorModel<float>>();
  Status sb;
  {
    HeapProbe probe;
    sb = hodyn::make_branched_chains<5, 4>(*big);
    *model_f = model->cast<float>();
    n = probe.count();
  }
  EXPECT_EQ(sb, Status::kOk);
  EXPECT_EQ(n, 0);
}

TEST(HeapFree, TiltHexScrewExponentialAndInertia) {
  Rng rng(3);
  const Vec3 e = rng.vec3().normalized();
  Vec6 y;
  y << e, rng.vec3().cross(e);
  Pose<double> x;
  x.rotation = rng.rotation();
  x.translation = rng.vec3();
  const auto inertia = SpatialInertia<double>::from_mass_com_inertia(
      1.0, Vec3(0.1, 0.2, 0.3), Vec3(0.01, 0.02, 0.025).asDiagonal().toDenseMatrix());
  double sink = 0;
  long n = 0;
  {
    HeapProbe probe;
    const Eigen::Matrix<double, 6, 6> a = hodyn::tilthex_allocation<double>();
    const Eigen::Matrix<float, 6, 6> af = hodyn::tilthex_allocation<float>();
    const Pose<double> c = hodyn::screw_exponential<double>(y, 0.7);
    const Pose<double> p3 = hodyn::tilthex_propeller_pose<double>(hodyn::TiltHexParameters{}, 3);
    const SpatialInertia<double> t = inertia.transformed(x);
    const Vec6 m = t.momentum(y);
    sink = a(2, 3) + static_cast<double>(af(1, 1)) + c.translation(0) + p3.translation(1) + t.mass + m(4);
    n = probe.count();
  }
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(std::isfinite(sink));
}

// ---- bad input -------------------------------------------------------------

// All results (every entry of every order) exactly zero.
template <class S>
void expect_zero_outputs(const Data<S>& d, const char* what) {
  for (int k = 0; k <= kMaxOrder; ++k) {
    EXPECT_TRUE((d.base_wrench[k].array() == S(0)).all()) << what << ": base_wrench[" << k << "]";
    EXPECT_TRUE((d.base_wrench_body[k].array() == S(0)).all()) << what << ": base_wrench_body[" << k << "]";
    EXPECT_TRUE((d.joint_torque[k].array() == S(0)).all()) << what << ": joint_torque[" << k << "]";
  }
  EXPECT_EQ(d.order, -1) << what;
}

// A good call first so that the outputs are non-zero, then the bad one.
Status call_after_good(Fixture& f, const Motion<double>& bad, const Loads<double>* loads, int order) {
  EXPECT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, kMaxOrder), Status::kOk);
  EXPECT_NE(f.data->base_wrench[0].norm(), 0.0);
  return hodyn::inverse_dynamics(*f.model, *f.data, bad, loads, order);
}

TEST(BadInput, NonFiniteBaseTwist) {
  Fixture f;
  for (const double bad : {kNaN, kInf, -kInf})
    for (int order = 0; order <= kMaxOrder; ++order)
      for (int k = 0; k <= order + 1; ++k) {
        auto m = std::make_unique<Motion<double>>(*f.motion);
        m->base_twist[k](k % 6) = bad;
        EXPECT_EQ(call_after_good(f, *m, nullptr, order), Status::kNonFiniteInput) << "order " << order << " k " << k;
        expect_zero_outputs(*f.data, "base twist");
      }
}

TEST(BadInput, NonFiniteJointDerivatives) {
  Fixture f;
  for (int order = 0; order <= kMaxOrder; ++order)
    for (int k = 0; k <= order + 2; ++k) {
      auto m = std::make_unique<Motion<double>>(*f.motion);
      m->q[k](k % 6) = (k % 2) ? kNaN : kInf;
      EXPECT_EQ(call_after_good(f, *m, nullptr, order), Status::kNonFiniteInput) << "order " << order << " k " << k;
      expect_zero_outputs(*f.data, "q");
    }
}

TEST(BadInput, NonFiniteBasePose) {
  Fixture f;
  for (int i = 0; i < 12; ++i) {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    if (i < 9) m->base_pose.rotation(i) = kNaN;
    else m->base_pose.translation(i - 9) = kInf;
    EXPECT_EQ(call_after_good(f, *m, nullptr, 2), Status::kNonFiniteInput) << i;
    expect_zero_outputs(*f.data, "base pose");
  }
}

TEST(BadInput, NonFiniteLoads) {
  Fixture f;
  for (int order = 0; order <= kMaxOrder; ++order)
    for (int k = 0; k <= order; ++k) {
      for (int which = 0; which < 3; ++which) {
        auto l = std::make_unique<Loads<double>>(*f.loads);
        if (which == 0) l->world_wrench[0][k](1) = kNaN;      // body 0 has a world wrench
        else if (which == 1) l->body_wrench[3][k](4) = kInf;  // body 3 has a body wrench
        else l->joint_torque[k](5) = kNaN;
        EXPECT_EQ(call_after_good(f, *f.motion, l.get(), order), Status::kNonFiniteInput)
            << "order " << order << " k " << k << " which " << which;
        expect_zero_outputs(*f.data, "loads");
      }
    }
}

template <class S>
void expect_same_outputs(const Data<S>& a, const Data<S>& b, int order, const char* what) {
  for (int k = 0; k <= order; ++k) {
    EXPECT_EQ(a.base_wrench[k], b.base_wrench[k]) << what << " k " << k;
    EXPECT_EQ(a.base_wrench_body[k], b.base_wrench_body[k]) << what << " k " << k;
    EXPECT_EQ(a.joint_torque[k], b.joint_torque[k]) << what << " k " << k;
  }
}

TEST(BadInput, EntriesBeyondTheOrderAreNotRead) {
  Fixture f;
  for (int order = 0; order < kMaxOrder; ++order) {
    auto clean = std::make_unique<Data<double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *clean, *f.motion, f.loads.get(), order), Status::kOk);
    auto m = std::make_unique<Motion<double>>(*f.motion);
    auto l = std::make_unique<Loads<double>>(*f.loads);
    for (int k = order + 2; k <= kMaxOrder + 1; ++k) m->base_twist[k].setConstant(kNaN);
    for (int k = order + 3; k <= kMaxOrder + 2; ++k) m->q[k].setConstant(kNaN);
    for (int k = order + 1; k <= kMaxOrder; ++k) {
      for (int j = 0; j < AMTree::kNumBodies; ++j) {
        l->world_wrench[j][k].setConstant(kNaN);
        l->body_wrench[j][k].setConstant(kInf);
      }
      l->joint_torque[k].setConstant(kNaN);
    }
    // Wrenches of bodies without the flag are not read at any order.
    for (int j = 0; j < AMTree::kNumBodies; ++j) {
      if (!l->has_world_wrench[j]) l->world_wrench[j][0].setConstant(kNaN);
      if (!l->has_body_wrench[j]) l->body_wrench[j][0].setConstant(kNaN);
    }
    ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *m, l.get(), order), Status::kOk) << "order " << order;
    expect_same_outputs(*f.data, *clean, order, "NaN beyond the order");
  }
  // The top order: only the unflagged wrenches can be NaN.
  auto l = std::make_unique<Loads<double>>(*f.loads);
  l->world_wrench[1][kMaxOrder].setConstant(kNaN);
  ASSERT_FALSE(l->has_world_wrench[1]);
  EXPECT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, l.get(), kMaxOrder), Status::kOk);
}

TEST(BadInput, OrderOutOfRange) {
  Fixture f;
  for (const int order : {-1, kMaxOrder + 1, -100, 1000}) {
    EXPECT_EQ(call_after_good(f, *f.motion, nullptr, order), Status::kOrderOutOfRange) << order;
    expect_zero_outputs(*f.data, "order");
    EXPECT_EQ(call_after_good(f, *f.motion, f.loads.get(), order), Status::kOrderOutOfRange) << order;
    expect_zero_outputs(*f.data, "order with loads");
  }
}

TEST(BadInput, NonOrthonormalRotation) {
  Fixture f;
  {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->base_pose.rotation *= 1.01;
    EXPECT_EQ(call_after_good(f, *m, nullptr, 1), Status::kNonOrthonormalRotation);
    expect_zero_outputs(*f.data, "scaled rotation");
  }
  {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->base_pose.rotation.col(1) *= -1.0;  // a reflection, det = −1, still RᵀR = I
    ASSERT_NEAR(m->base_pose.rotation.determinant(), -1.0, 1e-12);
    EXPECT_EQ(call_after_good(f, *m, nullptr, 1), Status::kNonOrthonormalRotation);
    expect_zero_outputs(*f.data, "reflection");
  }
  {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->base_pose.rotation = Mat3::Zero();
    EXPECT_EQ(call_after_good(f, *m, nullptr, 0), Status::kNonOrthonormalRotation);
    expect_zero_outputs(*f.data, "zero rotation");
  }
  {  // within tolerance: accepted
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->base_pose.rotation *= 1.0 + 1e-12;
    EXPECT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *m, 1), Status::kOk);
  }
}

TEST(BadInput, HugeFiniteInputsGiveNonFiniteResult) {
  Fixture f;
  for (int order = 0; order <= kMaxOrder; ++order) {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->base_twist[0].setConstant(1e300);
    EXPECT_EQ(call_after_good(f, *m, nullptr, order), Status::kNonFiniteResult) << "order " << order;
    expect_zero_outputs(*f.data, "huge twist");
  }
  {
    auto m = std::make_unique<Motion<double>>(*f.motion);
    m->q[1].setConstant(1e200);
    EXPECT_EQ(call_after_good(f, *m, nullptr, 2), Status::kNonFiniteResult);
    expect_zero_outputs(*f.data, "huge joint rate");
  }
  {
    // Two bodies of one chain with −1.7e308 applied: their sum overflows in the parent's wrench.
    auto l = std::make_unique<Loads<double>>(*f.loads);
    for (const int j : {1, 2}) {
      l->has_world_wrench[j] = true;
      l->world_wrench[j][0].setConstant(1.7e308);
    }
    EXPECT_EQ(call_after_good(f, *f.motion, l.get(), 0), Status::kNonFiniteResult);
    expect_zero_outputs(*f.data, "huge loads");
  }
}

TEST(BadInput, RecoveryAfterFailure) {
  Fixture f;
  auto reference = std::make_unique<Data<double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *reference, *f.motion, f.loads.get(), kMaxOrder), Status::kOk);
  auto bad = std::make_unique<Motion<double>>(*f.motion);
  bad->base_twist[0].setConstant(1e300);
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *bad, f.loads.get(), kMaxOrder), Status::kNonFiniteResult);
  bad = std::make_unique<Motion<double>>(*f.motion);
  bad->q[0](0) = kNaN;
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *bad, f.loads.get(), kMaxOrder), Status::kNonFiniteInput);
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, f.loads.get(), -1), Status::kOrderOutOfRange);
  // The same data object works again and gives bit-identical results.
  ASSERT_EQ(hodyn::inverse_dynamics(*f.model, *f.data, *f.motion, f.loads.get(), kMaxOrder), Status::kOk);
  EXPECT_EQ(f.data->order, kMaxOrder);
  expect_same_outputs(*f.data, *reference, kMaxOrder, "after recovery");
}

TEST(BadInput, StatusNames) {
  for (const Status s : {Status::kOk, Status::kOrderOutOfRange, Status::kNonFiniteInput,
                         Status::kNonOrthonormalRotation, Status::kNonFiniteResult, Status::kInvalidModel,
                         Status::kSingularInertia, Status::kInvalidArgument}) {
    const std::string name = hodyn::to_string(s);
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "unknown status");
  }
}

// ---- float -----------------------------------------------------------------

TEST(FloatPipeline, AgreesWithDouble) {
  auto model_d = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  auto model_f = std::make_unique<hodyn::AerialManipulatorModel<float>>();
  ASSERT_EQ(hodyn::make_aerial_manipulator<double>(*model_d), Status::kOk);
  ASSERT_EQ(hodyn::make_aerial_manipulator<float>(*model_f), Status::kOk);
  double worst[kMaxOrder + 1] = {};
  for (unsigned seed = 100; seed < 120; ++seed) {
    Rng rng(seed);
    // Inputs rounded to float first, so both runs see the same numbers (except the
    // base rotation, which double needs orthonormal to 1e-9).
    auto mf = std::make_unique<Motion<float>>();
    auto md = std::make_unique<Motion<double>>();
    auto lf = std::make_unique<Loads<float>>();
    auto ld = std::make_unique<Loads<double>>();
    const Mat3 r = rng.rotation();
    mf->base_pose.rotation = r.cast<float>();
    mf->base_pose.translation = rng.vec3().cast<float>();
    for (auto& v : mf->base_twist) v = rng.vec6().cast<float>();
    for (auto& x : mf->q)
      for (int i = 0; i < x.size(); ++i) x(i) = static_cast<float>(rng.normal());
    md->base_pose = mf->base_pose.cast<double>();
    md->base_pose.rotation = r;  // float rounding is not orthonormal to double's 1e-9 tolerance
    for (int k = 0; k <= kMaxOrder + 1; ++k) md->base_twist[k] = mf->base_twist[k].cast<double>();
    for (int k = 0; k <= kMaxOrder + 2; ++k) md->q[k] = mf->q[k].cast<double>();
    const bool with_loads = seed % 2 == 1;
    if (with_loads) {
      for (int j = 0; j < AMTree::kNumBodies; ++j) {
        lf->has_world_wrench[j] = ld->has_world_wrench[j] = j == 3;
        lf->has_body_wrench[j] = ld->has_body_wrench[j] = j == 5;
        for (int k = 0; k <= kMaxOrder; ++k) {
          lf->world_wrench[j][k] = rng.vec6().cast<float>();
          lf->body_wrench[j][k] = rng.vec6().cast<float>();
          ld->world_wrench[j][k] = lf->world_wrench[j][k].cast<double>();
          ld->body_wrench[j][k] = lf->body_wrench[j][k].cast<double>();
        }
      }
    }
    auto df = std::make_unique<Data<float>>();
    auto dd = std::make_unique<Data<double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(*model_f, *df, *mf, with_loads ? lf.get() : nullptr, kMaxOrder), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(*model_d, *dd, *md, with_loads ? ld.get() : nullptr, kMaxOrder), Status::kOk);
    for (int k = 0; k <= kMaxOrder; ++k) {
      Eigen::Matrix<double, 18, 1> xd, xf;
      xd << dd->base_wrench[k], dd->base_wrench_body[k], dd->joint_torque[k];
      xf << df->base_wrench[k].cast<double>(), df->base_wrench_body[k].cast<double>(),
          df->joint_torque[k].cast<double>();
      const double err = (xf - xd).norm() / xd.norm();
      worst[k] = std::max(worst[k], err);
      EXPECT_LT(err, 1e-4) << "seed " << seed << " order " << k;
    }
  }
  for (int k = 0; k <= kMaxOrder; ++k)
    std::printf("float vs double, order %d: worst normwise relative difference %.2e\n", k, worst[k]);
}

TEST(FloatPipeline, FloatBadInputAndRotationTolerance) {
  auto model = std::make_unique<hodyn::AerialManipulatorModel<float>>();
  ASSERT_EQ(hodyn::make_aerial_manipulator<float>(*model), Status::kOk);
  auto m = std::make_unique<Motion<float>>();
  auto d = std::make_unique<Data<float>>();
  ASSERT_EQ(hodyn::inverse_dynamics(*model, *d, *m, 0), Status::kOk);
  EXPECT_NEAR(static_cast<double>(d->base_wrench[0](5)), 4.0 * 9.81, 1e-4);
  m->q[1](0) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(hodyn::inverse_dynamics(*model, *d, *m, 0), Status::kNonFiniteInput);
  expect_zero_outputs(*d, "float NaN");
  m->q[1](0) = 0.0f;
  m->base_pose.rotation *= 1.01f;
  EXPECT_EQ(hodyn::inverse_dynamics(*model, *d, *m, 0), Status::kNonOrthonormalRotation);
  m->base_pose.rotation = Eigen::AngleAxisf(0.5f, Eigen::Vector3f(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_EQ(hodyn::inverse_dynamics(*model, *d, *m, 0), Status::kOk);  // float rounding accepted
}

// ---- size ------------------------------------------------------------------

static_assert(sizeof(Data<double>) < 64 * 1024, "InverseDynamicsData too large for a microcontroller stack");
static_assert(sizeof(Data<float>) < 64 * 1024, "InverseDynamicsData<float> too large");

TEST(Size, InverseDynamicsData) {
  std::printf("sizeof(InverseDynamicsData<AerialManipulatorTree, 5, double>) = %zu bytes\n", sizeof(Data<double>));
  std::printf("sizeof(InverseDynamicsData<AerialManipulatorTree, 5, float>)  = %zu bytes\n", sizeof(Data<float>));
  std::printf("sizeof(MotionDerivatives<AerialManipulatorTree, 5, double>)   = %zu bytes\n", sizeof(Motion<double>));
  std::printf("sizeof(ExternalLoads<AerialManipulatorTree, 5, double>)       = %zu bytes\n", sizeof(Loads<double>));
  std::printf("sizeof(AerialManipulatorModel<double>)                       = %zu bytes\n",
              sizeof(hodyn::AerialManipulatorModel<double>));
  RecordProperty("sizeof_inverse_dynamics_data_double", static_cast<int>(sizeof(Data<double>)));
  RecordProperty("sizeof_inverse_dynamics_data_float", static_cast<int>(sizeof(Data<float>)));
  SUCCEED();
}

}  // namespace
