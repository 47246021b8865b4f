// tests/firmware/check.hpp — the on-target check harness: counts passed and
// failed checks, prints each failure (and measured values on request) over the
// console, and the final "N passed, M failed" line. Heap-free, no printf.
#pragma once

#include "hodyn/baremetal/console.hpp"

namespace hodyn {
namespace firmware_test {

class Checks {
 public:
  explicit Checks(baremetal::Console& out) noexcept : out_(out) {}

  /// Starts a group of checks (printed as a heading).
  void group(const char* name) noexcept;
  /// A condition.
  bool expect(bool ok, const char* what) noexcept;
  /// value <= bound (NaN fails); prints both on failure.
  bool expect_le(double value, double bound, const char* what) noexcept;
  /// Prints a measured value (no check), e.g. a worst error in units of eps.
  void measure(const char* what, double value, const char* unit = "") noexcept;
  void measure_count(const char* what, unsigned long long value, const char* unit = "") noexcept;

  int passed() const noexcept { return passed_; }
  int failed() const noexcept { return failed_; }
  /// "N passed, M failed"; returns the exit code (0 only when nothing failed).
  int summary() noexcept;
  baremetal::Console& out() noexcept { return out_; }

 private:
  baremetal::Console& out_;
  const char* group_ = "";
  int passed_ = 0;
  int failed_ = 0;
};

}  // namespace firmware_test
}  // namespace hodyn
