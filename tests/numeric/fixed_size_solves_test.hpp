// The generator's transcriptions of the runtime's fixed-size solves (numeric/fixed_size_solves.hpp)
// against the runtime's own, built as generated code is (-ffp-contract=off, EIGEN_DONT_VECTORIZE:
// the test executable's flags): bit for bit on random systems of one size, ties in the pivot
// search, zeros, and matrices that are not positive definite included. The sizes are split over
// three units (fixed_size_solves_*_test.cpp): g++'s overload resolution grows with the number of
// Eigen's fixed-size instantiations in one unit (all sixteen sizes in one took 115 s, the three
// units 78 s together).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "dualrate/mass.hpp"
#include "numeric/fixed_size_solves.hpp"

namespace dualrate::fixed_size_solves_test {

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <int N>
void expect_same_as_runtime(std::mt19937& random) {
  std::uniform_real_distribution<float> entry(-1, 1);
  constexpr int kTrials = 2000;
  for (int trial = 0; trial < kTrials; ++trial) {
    Eigen::Matrix<float, N, N> a;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) a(i, j) = trial % 5 == 0 && (i + j) % 3 == 0 ? 0.0F : entry(random);
    if (trial % 11 == 0) a(0, 0) = a(N - 1, 0);  // a tie for the first pivot
    // Positive definite but for every 13th (a shift that may make it indefinite: no factor).
    Eigen::Matrix<float, N, N> mass = a * a.transpose();
    mass.diagonal().array() += trial % 13 == 0 ? -0.5F : 0.01F * static_cast<float>(trial % 7);
    Eigen::Matrix<float, N, 1> b;
    for (int i = 0; i < N; ++i) b(i) = entry(random);
    std::vector<float> mass_rows(N * N), a_rows(N * N), rhs(b.data(), b.data() + N);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        mass_rows[static_cast<std::size_t>(i * N + j)] = mass(i, j);
        a_rows[static_cast<std::size_t>(i * N + j)] = a(i, j);
      }
    const Eigen::Matrix<float, N, 1> by_lu = Eigen::PartialPivLU<Eigen::Matrix<float, N, N>>(a).solve(b);
    const std::vector<float> lu = solve_lu_as_runtime<float>(N, a_rows, rhs);
    for (int i = 0; i < N; ++i) {
      const auto k = static_cast<std::size_t>(i);
      EXPECT_TRUE(same_bits(lu[k], by_lu(i)) || (std::isnan(lu[k]) && std::isnan(by_lu(i))))
          << "LU, N = " << N << ", trial " << trial << ", entry " << i << ": " << lu[k] << " vs " << by_lu(i);
    }
    if constexpr (N <= static_cast<int>(kMaxUnrolledSolve)) {
      const Eigen::Matrix<float, N, 1> by_llt = solve_mass<float, N>(mass, b);
      const std::vector<float> llt = solve_llt_as_runtime<float>(N, mass_rows, rhs);
      for (int i = 0; i < N; ++i) {
        const auto k = static_cast<std::size_t>(i);
        EXPECT_TRUE(same_bits(llt[k], by_llt(i)) || (std::isnan(llt[k]) && std::isnan(by_llt(i))))
            << "LLT, N = " << N << ", trial " << trial << ", entry " << i << ": " << llt[k] << " vs " << by_llt(i);
      }
    }
  }
}

}  // namespace dualrate::fixed_size_solves_test
