// Allocation counting for the heap-free checks. This header DEFINES (not just
// declares) replacements of the global allocation functions: every standard
// operator new/delete variant and, on glibc, malloc/calloc/realloc/free, each
// counting its calls; HeapProbe reads the counters around the code under test.
//
// Include it from exactly one translation unit of a test executable (the
// test's own .cpp), never from another header: a second translation unit that
// includes it in the same executable fails to link (duplicate operator new).
// It also disables -Wmismatched-new-delete for the rest of that translation
// unit (see below).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace hodyn {
namespace test {
namespace heap_counter {

std::atomic<long> g_new_calls{0};
std::atomic<long> g_malloc_calls{0};

void* counted_new(std::size_t size) {
  g_new_calls.fetch_add(1, std::memory_order_relaxed);
  void* p = std::malloc(size == 0 ? 1 : size);
  return p;
}
void* counted_new_aligned(std::size_t size, std::align_val_t align) {
  g_new_calls.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(align);
  const std::size_t rounded = ((size == 0 ? 1 : size) + a - 1) / a * a;
  return std::aligned_alloc(a, rounded);
}

}  // namespace heap_counter

// Counts allocations (operator new of any form, and malloc/calloc/realloc on
// glibc) between construction and `count()`.
class HeapProbe {
 public:
  HeapProbe() : new0_(heap_counter::g_new_calls.load()), malloc0_(heap_counter::g_malloc_calls.load()) {}
  long count() const {
    return (heap_counter::g_new_calls.load() - new0_) + (heap_counter::g_malloc_calls.load() - malloc0_);
  }

 private:
  long new0_, malloc0_;
};

}  // namespace test
}  // namespace hodyn

// The replacements pair operator new with std::free through counted_new (a
// malloc): GCC's -Wmismatched-new-delete cannot see that pairing once inlined,
// at any later call site of the translation unit.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  void* p = hodyn::test::heap_counter::counted_new(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t size) {
  void* p = hodyn::test::heap_counter::counted_new(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return hodyn::test::heap_counter::counted_new(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return hodyn::test::heap_counter::counted_new(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  void* p = hodyn::test::heap_counter::counted_new_aligned(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t size, std::align_val_t align) {
  void* p = hodyn::test::heap_counter::counted_new_aligned(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return hodyn::test::heap_counter::counted_new_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return hodyn::test::heap_counter::counted_new_aligned(size, align);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

#ifdef __GLIBC__
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t size) noexcept {
  hodyn::test::heap_counter::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  hodyn::test::heap_counter::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  hodyn::test::heap_counter::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void free(void* p) noexcept { __libc_free(p); }
}
#endif
