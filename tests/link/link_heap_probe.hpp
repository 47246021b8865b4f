// Heap counting for the link tests: support/heap_counter.hpp, except in
// AddressSanitizer builds, whose own malloc interposition the counter's
// replacements break; there HeapProbe always reads 0 (the ASan run checks
// memory safety, the normal build checks allocations). Include from exactly
// one translation unit per test executable, like heap_counter.hpp.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define HODYN_LINK_COUNTS_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HODYN_LINK_COUNTS_HEAP 0
#endif
#endif
#ifndef HODYN_LINK_COUNTS_HEAP
#define HODYN_LINK_COUNTS_HEAP 1
#endif

#if HODYN_LINK_COUNTS_HEAP
#include "support/heap_counter.hpp"  // defines the counting operator new (this TU only)
#else
namespace hodyn {
namespace test {
class HeapProbe {
 public:
  long count() const { return 0; }
};
}  // namespace test
}  // namespace hodyn
#endif
