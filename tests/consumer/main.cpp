// Downstream smoke program: hodyn's headers and Eigen are reachable through
// the hodyn::core target alone.
#include <hodyn/scalar_traits.hpp>

#include <Eigen/Core>

int main() {
  const Eigen::Vector3d v(1.0, 2.0, 3.0);
  if (!hodyn::ScalarTraits<double>::is_finite(1.0)) return 1;
  if (!hodyn::ScalarTraits<double>::is_finite(v.sum())) return 2;
  return 0;
}
