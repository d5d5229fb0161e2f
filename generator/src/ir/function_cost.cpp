#include "ir/function_cost.hpp"

namespace dualrate {

namespace {

// The entries of M(q), its Cholesky factorization (n^3/6 multiply-adds, n(n-1)/2 divisions,
// n square roots) and the two triangular solves (n^2 multiply-adds, 2n divisions).
OpCount mass_solve_ops(const SecondOrder& so) {
  OpCount c;
  for (const auto& row : so.mass)
    for (const auto& entry : row) c += count_ops(entry);
  const long n = static_cast<long>(so.coordinates.size());
  c += arithmetic(n * n * n / 6 + n * n, n * n * n / 6 + n * n, n * (n - 1) / 2 + 2 * n);
  c.calls += n;
  return c;
}

}  // namespace

OpCount derivative_ops(const Model& model, Rows rows) {
  std::vector<GiNaC::ex> roots;
  const std::size_t first = rows == Rows::kFast ? model.slow_count : 0;
  const std::size_t last = rows == Rows::kSlow ? model.slow_count : model.states.size();
  for (std::size_t i = first; i < last; ++i) roots.push_back(model.states[i].rhs);
  return straight_line_ops(model, straight_line(model, roots));
}

OpCount straight_line_ops(const Model& model, const StraightLine& body) {
  OpCount c;
  bool solved = false;  // the accelerations share one solve
  for (const Local& l : body.locals) {
    if (!l.solved()) {
      c += count_ops(l.value);
    } else if (!solved) {
      c += mass_solve_ops(*model.second_order);
      solved = true;
    }
  }
  for (const auto& r : body.results) c += count_ops(r);
  return c;
}

}  // namespace dualrate
