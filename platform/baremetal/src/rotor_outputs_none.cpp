// platform/baremetal/src/rotor_outputs_none.cpp — board::rotor_outputs() of a
// board without motor outputs: none. Weak, so a board port defines its own.
#include "hodyn/baremetal/rotor_outputs.hpp"

namespace hodyn {
namespace baremetal {
namespace board {

__attribute__((weak)) RotorOutputs* rotor_outputs() noexcept { return nullptr; }

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn
