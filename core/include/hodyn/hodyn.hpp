// hodyn/hodyn.hpp — everything of the core in one include.
#pragma once

#include "hodyn/binomial.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/models/aerial_manipulator.hpp"
#include "hodyn/models/branched_chains.hpp"
#include "hodyn/models/tilthex.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/screw_exponential.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"
