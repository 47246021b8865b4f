// tests/firmware/heap_link_probe.cpp — proves that a firmware image cannot
// use the heap: built with HODYN_PROBE_MALLOC or HODYN_PROBE_NEW it must FAIL
// to link (linker/sections.ld ASSERTs, no _sbrk); without either it must link
// (the control, so that the failures are not for another reason).
#include <cstdlib>

#include "hodyn/baremetal/runtime.hpp"

int main() {
#if defined(HODYN_PROBE_MALLOC)
  void* volatile p = std::malloc(16);
  return p != nullptr ? 0 : 1;
#elif defined(HODYN_PROBE_NEW)
  int* volatile p = new int(3);
  return *p == 3 ? 0 : 1;
#else
  hodyn::baremetal::console().print("no heap here\n");
  return 0;
#endif
}
