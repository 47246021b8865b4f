// gaz_trajectory.hpp — the Panda's exciting joint trajectory of Gaz et al.
// (IEEE RA-L 2019, supplementary material §II, Table II), the motion seed 001
// §IV-A takes "from [28]" for its third-order inverse dynamics:
//
//   q_j(t) = q_0,j + Σ_{l=1..5} ( a_l,j / (l ω_f) sin(l ω_f t) − b_l,j / (l ω_f) cos(l ω_f t) ),
//   ω_f = 0.15 π rad/s, period T = 2π/ω_f = 40/3 s,
//
// a finite Fourier series, so every time derivative is exact:
//   d^k/dt^k [A sin(w t) − B cos(w t)] = w^k (A sin(w t + kπ/2) − B cos(w t + kπ/2)).
// It stays within the Panda's joint limits (checked by the tool) and its
// velocity limits (|q̇| ≤ 1.82 rad/s). The coefficients are the table's
// (data of github.com/marcocognetti/FrankaEmikaPandaDynModel, GPL-3.0; see
// examples/panda/NOTICE). Header-only, no heap.
#pragma once

#include <array>
#include <cmath>

#include <Eigen/Core>

namespace panda_sim {

inline constexpr int kJoints = 7;
inline constexpr int kHarmonics = 5;
inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kOmegaF = 0.15 * kPi;           ///< ω_f, rad/s
inline constexpr double kPeriod = 2.0 * kPi / kOmegaF;  ///< T = 40/3 s

// Table II: a_l,j and b_l,j (rows l = 1..5, columns joint j = 1..7), q_0,j (rad).
inline constexpr std::array<std::array<double, kJoints>, kHarmonics> kA{{
    {-0.2031, -0.0699, 0.3076, 0.1269, -0.2773, 0.2100, -0.2273},
    {0.1295, -0.5380, 0.5864, -0.0253, -0.0857, -0.1194, -0.5636},
    {-0.0090, -0.2015, -0.4813, -0.2405, 0.4810, -0.0950, -0.2099},
    {0.2319, -0.5535, -0.1228, 0.2178, 0.5311, -0.0964, 0.5725},
    {-0.7598, 0.2352, -0.5273, 0.6984, -0.1639, -0.0399, -0.3748},
}};
inline constexpr std::array<std::array<double, kJoints>, kHarmonics> kB{{
    {-0.1136, -0.2437, 0.3898, 0.0401, 0.5491, 0.0692, 0.2023},
    {0.6600, 0.1820, -0.0268, -0.1503, 0.1046, -0.6946, -0.2570},
    {-0.1858, -0.2390, 0.0179, 0.2359, 0.0407, -0.4442, -0.5010},
    {0.1867, -0.2647, 0.4767, -0.2022, -0.0432, -0.5749, 0.0774},
    {0.2357, 0.4252, 0.2726, 0.3693, 0.2448, -0.0698, -0.4833},
}};
inline constexpr std::array<double, kJoints> kQ0{-0.5850, -0.1744, -0.3373, -1.8767,
                                                 -1.0631, 1.7917,  -0.7284};

using JointVector = Eigen::Matrix<double, kJoints, 1>;

/// q^(k)(t) for k = 0..N−1 into q[k].
template <std::size_t N>
void joint_derivatives(double t, std::array<JointVector, N>& q) {
  for (auto& v : q) v.setZero();
  for (int l = 1; l <= kHarmonics; ++l) {
    const double w = l * kOmegaF;
    const double s = std::sin(w * t);
    const double c = std::cos(w * t);
    double wk = 1.0 / w;  // w^(k−1): the table's a/(l ω_f), b/(l ω_f) times w^k
    for (std::size_t k = 0; k < N; ++k) {
      // sin(x + kπ/2), cos(x + kπ/2) by k mod 4, exactly.
      const double sk = (k % 4 == 0) ? s : (k % 4 == 1) ? c : (k % 4 == 2) ? -s : -c;
      const double ck = (k % 4 == 0) ? c : (k % 4 == 1) ? -s : (k % 4 == 2) ? -c : s;
      for (int j = 0; j < kJoints; ++j) q[k](j) += wk * (kA[l - 1][j] * sk - kB[l - 1][j] * ck);
      wk *= w;
    }
  }
  for (int j = 0; j < kJoints; ++j) q[0](j) += kQ0[j];
}

}  // namespace panda_sim
