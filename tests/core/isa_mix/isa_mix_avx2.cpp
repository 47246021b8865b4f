#include "isa_mix_run.hpp"

isa_mix::Report isa_mix::run_avx2() { return run_here(); }
