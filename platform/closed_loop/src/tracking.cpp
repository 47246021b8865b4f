// Closed-loop run statistics (see tracking.hpp; the statistics themselves are
// a template there).
#include "hodyn/closed_loop/tracking.hpp"

#include <algorithm>
#include <cmath>

namespace hodyn {
namespace closed_loop {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::min<double>(
      static_cast<double>(v.size() - 1), std::ceil(p * static_cast<double>(v.size())) - 1.0));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace closed_loop
}  // namespace hodyn
