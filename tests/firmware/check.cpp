// tests/firmware/check.cpp — see check.hpp.
#include "check.hpp"

namespace hodyn {
namespace firmware_test {

void Checks::group(const char* name) noexcept {
  group_ = name;
  out_.print("[").print(name).print("]\n");
}

bool Checks::expect(bool ok, const char* what) noexcept {
  if (ok) {
    ++passed_;
  } else {
    ++failed_;
    out_.print("  FAIL ").print(group_).print(": ").print(what).print("\n");
  }
  return ok;
}

bool Checks::expect_le(double value, double bound, const char* what) noexcept {
  const bool ok = value <= bound;  // false for NaN
  if (!expect(ok, what)) {
    out_.print("       value ")
        .print_scientific(value, 4)
        .print(" > bound ")
        .print_scientific(bound, 4);
    out_.print("\n");
  }
  return ok;
}

void Checks::measure(const char* what, double value, const char* unit) noexcept {
  out_.print("  ").print(what).print(" = ").print_scientific(value, 3).print(unit).print("\n");
}

void Checks::measure_count(const char* what, unsigned long long value, const char* unit) noexcept {
  out_.print("  ").print(what).print(" = ").print(value).print(unit).print("\n");
}

int Checks::summary() noexcept {
  out_.print(passed_).print(" passed, ").print(failed_).print(" failed\n");
  out_.flush();
  return failed_ == 0 ? 0 : 1;
}

}  // namespace firmware_test
}  // namespace hodyn
