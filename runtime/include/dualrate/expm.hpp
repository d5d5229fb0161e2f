// Matrix exponential e^A and the phi-functions of hZ for fixed-size Eigen matrices (Scalar float
// or double), with no heap, no exceptions, and a number of operations fixed by two integers,
// the Padé degree m and the number of squarings s: scaling and squaring with the diagonal Padé
// approximant of N. J. Higham, "The scaling and squaring method for the matrix exponential
// revisited", SIAM J. Matrix Anal. Appl. 26(4):1179-1193, 2005 (also Higham, Functions of
// Matrices, SIAM 2008, Algorithm 10.20). For a calibration that recomputes on the target the
// constants the generator precomputes (sp_ll's phi-functions, the quasistatic scheme's
// e^{h A_zz}).
//
//   e^A ~ r_m(2^-s A)^(2^s),   r_m(x) = p_m(x) / p_m(-x),   p_m(x) = sum_{j=0..m} b_j x^j,
//   b_j = (2m - j)! / (j! (m - j)!)    (the Padé numerator's coefficients times (2m)!/m!).
// With B = 2^-s A, U the odd and V the even part of p_m(B), p_m(B) = V + U and p_m(-B) = V - U:
//   m = 3, 5, 7, 9:  U = B sum_k b_{2k+1} B^{2k},  V = sum_k b_{2k} B^{2k}   (powers of B^2)
//   m = 13:          U = B [B^6 (b13 B^6 + b11 B^4 + b9 B^2) + b7 B^6 + b5 B^4 + b3 B^2 + b1 I]
//                    V = B^6 (b12 B^6 + b10 B^4 + b8 B^2) + b6 B^6 + b4 B^4 + b2 B^2 + b0 I
// (m + 1)/2 matrix products for m <= 9, 6 for m = 13; then r_m(B) solves (V - U) R = V + U by
// Gaussian elimination with partial pivoting of its own, all N columns at once (Eigen's
// PartialPivLU is blocked above 16 x 16, where its triangular solves and products may
// allocate workspace on the heap), and s squarings R <- R R give the result. Every product is
// coefficient-based (Eigen's lazyProduct), so no heap function is referenced at any size. The
// working matrices live on the stack: about 8 of the exponentiated size (phi_blocks of a 4 x 4
// double exponentiates a 12 x 12: about 9.5 KB of stack on Cortex-M4).
//
// Accuracy (Higham 2005, Section 2): if ||2^-s A||_1 <= theta_m, then in exact arithmetic
// r_m(2^-s A)^(2^s) = e^(A + dA) with ||dA||_1 <= u ||A||_1, u the scalar's unit roundoff (2^-53,
// 2^-24). theta_m is the root of h(theta) / theta = u, h(x) = sum_k |c_k| x^k over the series
// log(e^-x r_m(x)) = sum_{k >= 2m+1} c_k x^k; the values below are those of Higham's expm (double:
// m = 3, 5, 7, 9, 13; single: m = 3, 5, 7, where 7 is the cheapest degree per unit of norm), and
// agree with that definition recomputed in 60-digit arithmetic (16 digits for double, 8 for
// float). Rounding errors come on top: the forward error is about cond_exp(A) u plus the Padé
// evaluation's rounding magnified by up to 2^s in the squarings (more for a non-normal A);
// tests/runtime/expm_test.cpp derives the bound it checks.
//
// Choosing (m, s): plan<Scalar>(norm) gives, for an upper bound on ||A||_1, the smallest degree
// whose theta_m covers it with s = 0, else the largest degree with the fewest squarings that
// bring the norm under its theta (Higham 2005's choice); its cost is matrix_products(plan) matrix
// products plus one N x N solve. The generator calls it with the largest ||hA||_1 over the
// calibration range. m and s are then template arguments of exponential<m, s>: literals in
// generated code, a fixed instruction count, only the degree used compiled in, and no run-time
// check or error path; a norm beyond 2^s theta_m is computed all the same, less accurately.
// checked_exponential<m, s_max> instead takes s from the actual norm, at most s_max, and refuses
// (returns false, writes nothing) a non-finite matrix or a norm beyond 2^s_max theta_m: a
// [[nodiscard]] bool, not a dualrate::Status, whose codes are a step's faults (fault.hpp); a
// calibration that is refused keeps its previous constants.
//
// phi-functions: phi_1(X) = sum_k X^k / (k+1)! = X^-1 (e^X - I) and
// phi_2(X) = sum_k X^k / (k+2)! = X^-2 (e^X - I - X) come from one exponential of size 3N
// (C. F. Van Loan, "Computing integrals involving the matrix exponential", IEEE Trans. Autom.
// Control 23(3):395-404, 1978, Theorem 1; A. H. Al-Mohy, N. J. Higham, "Computing the action of
// the matrix exponential, with an application to exponential integrators", SIAM J. Sci. Comput.
// 33(2):488-511, 2011, Theorem 2.1 with the blocks W = [I 0]; R. B. Sidje, Expokit, ACM TOMS
// 24(1):130-156, 1998):
//   exp(h [[Z, I, 0], [0, 0, I], [0, 0, 0]]) = [[e^{hZ}, h phi_1(hZ), h^2 phi_2(hZ)],
//                                               [0,      I,          h I          ],
//                                               [0,      0,          I            ]]
// (for k >= 2 the top block row of the k-th power is h^k [Z^k, Z^(k-1), Z^(k-2)]). These are
// sp_ll's constants p1, p2 (for Z = g_z) and q1, q2 (for Z = A), built the same way by the
// generator (generator/src/schemes/sp_ll/sp_ll.cpp, phi_blocks). The augmented matrix has
// ||.||_1 = max(||hZ||_1, |h|): plan that norm.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <Eigen/Core>

namespace dualrate {
namespace expm {

// Padé degree m and squarings s; degree 0: no plan (the norm was negative, not finite, or
// beyond 2^kMaxSquarings theta_m).
struct Plan {
  int degree;
  int squarings;
  constexpr bool valid() const noexcept { return degree > 0; }
};

// The most squarings a plan takes or a template argument may give (2^-64 scales exactly in float).
constexpr int kMaxSquarings = 64;

namespace detail {

template <class Scalar>
struct Thetas;
template <>
struct Thetas<double> {
  static constexpr int kCount = 5;
  static constexpr int kDegree[kCount] = {3, 5, 7, 9, 13};
  static constexpr double kTheta[kCount] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                                            2.097847961257068e0, 5.371920351148152e0};
};
template <>
struct Thetas<float> {
  static constexpr int kCount = 3;
  static constexpr int kDegree[kCount] = {3, 5, 7};
  static constexpr double kTheta[kCount] = {4.258730016922831e-1, 1.880152677804762e0, 3.925724783138660e0};
};

// b_0 .. b_m of p_m as above (m <= 13): integers, exact in float and double for the degrees
// offered.
struct PadeCoefficients {
  double b[14];
};
constexpr PadeCoefficients pade_coefficients(int m) noexcept {
  PadeCoefficients c{};
  for (int j = 0; j <= m && j < 14; ++j) {
    std::uint64_t numerator = 1;  // (2m - j)! / (m - j)!
    for (int k = m - j + 1; k <= 2 * m - j; ++k) numerator *= static_cast<std::uint64_t>(k);
    std::uint64_t j_factorial = 1;
    for (int k = 2; k <= j; ++k) j_factorial *= static_cast<std::uint64_t>(k);
    const std::uint64_t b = numerator / j_factorial;  // exact: b_j is an integer
    c.b[j] = static_cast<double>(b);
  }
  return c;
}
template <int M>
struct Pade {
  static constexpr PadeCoefficients kCoefficients = pade_coefficients(M);
};

template <class Derived>
void check_shape() {
  constexpr int rows = Derived::RowsAtCompileTime;
  static_assert(rows != Eigen::Dynamic && rows == Derived::ColsAtCompileTime,
                "dualrate::expm works on square fixed-size matrices");
  using Scalar = typename Derived::Scalar;
  static_assert(std::is_same<Scalar, float>::value || std::is_same<Scalar, double>::value,
                "dualrate::expm: Scalar is float or double");
}

// Solves q X = p for X, overwriting p with X (q is overwritten by its factors): Gaussian
// elimination with row pivoting on the largest magnitude, then back substitution.
template <class Matrix>
void solve_in_place(Matrix& q, Matrix& p) noexcept {
  using Scalar = typename Matrix::Scalar;
  constexpr Eigen::Index n = Matrix::RowsAtCompileTime;
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index pivot = k;
    for (Eigen::Index i = k + 1; i < n; ++i)
      if (std::abs(q(i, k)) > std::abs(q(pivot, k))) pivot = i;
    if (pivot != k) {
      q.row(k).swap(q.row(pivot));
      p.row(k).swap(p.row(pivot));
    }
    for (Eigen::Index i = k + 1; i < n; ++i) {
      const Scalar l = q(i, k) / q(k, k);
      for (Eigen::Index j = k + 1; j < n; ++j) q(i, j) -= l * q(k, j);
      for (Eigen::Index j = 0; j < n; ++j) p(i, j) -= l * p(k, j);
    }
  }
  for (Eigen::Index k = n - 1; k >= 0; --k)
    for (Eigen::Index j = 0; j < n; ++j) {
      Scalar sum = p(k, j);
      for (Eigen::Index i = k + 1; i < n; ++i) sum -= q(k, i) * p(i, j);
      p(k, j) = sum / q(k, k);
    }
}

// r_m(x) for the degree M (3, 5, 7, 9 or 13). Products are Eigen's coefficient-based lazy
// products: its GEMM path, taken from 8 x 8 on, holds a heap fallback for its workspace.
template <int M, class Matrix>
Matrix pade(const Matrix& x) noexcept {
  using Scalar = typename Matrix::Scalar;
  const auto c = [](int j) { return static_cast<Scalar>(Pade<M>::kCoefficients.b[j]); };
  const Matrix x2 = x.lazyProduct(x);
  Matrix odd, r;  // r: the even part V until the solve
  if constexpr (M == 13) {
    const Matrix x4 = x2.lazyProduct(x2);
    const Matrix x6 = x4.lazyProduct(x2);
    odd = c(13) * x6 + c(11) * x4 + c(9) * x2;
    odd = x6.lazyProduct(odd).eval() + c(7) * x6 + c(5) * x4 + c(3) * x2;
    r = c(12) * x6 + c(10) * x4 + c(8) * x2;
    r = x6.lazyProduct(r).eval() + c(6) * x6 + c(4) * x4 + c(2) * x2;
  } else {
    odd = c(3) * x2;
    r = c(2) * x2;
    Matrix power = x2;  // x^(2k)
    for (int k = 2; 2 * k <= M; ++k) {
      power = power.lazyProduct(x2).eval();
      odd += c(2 * k + 1) * power;
      r += c(2 * k) * power;
    }
  }
  odd.diagonal().array() += c(1);
  r.diagonal().array() += c(0);
  Matrix q = r;
  {
    const Matrix u = x.lazyProduct(odd);
    q -= u;
    r += u;
  }
  solve_in_place(q, r);
  return r;
}

// r_M(2^-s a)^(2^s); s is bounded by every caller.
template <int M, class Matrix>
Matrix scaled_exponential(const Matrix& a, int s) noexcept {
  using Scalar = typename Matrix::Scalar;
  Scalar scale(1);
  for (int k = 0; k < s; ++k) scale *= Scalar(0.5);
  Matrix x = pade<M>(Matrix(scale * a));
  for (int k = 0; k < s; ++k) x = x.lazyProduct(x).eval();
  return x;
}

template <class Matrix>
typename Matrix::Scalar one_norm(const Matrix& a) noexcept {
  return a.cwiseAbs().colwise().sum().maxCoeff();
}

// h [[Z, I, 0], [0, 0, I], [0, 0, 0]] and the blocks of its exponential.
template <class Derived, int N = Derived::RowsAtCompileTime>
Eigen::Matrix<typename Derived::Scalar, 3 * N, 3 * N> phi_augmented(const Eigen::MatrixBase<Derived>& z,
                                                                    typename Derived::Scalar h) noexcept {
  Eigen::Matrix<typename Derived::Scalar, 3 * N, 3 * N> big;
  big.setZero();
  big.template topLeftCorner<N, N>() = h * z;
  big.template block<N, N>(0, N).diagonal().setConstant(h);
  big.template block<N, N>(N, 2 * N).diagonal().setConstant(h);
  return big;
}
template <class Big, class Matrix, int N = Matrix::RowsAtCompileTime>
void phi_split(const Big& x, Matrix& e, Matrix& p1, Matrix& p2) noexcept {
  e = x.template block<N, N>(0, 0);
  p1 = x.template block<N, N>(0, N);
  p2 = x.template block<N, N>(0, 2 * N);
}

}  // namespace detail

// theta_m of the degree m for Scalar; 0 for a degree not offered for Scalar.
template <class Scalar>
constexpr double theta(int degree) noexcept {
  using T = detail::Thetas<Scalar>;
  for (int i = 0; i < T::kCount; ++i)
    if (T::kDegree[i] == degree) return T::kTheta[i];
  return 0;
}

// The fewest squarings s <= max_squarings with norm <= 2^s theta_m; -1 if none (or the degree
// is not offered, or the norm is negative or NaN).
template <class Scalar>
constexpr int squarings(int degree, double norm, int max_squarings = kMaxSquarings) noexcept {
  double reach = theta<Scalar>(degree);
  if (!(reach > 0) || !(norm >= 0)) return -1;
  for (int s = 0; s <= max_squarings; ++s, reach *= 2)
    if (norm <= reach) return s;
  return -1;
}

// (m, s) covering every matrix with ||A||_1 <= norm_bound; Plan{0, 0} if none does.
template <class Scalar>
constexpr Plan plan(double norm_bound) noexcept {
  using T = detail::Thetas<Scalar>;
  for (int i = 0; i + 1 < T::kCount; ++i)
    if (norm_bound >= 0 && norm_bound <= T::kTheta[i]) return {T::kDegree[i], 0};
  const int m = T::kDegree[T::kCount - 1];
  const int s = squarings<Scalar>(m, norm_bound);
  return s < 0 ? Plan{0, 0} : Plan{m, s};
}

// Matrix products of a plan's exponential (its N x N solve costs about 4/3 of one more).
constexpr int matrix_products(Plan p) noexcept { return (p.degree == 13 ? 6 : (p.degree + 1) / 2) + p.squarings; }

// e^a with Padé degree M and S squarings (accurate as above for ||a||_1 <= 2^S theta_M).
template <int M, int S, class Derived>
typename Derived::PlainObject exponential(const Eigen::MatrixBase<Derived>& a) noexcept {
  detail::check_shape<Derived>();
  static_assert(theta<typename Derived::Scalar>(M) > 0,
                "dualrate::expm: the Padé degree is 3, 5, 7, 9 or 13 for double, 3, 5 or 7 for float");
  static_assert(S >= 0 && S <= kMaxSquarings, "dualrate::expm: 0 <= squarings <= kMaxSquarings");
  return detail::scaled_exponential<M>(typename Derived::PlainObject(a), S);
}

// out = e^a with Padé degree M and the fewest squarings s <= SMax that bring ||a||_1 under
// theta_M; false, with out untouched, if a has a NaN or an infinity or ||a||_1 > 2^SMax theta_M.
template <int M, int SMax, class Derived>
[[nodiscard]] bool checked_exponential(const Eigen::MatrixBase<Derived>& a,
                                       typename Derived::PlainObject& out) noexcept {
  detail::check_shape<Derived>();
  using Scalar = typename Derived::Scalar;
  static_assert(theta<Scalar>(M) > 0,
                "dualrate::expm: the Padé degree is 3, 5, 7, 9 or 13 for double, 3, 5 or 7 for float");
  static_assert(SMax >= 0 && SMax <= kMaxSquarings, "dualrate::expm: 0 <= squarings <= kMaxSquarings");
  const typename Derived::PlainObject x = a;
  if (!x.allFinite()) return false;
  const int s = squarings<Scalar>(M, static_cast<double>(detail::one_norm(x)), SMax);
  if (s < 0) return false;
  out = detail::scaled_exponential<M>(x, s);
  return true;
}

// e = e^{hz}, p1 = h phi_1(hz), p2 = h^2 phi_2(hz), from exponential<M, S> of the 3N x 3N
// augmented matrix (plan max(||hz||_1, |h|)).
template <int M, int S, class Derived>
void phi_blocks(const Eigen::MatrixBase<Derived>& z, typename Derived::Scalar h, typename Derived::PlainObject& e,
                typename Derived::PlainObject& p1, typename Derived::PlainObject& p2) noexcept {
  detail::check_shape<Derived>();
  detail::phi_split(exponential<M, S>(detail::phi_augmented(z, h)), e, p1, p2);
}

// phi_blocks with checked_exponential<M, SMax>: false, with e, p1, p2 untouched, when that
// refuses the augmented matrix (max(||hz||_1, |h|) > 2^SMax theta_M, or a NaN or infinity).
template <int M, int SMax, class Derived>
[[nodiscard]] bool checked_phi_blocks(const Eigen::MatrixBase<Derived>& z, typename Derived::Scalar h,
                                      typename Derived::PlainObject& e, typename Derived::PlainObject& p1,
                                      typename Derived::PlainObject& p2) noexcept {
  detail::check_shape<Derived>();
  constexpr int n = Derived::RowsAtCompileTime;
  Eigen::Matrix<typename Derived::Scalar, 3 * n, 3 * n> x;
  if (!checked_exponential<M, SMax>(detail::phi_augmented(z, h), x)) return false;
  detail::phi_split(x, e, p1, p2);
  return true;
}

}  // namespace expm
}  // namespace dualrate
