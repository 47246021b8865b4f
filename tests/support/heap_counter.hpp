// Allocation counting for the heap-free checks. HeapProbe reads the counters
// around the code under test. This header DEFINES (not just declares) how the
// allocations are counted, so include it from exactly one translation unit of
// a test executable (the test's own .cpp), never from another header:
//   * a normal build: replacements of the global allocation functions, every
//     standard operator new/delete variant and, on glibc,
//     malloc/calloc/realloc/free, each counting its calls (a second
//     translation unit that includes this header fails to link: duplicate
//     operator new). It also disables -Wmismatched-new-delete for the rest of
//     that translation unit (see below).
//   * under AddressSanitizer or ThreadSanitizer (the sanitize suite,
//     docs/sanitizers.md): the sanitizer's allocator already interposes
//     malloc and operator new, and replacing them beside it breaks it (memory
//     from one allocator freed by the other). There the sanitizer's own
//     allocation hook counts every allocation (malloc, calloc, realloc, every
//     operator new), so the heap-free checks still run and still fail on an
//     allocation.
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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HODYN_HEAP_COUNTER_SANITIZER_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HODYN_HEAP_COUNTER_SANITIZER_HOOK 1
#endif
#endif

#ifdef HODYN_HEAP_COUNTER_SANITIZER_HOOK
// The sanitizer runtime's hook (sanitizer/allocator_interface.h, not shipped
// by every compiler, hence declared here): called after every allocation of
// its allocator. Returns non-zero when installed.
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, std::size_t),
    void (*free_hook)(const volatile void*));

namespace hodyn {
namespace test {
namespace heap_counter {
void count_sanitizer_allocation(const volatile void*, std::size_t) {
  g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
}
void ignore_sanitizer_free(const volatile void*) {}
// Installed before main(); a runtime that refuses it would make every probe
// read 0, so that stops the executable instead.
int install_sanitizer_hook() {
  if (__sanitizer_install_malloc_and_free_hooks(&count_sanitizer_allocation,
                                                &ignore_sanitizer_free) == 0) {
    std::abort();
  }
  return 1;
}
const int g_sanitizer_hook_installed = install_sanitizer_hook();
}  // namespace heap_counter
}  // namespace test
}  // namespace hodyn
#else  // a normal build: replace the allocation functions

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
#endif  // HODYN_HEAP_COUNTER_SANITIZER_HOOK
