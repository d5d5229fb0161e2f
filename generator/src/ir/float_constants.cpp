#include "ir/float_constants.hpp"

#include <cmath>
#include <stdexcept>

namespace dualrate {

std::vector<NamedMatrix> confirmed_constants(const std::vector<NamedMatrix>& design,
                                             const std::vector<NamedMatrix>& own) {
  constexpr double u_f = 0x1p-24, entry_share = 0x1p-16;
  std::vector<NamedMatrix> confirmed = design;
  for (NamedMatrix& m : confirmed) {
    const Eigen::MatrixXd& reference = named(own, m.name).value;
    if (reference.rows() != m.value.rows() || reference.cols() != m.value.cols())
      throw std::logic_error("confirmed_constants: the sizes of '" + m.name + "' differ");
    const double largest = reference.cwiseAbs().maxCoeff();
    for (Eigen::Index i = 0; i < reference.rows(); ++i)
      for (Eigen::Index j = 0; j < reference.cols(); ++j) {
        const double bound = u_f * (std::fabs(reference(i, j)) + entry_share * largest);
        if (!(std::fabs(m.value(i, j) - reference(i, j)) <= bound)) m.value(i, j) = reference(i, j);
      }
  }
  return confirmed;
}

Eigen::VectorXf product_in_float(const LinearMap& m, const Eigen::VectorXf& v) {
  Eigen::VectorXf r(m.rows);
  for (Eigen::Index i = 0; i < m.rows; ++i) {
    const auto& row = m.terms[static_cast<std::size_t>(i)];
    const bool negated = !row.empty() && row.front().coefficient < 0;  // positive terms come first
    float sum = 0;
    bool first = true;
    for (const LinearTerm& t : row) {
      if (t.entry >= 0) throw std::logic_error("product_in_float: scheduled map '" + m.name + "'");
      const float term = static_cast<float>(std::fabs(t.coefficient)) * v[t.column];  // 1 v is v, as emitted
      if (first) sum = term;
      else sum = t.coefficient < 0 && !negated ? sum - term : sum + term;
      first = false;
    }
    r[i] = negated ? -sum : sum;
  }
  return r;
}

}  // namespace dualrate
