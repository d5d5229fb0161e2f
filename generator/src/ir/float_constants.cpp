#include "ir/float_constants.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "model/tables.hpp"

namespace dualrate {

template <class T>
std::vector<NamedMatrix> confirmed_constants(const std::vector<NamedMatrix>& design,
                                             const std::vector<NamedMatrix>& own) {
  constexpr double unit = std::numeric_limits<T>::epsilon() / 2, matrix_share = 0x1p-40;
  std::vector<NamedMatrix> confirmed = design;
  for (NamedMatrix& m : confirmed) {
    const Eigen::MatrixXd& reference = named(own, m.name).value;
    if (reference.rows() != m.value.rows() || reference.cols() != m.value.cols())
      throw std::logic_error("confirmed_constants: the sizes of '" + m.name + "' differ");
    const double largest = reference.cwiseAbs().maxCoeff();
    for (Eigen::Index i = 0; i < reference.rows(); ++i)
      for (Eigen::Index j = 0; j < reference.cols(); ++j) {
        const double bound = unit * std::fabs(reference(i, j)) + matrix_share * largest;
        if (!(std::fabs(m.value(i, j) - reference(i, j)) <= bound)) m.value(i, j) = reference(i, j);
      }
  }
  return confirmed;
}

template <class T>
Eigen::Matrix<T, Eigen::Dynamic, 1> product_in(const LinearMap& m, const Eigen::Matrix<T, Eigen::Dynamic, 1>& v,
                                               const std::vector<T>& scheduled) {
  Eigen::Matrix<T, Eigen::Dynamic, 1> r(m.rows);
  for (Eigen::Index i = 0; i < m.rows; ++i) {
    const auto& row = m.terms[static_cast<std::size_t>(i)];
    // Scheduled entries come first, then the positive constants: all negative only when the first is.
    const bool negated = !row.empty() && row.front().entry < 0 && row.front().coefficient < 0;
    T sum = 0;
    bool first = true;
    for (const LinearTerm& t : row) {
      if (t.entry >= static_cast<long>(scheduled.size()))
        throw std::logic_error("product_in: no value of scheduled entry " + std::to_string(t.entry) + " of '" + m.name +
                               "'");
      const T factor = t.entry >= 0 ? scheduled[static_cast<std::size_t>(t.entry)]
                                    : static_cast<T>(std::fabs(t.coefficient));  // 1 v is v, as emitted
      const T term = factor * v[t.column];
      if (first)
        sum = term;
      else
        sum = t.entry < 0 && t.coefficient < 0 && !negated ? sum - term : sum + term;
      first = false;
    }
    r[i] = negated ? -sum : sum;
  }
  return r;
}

template <class T>
CellsIn<T> locate_in(const std::vector<std::vector<double>>& grid, const std::vector<T>& values) {
  CellsIn<T> c;
  std::size_t stride = 1;
  c.stride.resize(grid.size());
  for (std::size_t d = grid.size(); d-- > 0;) {
    c.stride[d] = stride;
    stride *= grid[d].size();
  }
  for (std::size_t d = 0; d < grid.size(); ++d) {
    const auto b = [&grid, d](std::size_t i) { return static_cast<T>(grid[d][i]); };
    const std::size_t last = grid[d].size() - 1;
    T x = values.at(d);
    if (std::isnan(x)) {
      c.index.push_back(0);
      c.fraction.push_back(x);
      continue;
    }
    if (x < b(0) || x > b(last)) x = x < b(0) ? b(0) : b(last);
    std::size_t i = 0;
    while (i + 1 < last && x >= b(i + 1)) ++i;
    c.index.push_back(i);
    c.fraction.push_back((x - b(i)) / (b(i + 1) - b(i)));
  }
  return c;
}

template <class T>
T interpolate_in(const std::vector<double>& points, const CellsIn<T>& cells) {
  const auto value = [&points](std::size_t k) { return static_cast<T>(points.at(k)); };
  const std::size_t dims = cells.index.size();
  if (dims == 1) {
    const std::size_t i = cells.index[0];
    return value(i) + cells.fraction[0] * (value(i + 1) - value(i));
  }
  const auto weight = [&cells](std::size_t d, bool upper) {
    return upper ? cells.fraction[d] : T(1) - cells.fraction[d];
  };
  return corner_sum<T>(dims, cells.index.data(), cells.stride.data(), weight, value);
}

template <class T>
std::vector<T> scheduled_entries_in(const LinearMap& m, const CellsIn<T>& cells) {
  std::vector<T> entries;
  for (const auto& table : m.tables) entries.push_back(interpolate_in(table, cells));
  return entries;
}

#define DUALRATE_FLOAT_CONSTANTS_IN(T)                                                           \
  template std::vector<NamedMatrix> confirmed_constants<T>(const std::vector<NamedMatrix>&,      \
                                                           const std::vector<NamedMatrix>&);     \
  template Eigen::Matrix<T, Eigen::Dynamic, 1> product_in(                                       \
      const LinearMap&, const Eigen::Matrix<T, Eigen::Dynamic, 1>&, const std::vector<T>&);      \
  template CellsIn<T> locate_in(const std::vector<std::vector<double>>&, const std::vector<T>&); \
  template T interpolate_in(const std::vector<double>&, const CellsIn<T>&);                      \
  template std::vector<T> scheduled_entries_in(const LinearMap&, const CellsIn<T>&);
DUALRATE_FLOAT_CONSTANTS_IN(float)
DUALRATE_FLOAT_CONSTANTS_IN(double)
#undef DUALRATE_FLOAT_CONSTANTS_IN

}  // namespace dualrate
