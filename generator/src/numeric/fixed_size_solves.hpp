// The runtime's solves of small systems with Eigen's fixed-size factorizations, operation for
// operation as a build of generated code computes them (Eigen 3.4, N x N with N <=
// kMaxUnrolledSolve, vectorization off and no contraction into fused multiply-adds: the
// build's flags), in the arithmetic T; verify's exact step check of a float build.
//  - solve_llt_as_runtime: dualrate::solve_mass (runtime/include/dualrate/mass.hpp), Eigen's
//    LLT (Eigen/src/Cholesky/LLT.h, llt_inplace<Lower>::unblocked, as N < 32) on the lower
//    triangle, column k = 0, ..., N - 1:
//      x = M_kk - (L_k0^2 + L_k1^2 + ...)          (the squared norm summed left to right)
//      stop (no factor) when x <= 0; L_kk = sqrt(x)
//      L_ik = (M_ik - (0 + L_i0 L_k0 + L_i1 L_k1 + ...)) / L_kk, i > k
//    (the matrix-vector product's kernel accumulates each row from zero, left to right); then
//    L y = f and L^T a = y. Without a factor every entry is a quiet NaN, as the runtime's.
//  - solve_lu_as_runtime: the quasistatic scheme's Newton step
//    (runtime/include/dualrate/schemes/quasistatic.hpp), Eigen's PartialPivLU
//    (Eigen/src/LU/PartialPivLU.h, partial_lu_impl::unblocked_lu, as N <= 16), column
//    k = 0, ..., N - 2: the pivot is the first largest |a_ik|, i >= k; unless it is zero, rows
//    k and the pivot's swap and a_ik /= a_kk for i > k; then a_ij -= a_ik a_kj for i, j > k.
//    Then P b, L y = P b with L's unit diagonal, U x = y.
//  - The triangular solves (Eigen/src/Core/SolveTriangular.h, triangular_solver_unroller:
//    complete unrolling for a fixed-size right-hand side of at most 8 entries): row by row,
//    forward for a lower and backward for an upper factor, b_d = (b_d - s_d) / diag_d with s_d
//    the sum of the row's products, summed as Eigen's unrolled reduction does: in halves,
//    s[0, n) = s[0, n/2) + s[n/2, n).
//  - Above 8 entries, with a column-major factor (the LU's; Eigen/src/Core/products/
//    TriangularSolverVector.h, panels of EIGEN_TUNE_TRIANGULAR_PANEL_WIDTH = 8 columns, in the
//    order of the solve): inside a panel, column by column, unless b_d is zero, b_d /= diag_d
//    and the panel's later entries b_e -= b_d a_ed; then every entry beyond the panel less the
//    panel's matrix-vector product, b_e = (0 + a_ep b_p + a_ep+1 b_p+1 + ...)(-1) + b_e
//    (general_matrix_vector_product, column-major: each row accumulated from zero over the
//    panel's columns in order, scaled by alpha = -1 and added).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dualrate {

// The right-hand side size up to which Eigen unrolls the triangular solves (SolveTriangular.h),
// the width of its panels above that (TriangularSolverVector.h), and the size up to which
// PartialPivLU factorizes unblocked (PartialPivLU.h, UnBlockedBound).
constexpr std::size_t kMaxUnrolledSolve = 8;
constexpr std::size_t kTriangularPanel = 8;
constexpr std::size_t kMaxUnblockedLu = 16;

namespace fixed_size_solves {

// products[begin, begin + length) summed as Eigen's unrolled reduction sums them.
template <class T>
T halves(const std::vector<T>& products, std::size_t begin, std::size_t length) {
  if (length == 1) return products[begin];
  const std::size_t half = length / 2;
  return halves(products, begin, half) + halves(products, begin + half, length - half);
}

// Solves in place with the triangle of the row-major n x n `a` read through at(i, j): the lower
// one forward, or the upper one backward; `unit`: its diagonal is 1 and not read.
template <class T, class At>
void triangular_solve(std::size_t n, At at, bool lower, bool unit, std::vector<T>& b) {
  std::vector<T> products;
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t d = lower ? step : n - 1 - step;
    products.clear();
    for (std::size_t j = lower ? 0 : d + 1; j < (lower ? d : n); ++j) products.push_back(at(d, j) * b[j]);
    if (step > 0) b[d] -= halves(products, 0, step);
    if (!unit) b[d] /= at(d, d);
  }
}

// triangular_solve above kMaxUnrolledSolve entries, for a column-major factor.
template <class T, class At>
void panel_solve(std::size_t n, At at, bool lower, bool unit, std::vector<T>& b) {
  const auto n_signed = static_cast<long>(n);
  const auto panel = static_cast<long>(kTriangularPanel);
  for (long pi = lower ? 0 : n_signed; lower ? pi < n_signed : pi > 0; pi += lower ? panel : -panel) {
    const long width = std::min(lower ? n_signed - pi : pi, panel);
    const long first = lower ? pi : pi - width;  // the panel's columns: [first, first + width)
    for (long k = 0; k < width; ++k) {
      const auto d = static_cast<std::size_t>(lower ? pi + k : pi - k - 1);
      if (b[d] == T(0)) continue;
      if (!unit) b[d] /= at(d, d);
      const long rest = width - k - 1;
      const auto from = static_cast<std::size_t>(lower ? static_cast<long>(d) + 1 : static_cast<long>(d) - rest);
      for (std::size_t e = from; e < from + static_cast<std::size_t>(rest); ++e) b[e] -= b[d] * at(e, d);
    }
    const auto begin = static_cast<std::size_t>(lower ? first + width : 0);
    const auto end = static_cast<std::size_t>(lower ? n_signed : first);
    for (std::size_t e = begin; e < end; ++e) {
      T c = T(0);
      for (auto p = static_cast<std::size_t>(first); p < static_cast<std::size_t>(first + width); ++p)
        c = at(e, p) * b[p] + c;
      b[e] = c * T(-1) + b[e];
    }
  }
}

template <class T>
void check_sizes(std::size_t n, std::size_t most, const std::vector<T>& a, const std::vector<T>& b) {
  if (n == 0 || n > most || a.size() != n * n || b.size() != n)
    throw std::invalid_argument("fixed-size solve: a matrix of 1 to " + std::to_string(most) +
                                " rows and a right-hand side entry per row");
}

}  // namespace fixed_size_solves

// a = M^-1 f for the symmetric positive definite n x n `mass` (row-major; its lower triangle is
// read), as dualrate::solve_mass computes it.
template <class T>
std::vector<T> solve_llt_as_runtime(std::size_t n, std::vector<T> mass, std::vector<T> force) {
  fixed_size_solves::check_sizes(n, kMaxUnrolledSolve, mass, force);
  const auto at = [&mass, n](std::size_t i, std::size_t j) -> T& { return mass[i * n + j]; };
  for (std::size_t k = 0; k < n; ++k) {
    T x = at(k, k);
    if (k > 0) {
      T norm = at(k, 0) * at(k, 0);
      for (std::size_t j = 1; j < k; ++j) norm = norm + at(k, j) * at(k, j);
      x -= norm;
    }
    if (x <= T(0)) return std::vector<T>(n, std::numeric_limits<T>::quiet_NaN());
    at(k, k) = x = std::sqrt(x);
    for (std::size_t i = k + 1; i < n; ++i) {
      if (k > 0) {
        T row = T(0);
        for (std::size_t j = 0; j < k; ++j) row = at(i, j) * at(k, j) + row;
        at(i, k) = row * T(-1) + at(i, k);
      }
      at(i, k) /= x;
    }
  }
  fixed_size_solves::triangular_solve(n, at, true, false, force);
  fixed_size_solves::triangular_solve(
      n, [&at](std::size_t i, std::size_t j) { return at(j, i); }, false, false, force);
  return force;
}

// x = A^-1 b for the n x n `a` (row-major, n <= kMaxUnblockedLu), as Eigen's fixed-size
// PartialPivLU of a column-major matrix solves it.
template <class T>
std::vector<T> solve_lu_as_runtime(std::size_t n, std::vector<T> a, std::vector<T> b) {
  fixed_size_solves::check_sizes(n, kMaxUnblockedLu, a, b);
  const auto at = [&a, n](std::size_t i, std::size_t j) -> T& { return a[i * n + j]; };
  std::vector<std::size_t> pivots(n);
  for (std::size_t k = 0; k < n; ++k) {
    pivots[k] = k;
    if (k + 1 == n) break;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(at(i, k)) > std::abs(at(pivots[k], k))) pivots[k] = i;
    if (at(pivots[k], k) != T(0)) {
      for (std::size_t j = 0; j < n; ++j) std::swap(at(k, j), at(pivots[k], j));
      for (std::size_t i = k + 1; i < n; ++i) at(i, k) /= at(k, k);
    }
    for (std::size_t j = k + 1; j < n; ++j)
      for (std::size_t i = k + 1; i < n; ++i) at(i, j) -= at(k, j) * at(i, k);
  }
  for (std::size_t k = 0; k < n; ++k) std::swap(b[k], b[pivots[k]]);
  const auto solve = n <= kMaxUnrolledSolve ? fixed_size_solves::triangular_solve<T, decltype(at)>
                                            : fixed_size_solves::panel_solve<T, decltype(at)>;
  solve(n, at, true, true, b);
  solve(n, at, false, false, b);
  return b;
}

}  // namespace dualrate
