// tests/fuzz/fuzz_input.hpp — reading a fuzzer's input as a stream of small
// decisions (docs/fuzzing.md). Past the end every read gives zeros, so any
// input, however short, is a complete test case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hodyn_fuzz {

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

  std::size_t remaining() const noexcept { return size_ - at_; }
  const std::uint8_t* here() const noexcept { return data_ + at_; }

  std::uint8_t byte() noexcept { return at_ < size_ ? data_[at_++] : std::uint8_t{0}; }
  std::uint32_t u32() noexcept {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(byte()) << (8 * k);
    return v;
  }
  std::uint64_t u64() noexcept {
    return static_cast<std::uint64_t>(u32()) | (static_cast<std::uint64_t>(u32()) << 32);
  }
  /// The next 8 bytes as a double's bit pattern (NaN, ±Inf, subnormals: anything).
  double f64() noexcept {
    const std::uint64_t bits = u64();
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
  /// Copies up to `size` bytes into `out` and zero-fills the rest.
  void bytes(void* out, std::size_t size) noexcept {
    const std::size_t n = size < remaining() ? size : remaining();
    if (n > 0) std::memcpy(out, here(), n);
    if (size > n) std::memset(static_cast<std::uint8_t*>(out) + n, 0, size - n);
    at_ += n;
  }
  /// Takes up to `size` bytes as they are (fewer at the end); returns how many.
  std::size_t take(std::size_t size, const std::uint8_t*& out) noexcept {
    const std::size_t n = size < remaining() ? size : remaining();
    out = here();
    at_ += n;
    return n;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

/// A broken invariant: libFuzzer reports the abort as a crash and saves the input.
#define HODYN_FUZZ_CHECK(condition)                                                               \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)

}  // namespace hodyn_fuzz
