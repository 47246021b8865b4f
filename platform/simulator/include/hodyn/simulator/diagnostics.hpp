// hodyn/simulator/diagnostics.hpp — physical invariants of a plant state, for
// tests and logs: body poses, energy, total spatial momentum.
//
//   body poses   F₀ = C₁ (A⁰₀)⁻¹,  F_j = F_p(j) exp([Y_j] q_j),  C_j = F_j A⁰_j
//   kinetic      T = ½ νᵀ M̄ ν,  ν = (V₁ spatial; q̇)   (core mass_matrix)
//   momentum     P = (M̄ ν)₀..₅ = Σ_j M_j V_j: world axes, moment about the world origin
//   motor        ½ Σ B θ̇²,   spring ½ Σ K (θ − q)²
//   gravity      −Σ_j m_j gᵀ c_j  (c_j: centre of mass of body j in the world)
// With no propulsion, no gust, D = F = 0 and u = 0 the sum of the energies and,
// with g = 0, the momentum are conserved by the plant's equations.
#pragma once

#include <array>

#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

struct PlantEnergy {
  double link_kinetic = 0.0;       ///< ½ νᵀ M̄ ν (J)
  double motor_kinetic = 0.0;      ///< ½ Σ B θ̇² (J)
  double spring_potential = 0.0;   ///< ½ Σ K (θ − q)² (J)
  double gravity_potential = 0.0;  ///< −Σ m gᵀ c (J), zero at the world origin
  double total() const {
    return link_kinetic + motor_kinetic + spring_potential + gravity_potential;
  }
};

/// C_j of every body (world frame) at base pose C₁ and joint positions q.
std::array<Pose<double>, kNumBodies> body_poses(const PlantModel& model,
                                                const Pose<double>& base_pose, const Vector6d& q);

/// The energies of `state` for the plant `model` and actuators of `params`.
Status plant_energy(const PlantModel& model, const PlantParameters& params, const PlantState& state,
                    PlantEnergy& energy);

/// Σ_j M_j V_j, the system's spatial momentum (world axes, about the origin).
Status spatial_momentum(const PlantModel& model, const PlantState& state, Wrench<double>& momentum);

}  // namespace hodyn::sim
