// hodyn/models/tilthex_rotor_set.hpp — the TiltHex of seed 000 eq. 28 as a
// rotor description (models/rotor_set.hpp, docs/rotors.md).
//
// Geometry and coefficients from TiltHexParameters (tilthex_rotor), speed
// limits and time constant from RotorParameters (models/actuation.hpp) — the
// values the controller and the plant simulator use — so that
// rotor_allocation(tilthex_rotor_set(g)) == tilthex_allocation(g) exactly.
// The same numbers, as data: core/robots/aerial_manipulator/rotors.json.
#pragma once

#include "hodyn/models/actuation.hpp"
#include "hodyn/models/rotor_set.hpp"
#include "hodyn/models/tilthex.hpp"

namespace hodyn {

/// Propellers 1..6 of eq. 28 as rotors 0..5.
template <class Scalar = double>
RotorSet<6, Scalar> tilthex_rotor_set(const TiltHexParameters& geometry = {},
                                      const RotorParameters& speeds = {}) {
  RotorSet<6, Scalar> set;
  for (int i = 0; i < 6; ++i) {
    Rotor<Scalar>& r = set[i];
    r = tilthex_rotor<Scalar>(geometry, i + 1);
    r.min_speed = Scalar(speeds.min_speed);
    r.max_speed = Scalar(speeds.max_speed);
    r.time_constant = Scalar(speeds.time_constant);
  }
  return set;
}

}  // namespace hodyn
