// hodyn/closed_loop/report.hpp — how a RunSummary is printed and written as
// JSON (SI units), shared by hodyn-demo and the HIL simulator hodyn-sim.
#pragma once

#include <cstdio>
#include <string>

#include "hodyn/closed_loop/runner.hpp"

namespace hodyn {
namespace closed_loop {

/// The human-readable block of one scenario. Without `controller_timing` the
/// controller's step times are left out (a host that does not run the
/// controller itself).
void print_run_summary(const RunSummary& s, std::FILE* out, bool controller_timing = true);

/// The summary's JSON members ("scenario": …, …, "stable": …), one per line,
/// each line prefixed with `indent`, without braces and without a trailing
/// comma. Numbers with 9 significant digits.
std::string run_summary_json_members(const RunSummary& s, const std::string& indent,
                                     bool controller_timing = true);

/// A number as JSON (9 significant digits; null for NaN/Inf).
std::string json_number(double v);

}  // namespace closed_loop
}  // namespace hodyn
