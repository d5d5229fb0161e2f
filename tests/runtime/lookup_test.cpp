// dualrate/lookup.hpp: every argument lands in bounds (NaN, +-inf, 1e300, each breakpoint
// exactly), uniform axes agree bit for bit with the binary search, and values and slopes
// match the interpolant's definition computed here by a linear scan. Runs in the sanitized
// build too (sanitized.runtime_tests): an out-of-bounds read fails there.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <dualrate/lookup.hpp>

namespace {

using dualrate::lookup::Axis;
using dualrate::lookup::Extrapolation;
using dualrate::lookup::Interpolation;
using dualrate::lookup::table;

template <class S>
S inf() {
  return std::numeric_limits<S>::infinity();
}
template <class S>
S nan() {
  return std::numeric_limits<S>::quiet_NaN();
}

// The 1-D interpolant by its definition: linear scan for the cell (a breakpoint belongs to the
// cell on its right), the line through the cell's end points.
template <class S, int N>
S scan_1d(const S (&b)[N], const S (&v)[N], S x, Extrapolation e, bool slope) {
  bool held = false;
  if (e == Extrapolation::kClamp && (x < b[0] || x > b[N - 1])) {
    x = x < b[0] ? b[0] : b[N - 1];
    held = true;
  }
  int i = 0;
  while (i < N - 2 && x >= b[i + 1]) ++i;
  const S w = b[i + 1] - b[i];
  if (slope) return held ? S(0) : (v[i + 1] - v[i]) / w;
  const S f = (x - b[i]) / w;
  return (S(1) - f) * v[i] + f * v[i + 1];
}

constexpr Axis<double, 5, true> kUniform{{-2, -1, 0, 1, 2}, 1.0};
constexpr Axis<double, 5, false> kSearched{{-2, -1, 0, 1, 2}, 0.0};
constexpr Axis<double, 4, false> kUneven{{-1, 0.5, 0.75, 4}, 0.0};
constexpr double kV5[5] = {3, -1, 0.5, 0.5, 7};
constexpr double kV4[4] = {1, 2, -3, 5};

template <Extrapolation E, unsigned Slope>
double uniform(double x) {
  return table<Interpolation::kLinear, E, Slope>(kV5, kUniform, x);
}
template <Extrapolation E, unsigned Slope>
double searched(double x) {
  return table<Interpolation::kLinear, E, Slope>(kV5, kSearched, x);
}

TEST(Lookup, EveryBreakpointExactlyGivesItsValueAndTheRightCellsSlope) {
  for (int k = 0; k < 5; ++k) {
    const double x = kUniform.breakpoints[k];
    EXPECT_EQ((uniform<Extrapolation::kClamp, 0>(x)), kV5[k]);
    EXPECT_EQ((searched<Extrapolation::kLinear, 0>(x)), kV5[k]);
    const int cell = k < 4 ? k : 3;
    EXPECT_EQ((uniform<Extrapolation::kLinear, 1>(x)), kV5[cell + 1] - kV5[cell]) << "breakpoint " << k;
    EXPECT_EQ((searched<Extrapolation::kClamp, 1>(x)), kV5[cell + 1] - kV5[cell]) << "breakpoint " << k;
  }
  for (int k = 0; k < 4; ++k) {
    const double x = kUneven.breakpoints[k];
    EXPECT_EQ((table<Interpolation::kLinear, Extrapolation::kClamp, 0>(kV4, kUneven, x)), kV4[k]);
    const int cell = k < 3 ? k : 2;
    EXPECT_DOUBLE_EQ((table<Interpolation::kLinear, Extrapolation::kClamp, 1>(kV4, kUneven, x)),
                     (kV4[cell + 1] - kV4[cell]) / (kUneven.breakpoints[cell + 1] - kUneven.breakpoints[cell]));
  }
}

TEST(Lookup, NanGivesNanAndInfinitiesClampOrExtrapolate) {
  const double n = nan<double>(), big = 1e300;
  EXPECT_TRUE(std::isnan(uniform<Extrapolation::kClamp, 0>(n)));
  EXPECT_TRUE(std::isnan(searched<Extrapolation::kLinear, 0>(n)));
  EXPECT_TRUE(std::isnan(uniform<Extrapolation::kClamp, 1>(n)));
  EXPECT_TRUE(std::isnan(searched<Extrapolation::kLinear, 1>(n)));
  for (double x : {inf<double>(), big}) {
    EXPECT_EQ((uniform<Extrapolation::kClamp, 0>(x)), 7.0);
    EXPECT_EQ((searched<Extrapolation::kClamp, 0>(-x)), 3.0);
    EXPECT_EQ((uniform<Extrapolation::kClamp, 1>(x)), 0.0);
    EXPECT_EQ((searched<Extrapolation::kLinear, 1>(-x)), -4.0);  // first cell's slope
    EXPECT_EQ((uniform<Extrapolation::kLinear, 1>(x)), 6.5);     // last cell's slope
  }
  // Linear extrapolation of a huge argument follows the end cell's line; of +-inf it is not finite.
  EXPECT_DOUBLE_EQ((uniform<Extrapolation::kLinear, 0>(1e10)), 0.5 + 6.5 * (1e10 - 1));
  EXPECT_DOUBLE_EQ((searched<Extrapolation::kLinear, 0>(-1e10)), 3 - 4 * (-1e10 + 2));
  EXPECT_FALSE(std::isfinite(uniform<Extrapolation::kLinear, 0>(inf<double>())));
  EXPECT_FALSE(std::isfinite(searched<Extrapolation::kLinear, 0>(-inf<double>())));
}

TEST(Lookup, FloatTablesHandleTheSameArguments) {
  constexpr Axis<float, 3, true> a{{0.f, 0.1f, 0.2f}, 10.f};
  constexpr float v[3] = {1.f, 2.f, 4.f};
  const auto at = [&](float x) { return table<Interpolation::kLinear, Extrapolation::kClamp, 0>(v, a, x); };
  EXPECT_TRUE(std::isnan(at(nan<float>())));
  EXPECT_EQ(at(inf<float>()), 4.f);
  EXPECT_EQ(at(-inf<float>()), 1.f);
  EXPECT_EQ(at(3e38f), 4.f);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(at(a.breakpoints[k]), v[k]);
  // Just below and above each breakpoint: the index arithmetic's rounding never misplaces them.
  for (int k = 1; k < 3; ++k) {
    const float below = std::nextafter(a.breakpoints[k], -1.f), above = std::nextafter(a.breakpoints[k], 1.f);
    EXPECT_LE(std::fabs(at(below) - v[k]), 1e-5f);
    EXPECT_LE(std::fabs(at(above) - v[k]), 1e-5f);
    EXPECT_EQ((table<Interpolation::kLinear, Extrapolation::kClamp, 1>(v, a, below)), (v[k] - v[k - 1]) * 10.f);
  }
}

TEST(Lookup, UniformAxisEqualsBinarySearchAndTheLinearScan) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-3, 3);
  for (int i = 0; i < 20000; ++i) {
    double x = dist(rng);
    if (i % 4 == 0) x = std::round(x * 2) / 2;  // on and next to breakpoints too
    if (i % 4 == 1) x = std::nextafter(std::round(x), i % 8 == 1 ? 10.0 : -10.0);
    ASSERT_EQ((uniform<Extrapolation::kClamp, 0>(x)), (searched<Extrapolation::kClamp, 0>(x))) << x;
    ASSERT_EQ((uniform<Extrapolation::kLinear, 1>(x)), (searched<Extrapolation::kLinear, 1>(x))) << x;
    for (Extrapolation e : {Extrapolation::kClamp, Extrapolation::kLinear}) {
      const double value =
          e == Extrapolation::kClamp ? uniform<Extrapolation::kClamp, 0>(x) : uniform<Extrapolation::kLinear, 0>(x);
      const double slope =
          e == Extrapolation::kClamp ? uniform<Extrapolation::kClamp, 1>(x) : uniform<Extrapolation::kLinear, 1>(x);
      ASSERT_EQ(value, scan_1d(kSearched.breakpoints, kV5, x, e, false)) << x;
      ASSERT_EQ(slope, scan_1d(kSearched.breakpoints, kV5, x, e, true)) << x;
    }
  }
}

TEST(Lookup, FlatHoldsTheLowerBreakpointsValue) {
  const auto flat = [](double x) { return table<Interpolation::kFlat, Extrapolation::kClamp, 0>(kV4, kUneven, x); };
  EXPECT_EQ(flat(-5), 1);
  EXPECT_EQ(flat(-1), 1);
  EXPECT_EQ(flat(0.49), 1);
  EXPECT_EQ(flat(0.5), 2);
  EXPECT_EQ(flat(0.75), -3);
  EXPECT_EQ(flat(3.99), -3);
  EXPECT_EQ(flat(4), 5);
  EXPECT_EQ(flat(inf<double>()), 5);
  EXPECT_EQ(flat(-inf<double>()), 1);
  EXPECT_TRUE(std::isnan(flat(nan<double>())));
}

// A multilinear function c + sum a_d x_d + b x_0 x_1 is reproduced exactly (up to rounding) by
// its table on any grid, its slopes too; this checks strides and corner weights in 2 to 4 axes.
double multilinear(const double* x, int dims) {
  double s = 0.25;
  const double a[4] = {1.5, -2, 0.75, 3};
  for (int d = 0; d < dims; ++d) s += a[d] * x[d];
  return s + 0.5 * x[0] * x[1];
}
double multilinear_slope(const double* x, int d) {
  const double a[4] = {1.5, -2, 0.75, 3};
  return a[d] + (d == 0 ? 0.5 * x[1] : d == 1 ? 0.5 * x[0] : 0);
}

TEST(Lookup, MultilinearFunctionsAreReproducedInTwoToFourAxes) {
  constexpr Axis<double, 3, false> a0{{0, 1, 3}, 0};
  constexpr Axis<double, 4, true> a1{{-1, 0, 1, 2}, 1};
  constexpr Axis<double, 2, false> a2{{0, 10}, 0};
  constexpr Axis<double, 3, true> a3{{0, 0.5, 1}, 2};
  double v2[12], v3[24], v4[72];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 3; ++l) {
          const double x[4] = {a0.breakpoints[i], a1.breakpoints[j], a2.breakpoints[k], a3.breakpoints[l]};
          if (k == 0 && l == 0) v2[i * 4 + j] = multilinear(x, 2);
          if (l == 0) v3[(i * 4 + j) * 2 + k] = multilinear(x, 3);
          v4[((i * 4 + j) * 2 + k) * 3 + l] = multilinear(x, 4);
        }
  constexpr auto L = Interpolation::kLinear;
  constexpr auto E = Extrapolation::kLinear;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(-2, 12);
  for (int n = 0; n < 2000; ++n) {
    const double x[4] = {dist(rng) / 4, dist(rng) / 4, dist(rng), dist(rng) / 10};
    // Rounding: a few operations on values of size ~20; 1e-12 absolute is far above it.
    EXPECT_NEAR((table<L, E, 0>(v2, a0, x[0], a1, x[1])), multilinear(x, 2), 1e-12);
    EXPECT_NEAR((table<L, E, 0>(v3, a0, x[0], a1, x[1], a2, x[2])), multilinear(x, 3), 1e-12);
    EXPECT_NEAR((table<L, E, 0>(v4, a0, x[0], a1, x[1], a2, x[2], a3, x[3])), multilinear(x, 4), 1e-12);
    EXPECT_NEAR((table<L, E, 1>(v4, a0, x[0], a1, x[1], a2, x[2], a3, x[3])), multilinear_slope(x, 0), 1e-12);
    EXPECT_NEAR((table<L, E, 2>(v4, a0, x[0], a1, x[1], a2, x[2], a3, x[3])), multilinear_slope(x, 1), 1e-12);
    EXPECT_NEAR((table<L, E, 4>(v3, a0, x[0], a1, x[1], a2, x[2])), multilinear_slope(x, 2), 1e-12);
    EXPECT_NEAR((table<L, E, 8>(v4, a0, x[0], a1, x[1], a2, x[2], a3, x[3])), multilinear_slope(x, 3), 1e-12);
  }
  const double bad[4] = {nan<double>(), inf<double>(), -1e300, 1};
  EXPECT_TRUE(std::isnan(table<L, Extrapolation::kClamp, 0>(v4, a0, bad[0], a1, bad[1], a2, bad[2], a3, bad[3])));
  EXPECT_EQ((table<L, Extrapolation::kClamp, 0>(v2, a0, bad[1], a1, bad[2])), v2[2 * 4 + 0]);
}

}  // namespace
