// Seed 004's Adams formulas (eqs. 9-10, 12, 15) on plain vectors of T, shared by the reference
// core's paper forms (adams.hpp) and task forms (dual_rate_adams.hpp): AB4 (55, -59, 37, -9)/24,
// AM4 (9, 19, -5, 1)/24. Each entry is computed as dualrate::Mrabm4 computes it, x + c
// (((a0 d0 + a1 d1) + a2 d2) + a3 d3) with c = step / 24 in T (a negative coefficient's term
// added is the runtime's positive one subtracted: the same IEEE result).
#pragma once

#include <array>
#include <utility>
#include <vector>

namespace dualrate::adams {

// x + c (a0 d0 + a1 d1 + a2 d2 + a3 d3), term by term in that order; a coefficient 1's term is
// its d, as the runtime writes it (the same value, one product fewer).
template <class T>
std::vector<T> combine(const std::vector<T>& x, T c, const std::array<double, 4>& a,
                       const std::array<const std::vector<T>*, 4>& d) {
  const auto term = [&a, &d](std::size_t i, std::size_t m) { return a[i] == 1 ? (*d[i])[m] : T(a[i]) * (*d[i])[m]; };
  std::vector<T> r(x.size());
  for (std::size_t m = 0; m < x.size(); ++m) r[m] = x[m] + c * (term(0, m) + term(1, m) + term(2, m) + term(3, m));
  return r;
}

// AB4 from the history (newest first).
template <class T>
std::vector<T> predict(const std::vector<T>& x, T step, const std::array<std::vector<T>, 4>& hist) {
  return combine<T>(x, step / T(24), {55, -59, 37, -9}, {&hist[0], &hist[1], &hist[2], &hist[3]});
}

// AM4 with the derivative `eval` at the new point and the history (newest first).
template <class T>
std::vector<T> correct(const std::vector<T>& x, T step, const std::vector<T>& eval,
                       const std::array<std::vector<T>, 4>& hist) {
  return combine<T>(x, step / T(24), {9, 19, -5, 1}, {&eval, &hist[0], &hist[1], &hist[2]});
}

// The AM4 increment alone, c (9 eval + 19 h0 - 5 h1 + h2), rounded as correct() rounds it before
// adding x (a compensated sum adds it).
template <class T>
std::vector<T> correction(T step, const std::vector<T>& eval, const std::array<std::vector<T>, 4>& hist) {
  return correct(std::vector<T>(eval.size(), T(0)), step, eval, hist);
}

// The AB4 extrapolation over two steps, x + step/3 (27 d0 - 44 d1 + 31 d2 - 8 d3).
template <class T>
std::vector<T> predict_two(const std::vector<T>& x, T step, const std::array<std::vector<T>, 4>& hist) {
  return combine<T>(x, step / T(3), {27, -44, 31, -8}, {&hist[0], &hist[1], &hist[2], &hist[3]});
}

template <class T>
void push(std::array<std::vector<T>, 4>& hist, std::vector<T> newest) {
  for (std::size_t m = 3; m > 0; --m) hist[m] = std::move(hist[m - 1]);
  hist[0] = std::move(newest);
}

}  // namespace dualrate::adams
