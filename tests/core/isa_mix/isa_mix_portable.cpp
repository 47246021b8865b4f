#include "isa_mix_run.hpp"

isa_mix::Report isa_mix::run_portable() { return run_here(); }
