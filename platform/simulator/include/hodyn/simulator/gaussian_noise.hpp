// hodyn/simulator/gaussian_noise.hpp — seeded, deterministic N(0, 1) samples:
// std::mt19937_64 (same sequence on every platform) and the Box–Muller
// transform (so the samples do not depend on the standard library's
// normal_distribution).
//
//   u₁ ∈ (0, 1], u₂ ∈ [0, 1) from 53 random bits each,
//   z₁ = √(−2 ln u₁) cos(2π u₂),  z₂ = √(−2 ln u₁) sin(2π u₂).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace hodyn::sim {

class GaussianNoise {
 public:
  explicit GaussianNoise(std::uint64_t seed = 1) : engine_(seed) {}

  void seed(std::uint64_t seed) {
    engine_.seed(seed);
    has_spare_ = false;
  }

  /// One N(0, 1) sample.
  double standard_normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    constexpr double kTwoPi = 6.283185307179586476925;
    const double u1 = 1.0 - uniform();  // (0, 1]: log(u1) is finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    spare_ = radius * std::sin(kTwoPi * u2);
    has_spare_ = true;
    return radius * std::cos(kTwoPi * u2);
  }

  /// One N(0, σ²) sample (exactly 0 for σ = 0, and no random number drawn).
  double normal(double sigma) { return sigma == 0.0 ? 0.0 : sigma * standard_normal(); }

 private:
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace hodyn::sim
