// Smoke test for hodyn/scalar_traits.hpp: the trait the core uses to inspect
// values (input validation) for the built-in floating-point scalars.
#include <hodyn/scalar_traits.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace {

template <class T>
class ScalarTraitsTest : public ::testing::Test {};

using FloatingTypes = ::testing::Types<double, float>;
TYPED_TEST_SUITE(ScalarTraitsTest, FloatingTypes);

TYPED_TEST(ScalarTraitsTest, FiniteValuesAreFinite) {
  using T = TypeParam;
  using Traits = hodyn::ScalarTraits<T>;
  EXPECT_TRUE(Traits::is_finite(T(1)));
  EXPECT_TRUE(Traits::is_finite(T(0)));
  EXPECT_TRUE(Traits::is_finite(T(-1)));
  EXPECT_TRUE(Traits::is_finite(std::numeric_limits<T>::max()));
  EXPECT_TRUE(Traits::is_finite(std::numeric_limits<T>::lowest()));
  EXPECT_TRUE(Traits::is_finite(std::numeric_limits<T>::denorm_min()));
}

TYPED_TEST(ScalarTraitsTest, NanAndInfAreNotFinite) {
  using T = TypeParam;
  using Traits = hodyn::ScalarTraits<T>;
  EXPECT_FALSE(Traits::is_finite(std::numeric_limits<T>::quiet_NaN()));
  EXPECT_FALSE(Traits::is_finite(-std::numeric_limits<T>::quiet_NaN()));
  EXPECT_FALSE(Traits::is_finite(std::numeric_limits<T>::infinity()));
  EXPECT_FALSE(Traits::is_finite(-std::numeric_limits<T>::infinity()));
}

TYPED_TEST(ScalarTraitsTest, PrimalIsTheValueItself) {
  using T = TypeParam;
  using Traits = hodyn::ScalarTraits<T>;
  EXPECT_EQ(Traits::primal(T(2.5)), T(2.5));
  EXPECT_EQ(Traits::primal(T(-0.125)), T(-0.125));
  EXPECT_EQ(Traits::primal(std::numeric_limits<T>::max()), std::numeric_limits<T>::max());
}

TEST(ScalarTraits, OrthonormalityTolerance) {
  constexpr double tol_d = hodyn::ScalarTraits<double>::orthonormality_tolerance();
  constexpr float tol_f = hodyn::ScalarTraits<float>::orthonormality_tolerance();
  EXPECT_DOUBLE_EQ(tol_d, 1e-9);
  EXPECT_FLOAT_EQ(tol_f, 1e-4f);
  // Positive and well above machine epsilon, so round-off never trips it.
  EXPECT_GT(tol_d, 100 * std::numeric_limits<double>::epsilon());
  EXPECT_GT(tol_f, 100 * std::numeric_limits<float>::epsilon());
}

}  // namespace
