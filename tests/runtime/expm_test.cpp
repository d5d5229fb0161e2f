// dualrate/expm.hpp against Eigen's MatrixFunctions exp() evaluated in long double (64-bit
// significand: 2^11 times finer than double), in float and double: random matrices of norms
// 1e-2 .. 300 (up to 6 squarings), stiff 2x2 and 4x4 matrices with eigenvalues 1e-2 .. 1e3 in
// magnitude (8 squarings), nilpotent and defective ones, each at the plan of its norm, each
// within the error bound derived below; plan() monotone and covering, with the exponential
// at each plan's boundary norm within the bound; checked_exponential refusing what its s_max
// does not cover; the phi-function blocks. Eigen's heap use is forbidden during every call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <dualrate/expm.hpp>
#include <unsupported/Eigen/MatrixFunctions>

namespace {

namespace expm = dualrate::expm;
using Real = long double;
// Reference computations in dynamic size: one instantiation of Eigen's exp() serves every size.
using RealMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

template <class M>
Real norm1(const M& m) {
  return static_cast<Real>(m.cwiseAbs().colwise().sum().maxCoeff());
}

// The bound every result is checked against, on the relative error in the 1-norm
// err = ||X - e^A||_1 / ||e^A||_1 of the computed X for the plan (m, s) that computed it, u the
// unit roundoff of Scalar, to first order in u (the neglected terms are O(u^2) relative):
//
//  (1) Truncation. ||2^-s A||_1 <= theta_m gives r_m(2^-s A)^(2^s) = e^(A + dA) with
//      ||dA||_1 <= u ||A||_1 (Higham 2005, the definition of theta_m), so the forward error is
//      ||L(A, dA)||_1 <= ||L(A)||_1 u ||A||_1, L the Fréchet derivative of exp. With K(A) its
//      n^2 x n^2 Kronecker form (vec L(A, E) = K vec E; column i + n j is the top right block
//      of exp([[A, E_ij], [0, A]]), Van Loan 1978), ||L(A)||_1 <= n ||K(A)||_1, since
//      ||E||_1 <= ||vec E||_1 <= n ||E||_1. Term: cond u, cond = n ||K||_1 ||A||_1 / ||e^A||_1.
//  (2) Padé evaluation at B = 2^-s A (exact: a power of two; the b_j are exact in float and
//      double). Every term b_j B^j of p_m(B) and p_m(-B) comes out of at most pi_m chained
//      products of n-term inner products (pi_m = matrix_products({m, 0})) and at most m + 1
//      additions, so |error| <= gamma_k b_j |B|^j componentwise (|XY| <= |X||Y|),
//      k = n pi_m + m + 1, gamma_k = k u / (1 - k u): ||dp||_1, ||dq||_1 <= gamma_k ||p_m(|B|)||_1.
//      The solve (Gaussian elimination with partial pivoting, which does for every column the
//      operations of an LU solve) is backward stable column by column: (q + dq_s) R = p with
//      |dq_s| <= gamma_3n |L||U| (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
//      ed., Theorem 9.4). To first order R' - R = q^-1 (dp - (dq + dq_s) R):
//        e_0 = ||q^-1||_1 (gamma_k ||p_m(|B|)||_1 (1 / ||R||_1 + 1) + gamma_3n || |L||U| ||_1),
//      relative to R = r_m(B).
//  (3) Squaring. With X_j = Y_j + D_j, Y_j = R^(2^j) exact, e_j = ||D_j||_1 / ||Y_j||_1: the
//      computed square is Y_j^2 + Y_j D_j + D_j Y_j + F_j with |F_j| <= gamma_n |Y_j|^2, so
//        e_{j+1} = (2 ||Y_j||_1^2 e_j + gamma_n || |Y_j|^2 ||_1) / ||Y_{j+1}||_1,
//      which doubles e_j per squaring for a normal matrix and more for a non-normal one.
//  bound = cond u + e_s. The factors are computed in long double from the matrix itself (L and
//  U of the exact q, Y_j of the exact R: first order). The reference's own error is the same
//  bound with u = 2^-64, about 1/2000 of the bound for double.
Real condition_bound(const RealMatrix& a, const RealMatrix& ea) {
  const Eigen::Index n = a.rows();
  RealMatrix k(n * n, n * n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      RealMatrix big = RealMatrix::Zero(2 * n, 2 * n);
      big.topLeftCorner(n, n) = a;
      big.bottomRightCorner(n, n) = a;
      big(i, n + j) = 1;
      const RealMatrix l = big.exp().topRightCorner(n, n);
      k.col(i + n * j) = Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, 1>>(l.data(), n * n);
    }
  return static_cast<Real>(n) * norm1(k) * norm1(a) / norm1(ea);
}

template <class Scalar>
Real rounding_bound(const RealMatrix& a, expm::Plan plan) {
  const Eigen::Index n = a.rows();
  const RealMatrix identity = RealMatrix::Identity(n, n);
  const Real u = static_cast<Real>(std::numeric_limits<Scalar>::epsilon()) / 2;
  const auto gamma = [u](int k) { return k * u / (1 - k * u); };
  const int m = plan.degree;
  const RealMatrix b = a * std::ldexp(Real(1), -plan.squarings);
  const auto coefficients = expm::detail::pade_coefficients(m);
  RealMatrix p = 0 * identity, q = 0 * identity, absolute = 0 * identity;
  RealMatrix power = identity, absolute_power = identity;
  for (int j = 0; j <= m; ++j) {
    const Real c = static_cast<Real>(coefficients.b[j]);
    p += c * power;
    q += (j % 2 == 0 ? c : -c) * power;
    absolute += c * absolute_power;
    power = power * b;
    absolute_power = absolute_power * b.cwiseAbs();
  }
  const Eigen::PartialPivLU<RealMatrix> lu(q);
  const RealMatrix lower = lu.matrixLU().triangularView<Eigen::UnitLower>();
  const RealMatrix upper = lu.matrixLU().triangularView<Eigen::Upper>();
  const RealMatrix r = lu.solve(p);
  const int size = static_cast<int>(n);
  const int k = size * expm::matrix_products({m, 0}) + m + 1;
  const Real lu_growth = norm1(lower.cwiseAbs() * upper.cwiseAbs());
  Real e = norm1(lu.inverse()) * (gamma(k) * norm1(absolute) * (1 / norm1(r) + 1) + gamma(3 * size) * lu_growth);
  RealMatrix y = r;
  for (int j = 0; j < plan.squarings; ++j) {
    const RealMatrix next = y * y;
    e = (2 * norm1(y) * norm1(y) * e + gamma(size) * norm1(y.cwiseAbs() * y.cwiseAbs())) / norm1(next);
    y = next;
  }
  return e;
}

template <class Scalar>
Real error_bound(const RealMatrix& a, const RealMatrix& ea, expm::Plan plan) {
  return condition_bound(a, ea) * static_cast<Real>(std::numeric_limits<Scalar>::epsilon()) / 2 +
         rounding_bound<Scalar>(a, plan);
}

template <class Scalar>
constexpr int kMaxDegree = std::is_same<Scalar, float>::value ? 7 : 13;

// exponential<m, s> for a plan known at run time (plans take s > 0 only with the largest
// degree; s < 10 here).
template <class Matrix, int... S>
Matrix exponential_with_squarings(const Matrix& a, int s, std::integer_sequence<int, S...>) {
  Matrix x = Matrix::Constant(std::numeric_limits<typename Matrix::Scalar>::quiet_NaN());
  static_cast<void>(
      ((s == S ? (x = expm::exponential<kMaxDegree<typename Matrix::Scalar>, S>(a), true) : false) || ...));
  return x;
}
template <class Matrix>
Matrix exponential_by_plan(const Matrix& a, expm::Plan plan) {
  Eigen::internal::set_is_malloc_allowed(false);
  Matrix x = Matrix::Constant(std::numeric_limits<typename Matrix::Scalar>::quiet_NaN());
  if (plan.degree == kMaxDegree<typename Matrix::Scalar>)
    x = exponential_with_squarings(a, plan.squarings, std::make_integer_sequence<int, 10>{});
  else if (plan.squarings == 0 && plan.degree == 3)
    x = expm::exponential<3, 0>(a);
  else if (plan.squarings == 0 && plan.degree == 5)
    x = expm::exponential<5, 0>(a);
  if constexpr (std::is_same<typename Matrix::Scalar, double>::value) {
    if (plan.squarings == 0 && plan.degree == 7) x = expm::exponential<7, 0>(a);
    if (plan.squarings == 0 && plan.degree == 9) x = expm::exponential<9, 0>(a);
  }
  Eigen::internal::set_is_malloc_allowed(true);
  return x;
}

// The largest error seen and its largest ratio to the bound, for one scalar type, and
// Eigen's exp() in the same type on the same matrices.
struct Worst {
  Real error = 0, ratio = 0, eigen = 0;
  void print(const char* what) const {
    std::printf("[   expm   ] %s: max error %.3Lg, max error / bound %.3Lg, Eigen's exp() %.3Lg\n", what, error, ratio,
                eigen);
  }
};

// e^a computed at the plan of a's norm is within the bound; as is every other (m, s) given.
template <class Scalar, int N>
void check(const Eigen::Matrix<Scalar, N, N>& a, Worst& worst, const char* what) {
  const RealMatrix exact_input = a.template cast<Real>();
  const RealMatrix reference = exact_input.exp();
  const expm::Plan plan = expm::plan<Scalar>(static_cast<double>(norm1(a)));
  ASSERT_TRUE(plan.valid()) << what;
  const Eigen::Matrix<Scalar, N, N> x = exponential_by_plan(a, plan);
  const Real error = norm1(x.template cast<Real>() - reference) / norm1(reference);
  const Real bound = error_bound<Scalar>(exact_input, reference, plan);
  EXPECT_LE(error, bound) << what << ": m = " << plan.degree << ", s = " << plan.squarings << "\n" << a;
  worst.error = std::max(worst.error, error);
  worst.ratio = std::max(worst.ratio, error / bound);
  using Dynamic = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  const Dynamic eigen = Dynamic(a).exp();
  worst.eigen = std::max(worst.eigen, norm1(eigen.template cast<Real>() - reference) / norm1(reference));
}

template <class Scalar, int N>
Eigen::Matrix<Scalar, N, N> random_matrix(std::mt19937& random, double norm) {
  std::uniform_real_distribution<double> entry(-1, 1);
  Eigen::Matrix<double, N, N> a;
  for (int i = 0; i < N * N; ++i) a(i) = entry(random);
  return (a * (norm / static_cast<double>(norm1(a)))).template cast<Scalar>();
}

// Every degree's coefficients (b_j = (2m - j)! / (j! (m - j)!)) against the published table
// (Higham, Functions of Matrices, Table 10.4, as Eigen's MatrixExponential.h has them).
TEST(ExpmPlan, PadeCoefficientsAndThetas) {
  const double b13[] = {64764752532480000.,
                        32382376266240000.,
                        7771770303897600.,
                        1187353796428800.,
                        129060195264000.,
                        10559470521600.,
                        670442572800.,
                        33522128640.,
                        1323241920.,
                        40840800.,
                        960960.,
                        16380.,
                        182.,
                        1.};
  const double b7[] = {17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.};
  for (int j = 0; j <= 13; ++j) EXPECT_EQ(expm::detail::pade_coefficients(13).b[j], b13[j]) << j;
  for (int j = 0; j <= 7; ++j) EXPECT_EQ(expm::detail::pade_coefficients(7).b[j], b7[j]) << j;
  EXPECT_EQ(expm::detail::pade_coefficients(3).b[0], 120.);
  EXPECT_EQ(expm::theta<double>(13), 5.371920351148152);
  EXPECT_EQ(expm::theta<float>(7), 3.925724783138660);
  EXPECT_EQ(expm::theta<float>(9), 0);
  static_assert(expm::plan<double>(0.1).degree == 5 && expm::plan<double>(0.1).squarings == 0);
  static_assert(expm::plan<float>(0.1).degree == 3);
  static_assert(expm::plan<double>(1000).degree == 13 && expm::plan<double>(1000).squarings == 8);
  static_assert(!expm::plan<double>(std::numeric_limits<double>::infinity()).valid());
  static_assert(!expm::plan<float>(-1).valid());
}

// Along norms from 1e-8 to 1e8 (and at every theta_m 2^s and the next double): (m, s) never
// decreases, each plan covers its norm (norm <= 2^s theta_m), with the fewest squarings for
// the largest degree and s = 0 for the others.
template <class Scalar>
void expect_monotone_plans() {
  std::vector<double> norms;
  for (double x = 1e-8; x < 1e8; x *= 1.01) norms.push_back(x);
  for (const int m : {3, 5, 7, 9, 13})
    for (int s = 0; s < 20 && expm::theta<Scalar>(m) > 0; ++s) {
      norms.push_back(std::ldexp(expm::theta<Scalar>(m), s));
      norms.push_back(std::nextafter(norms.back(), 1e300));
    }
  std::sort(norms.begin(), norms.end());
  expm::Plan last{0, 0};
  for (const double norm : norms) {
    const expm::Plan p = expm::plan<Scalar>(norm);
    ASSERT_TRUE(p.valid()) << norm;
    EXPECT_TRUE(p.degree > last.degree || (p.degree == last.degree && p.squarings >= last.squarings)) << norm;
    EXPECT_GE(expm::matrix_products(p), expm::matrix_products(last)) << norm;
    EXPECT_LE(norm, std::ldexp(expm::theta<Scalar>(p.degree), p.squarings)) << norm;
    if (p.squarings > 0) {
      EXPECT_EQ(p.degree, kMaxDegree<Scalar>);
      EXPECT_GT(norm, std::ldexp(expm::theta<Scalar>(p.degree), p.squarings - 1)) << norm;
    }
    last = p;
  }
}

TEST(ExpmPlan, MonotoneInTheNormAndCovering) {
  expect_monotone_plans<double>();
  expect_monotone_plans<float>();
}

// Random 2x2, 3x3 and 4x4 matrices scaled to norms from 1e-2 to 300 (float: 40, where e^A
// stays far from overflow), 20 of each.
template <class Scalar, int N>
void check_random(const std::vector<double>& norms, Worst& worst) {
  std::mt19937 random(2005);
  for (const double norm : norms)
    for (int i = 0; i < 20; ++i) check<Scalar, N>(random_matrix<Scalar, N>(random, norm), worst, "random");
}

TEST(Expm, RandomMatricesOfSeveralNorms) {
  const std::vector<double> norms = {1e-2, 0.2, 0.9, 2, 5, 10, 40};
  Worst d, f;
  check_random<double, 2>(norms, d);
  check_random<double, 3>(norms, d);
  check_random<double, 4>(norms, d);
  check_random<double, 4>({100, 300}, d);
  check_random<float, 2>(norms, f);
  check_random<float, 3>(norms, f);
  check_random<float, 4>(norms, f);
  d.print("random, double");
  f.print("random, float");
}

// hA = V diag(lambda) V^-1 with |lambda| from 1e-2 to 1e3 and a non-orthogonal V (condition
// number about 3), as h times a stiff Jacobian gives; and a fast damped oscillation.
TEST(Expm, StiffMatrices) {
  Eigen::Matrix2d v2;
  v2 << 1, 0.6, -0.3, 1;
  const Eigen::Matrix2d a2 = v2 * Eigen::Vector2d(-1e-2, -1e3).asDiagonal() * v2.inverse();
  Eigen::Matrix4d v4;
  v4 << 1, 0.5, 0.2, -0.4, 0.3, 1, -0.5, 0.1, -0.2, 0.4, 1, 0.6, 0.1, -0.3, 0.2, 1;
  const Eigen::Matrix4d a4 = v4 * Eigen::Vector4d(-1e-2, -0.5, -30, -1e3).asDiagonal() * v4.inverse();
  Eigen::Matrix4d oscillating;  // eigenvalues -1e-2, -1e3 and -5 +- 300i
  oscillating << -1e-2, 0, 0, 0, 0, -5, 300, 0, 0, -300, -5, 0, 0, 0, 0, -1e3;
  const Eigen::Matrix4d o4 = v4 * oscillating * v4.inverse();
  Worst d, f;
  check<double, 2>(a2, d, "stiff 2x2");
  check<double, 4>(a4, d, "stiff 4x4");
  check<double, 4>(o4, d, "stiff oscillating 4x4");
  check<float, 2>(a2.cast<float>(), f, "stiff 2x2");
  check<float, 4>(a4.cast<float>(), f, "stiff 4x4");
  check<float, 4>(o4.cast<float>(), f, "stiff oscillating 4x4");
  d.print("stiff, double");
  f.print("stiff, float");
}

// A nilpotent matrix (e^N = I + N + N^2/2 + N^3/6 exactly) and Jordan blocks
// (e^(lambda I + N) = e^lambda e^N).
TEST(Expm, NilpotentAndDefective) {
  Eigen::Matrix4d n;
  n << 0, 3, -2, 5, 0, 0, 4, 1, 0, 0, 0, -6, 0, 0, 0, 0;
  Worst d, f;
  check<double, 4>(n, d, "nilpotent");
  check<float, 4>(n.cast<float>(), f, "nilpotent");
  const RealMatrix nr = n.cast<Real>();
  const RealMatrix exact = RealMatrix::Identity(4, 4) + nr + nr * nr / 2 + nr * nr * nr / 6;
  const expm::Plan plan = expm::plan<double>(static_cast<double>(norm1(n)));
  const Eigen::Matrix4d x = exponential_by_plan(n, plan);
  EXPECT_LE(norm1(x.cast<Real>() - exact) / norm1(exact), error_bound<double>(nr, exact, plan));
  for (const double lambda : {-3.0, 0.5}) {
    Eigen::Matrix4d j = lambda * Eigen::Matrix4d::Identity();
    j.diagonal<1>().setConstant(2.0);
    check<double, 4>(j, d, "Jordan block");
    check<float, 4>(j.cast<float>(), f, "Jordan block");
  }
  Eigen::Matrix2d j2;
  j2 << -50, 200, 0, -50;
  check<double, 2>(j2, d, "2x2 Jordan block");
  check<float, 2>(j2.cast<float>(), f, "2x2 Jordan block");
  d.print("nilpotent and defective, double");
  f.print("nilpotent and defective, float");
}

// At each plan's boundary norm 2^s theta_m (s = 0 for every degree, 1 to 3 for the largest),
// the largest norm that plan covers, the exponential is within the bound; just beyond it the
// next plan is chosen.
template <class Scalar>
void check_boundaries(Worst& worst) {
  std::mt19937 random(26);
  for (const int m : {3, 5, 7, 9, 13}) {
    if (expm::theta<Scalar>(m) == 0) continue;
    for (int s = 0; s <= (m == kMaxDegree<Scalar> ? 3 : 0); ++s) {
      const double boundary = std::ldexp(expm::theta<Scalar>(m), s);
      for (int i = 0; i < 10; ++i) {
        Eigen::Matrix<Scalar, 4, 4> a = random_matrix<Scalar, 4>(random, boundary);
        // the largest rounded matrix at or under the boundary
        while (static_cast<double>(norm1(a)) > boundary) a *= Scalar(1) - std::numeric_limits<Scalar>::epsilon();
        const expm::Plan p = expm::plan<Scalar>(static_cast<double>(norm1(a)));
        ASSERT_EQ(p.degree, m);
        ASSERT_EQ(p.squarings, s);
        check<Scalar, 4>(a, worst, "boundary");
        const expm::Plan beyond = expm::plan<Scalar>(std::nextafter(boundary, 1e300));
        EXPECT_TRUE(beyond.degree > m || beyond.squarings == s + 1);
      }
    }
  }
}

TEST(ExpmPlan, BoundaryNormsMeetTheBound) {
  Worst d, f;
  check_boundaries<double>(d);
  check_boundaries<float>(f);
  d.print("boundary norms, double");
  f.print("boundary norms, float");
}

// checked_exponential<7, 3> covers ||A||_1 <= 8 theta_7: it computes exponential<7, s> with
// the fewest s, and refuses beyond, or a NaN or an infinity, leaving its output alone.
TEST(Expm, CheckedExponentialRefusesBeyondItsSquarings) {
  std::mt19937 random(3);
  const double limit = 8 * expm::theta<float>(7);
  Eigen::Matrix4f out = Eigen::Matrix4f::Constant(42);
  Eigen::internal::set_is_malloc_allowed(false);
  const Eigen::Matrix4f inside = random_matrix<float, 4>(random, 0.99 * limit);
  ASSERT_TRUE((expm::checked_exponential<7, 3>(inside, out)));
  EXPECT_EQ(out, (expm::exponential<7, 3>(inside)));
  const Eigen::Matrix4f half = inside / 4;  // one squaring suffices
  ASSERT_TRUE((expm::checked_exponential<7, 3>(half, out)));
  EXPECT_EQ(out, (expm::exponential<7, 1>(half)));
  out.setConstant(42);
  const Eigen::Matrix4f beyond = random_matrix<float, 4>(random, 1.01 * limit);
  EXPECT_FALSE((expm::checked_exponential<7, 3>(beyond, out)));
  Eigen::Matrix4f nan = inside;
  nan(2, 1) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE((expm::checked_exponential<7, 3>(nan, out)));
  Eigen::Matrix4f inf = inside;
  inf(0, 3) = -std::numeric_limits<float>::infinity();
  EXPECT_FALSE((expm::checked_exponential<7, 3>(inf, out)));
  EXPECT_EQ(out, Eigen::Matrix4f::Constant(42));
  Eigen::Matrix2d out2;
  EXPECT_TRUE((expm::checked_exponential<13, 0>(Eigen::Matrix2d::Identity() * 2.6, out2)));  // norm 2.6 <= theta_13
  EXPECT_FALSE((expm::checked_exponential<13, 0>(Eigen::Matrix2d::Identity() * 5.5, out2)));
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(expm::squarings<double>(13, 5.5), 1);
}

// The phi-function blocks against the exponential of the augmented matrix in long double,
// within the bound of that 3N x 3N exponential at the plan checked_phi_blocks used (a
// block's error is at most the whole's). The reference and cond come from the double z and h
// and serve the float run too: the float input differs by u_float relatively, which changes
// them by O(u_float), a second-order change of the bound. Independently of how the augmented
// matrix is built, the blocks satisfy the definitions' identities Z (h phi_1(hZ)) = e^{hZ} - I
// and Z (h^2 phi_2(hZ)) = h phi_1(hZ) - h I: with blocks off by at most `allowed` each, the
// residuals are at most (||Z||_1 + 1) allowed (their long double evaluation adds O(2^-64)).
struct PhiReference {
  RealMatrix augmented, exponential;
  Real cond;
};

template <int N>
PhiReference phi_reference(const Eigen::Matrix<double, N, N>& z, double h) {
  PhiReference r;
  r.augmented = RealMatrix::Zero(3 * N, 3 * N);
  r.augmented.topLeftCorner(N, N) = (h * z).template cast<Real>();
  r.augmented.block(0, N, N, N).diagonal().setConstant(static_cast<Real>(h));
  r.augmented.block(N, 2 * N, N, N).diagonal().setConstant(static_cast<Real>(h));
  r.exponential = r.augmented.exp();
  r.cond = condition_bound(r.augmented, r.exponential);
  return r;
}

template <class Scalar, int N>
void check_phi(const PhiReference& r, const Eigen::Matrix<double, N, N>& z, double h, Worst& worst) {
  using Matrix = Eigen::Matrix<Scalar, N, N>;
  constexpr int m = kMaxDegree<Scalar>;
  const Matrix zs = z.template cast<Scalar>();
  const Scalar hs = static_cast<Scalar>(h);
  Matrix e, p1, p2;
  Eigen::internal::set_is_malloc_allowed(false);
  ASSERT_TRUE((expm::checked_phi_blocks<m, 10>(zs, hs, e, p1, p2)));
  Eigen::internal::set_is_malloc_allowed(true);
  const expm::Plan used{m, expm::squarings<Scalar>(m, static_cast<double>(norm1(r.augmented)))};
  const Real u = static_cast<Real>(std::numeric_limits<Scalar>::epsilon()) / 2;
  const Real allowed = (r.cond * u + rounding_bound<Scalar>(r.augmented, used)) * norm1(r.exponential);
  Real error = norm1(e.template cast<Real>() - r.exponential.block(0, 0, N, N));
  error = std::max(error, norm1(p1.template cast<Real>() - r.exponential.block(0, N, N, N)));
  error = std::max(error, norm1(p2.template cast<Real>() - r.exponential.block(0, 2 * N, N, N)));
  EXPECT_LE(error, allowed) << "h = " << h << "\n" << z;
  const RealMatrix zr = zs.template cast<Real>(), identity = RealMatrix::Identity(N, N);
  const RealMatrix er = e.template cast<Real>(), p1r = p1.template cast<Real>(), p2r = p2.template cast<Real>();
  EXPECT_LE(norm1(zr * p1r - (er - identity)), (norm1(zr) + 1) * allowed);
  EXPECT_LE(norm1(zr * p2r - (p1r - static_cast<Real>(hs) * identity)), (norm1(zr) + 1) * allowed);
  worst.error = std::max(worst.error, error / norm1(r.exponential));
  worst.ratio = std::max(worst.ratio, error / allowed);
  using Dynamic = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  const Dynamic eigen = Dynamic(r.augmented.template cast<Scalar>()).exp();
  const Real eigen_error = norm1(eigen.topRows(N).template cast<Real>() - r.exponential.topRows(N));
  worst.eigen = std::max(worst.eigen, eigen_error / norm1(r.exponential));
}

template <int N>
void check_phi_both(std::mt19937& random, double norm, double h, Worst& d, Worst& f) {
  const Eigen::Matrix<double, N, N> z = random_matrix<double, N>(random, norm / h);
  const PhiReference r = phi_reference(z, h);
  check_phi<double, N>(r, z, h, d);
  check_phi<float, N>(r, z, h, f);
}

TEST(Expm, PhiBlocksOfTheAugmentedMatrix) {
  std::mt19937 random(2011);
  Worst d, f;
  for (const double norm : {0.5, 5.0, 50.0}) {
    for (const double h : {1e-3, 5e-3, 0.1}) check_phi_both<2>(random, norm, h, d, f);
    check_phi_both<4>(random, norm, 5e-3, d, f);
  }
  // phi_blocks<m, s> is checked_phi_blocks at the same plan, bit for bit.
  const Eigen::Matrix4f z = random_matrix<float, 4>(random, 400);
  Eigen::Matrix4f e, p1, p2, ce, cp1, cp2;
  expm::phi_blocks<7, 0>(z, 0.005f, e, p1, p2);  // ||hz||_1 = 2 <= theta_7
  ASSERT_TRUE((expm::checked_phi_blocks<7, 5>(z, 0.005f, ce, cp1, cp2)));
  EXPECT_EQ(e, ce);
  EXPECT_EQ(p1, cp1);
  EXPECT_EQ(p2, cp2);
  EXPECT_FALSE((expm::checked_phi_blocks<7, 1>(z, 0.1f, ce, cp1, cp2)));  // ||hz||_1 = 40 > 2 theta_7
  d.print("phi blocks, double");
  f.print("phi blocks, float");
}

}  // namespace
