#include "ir/linear_map.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dualrate {

Pattern symbolic_structure(const GiNaC::matrix& j, unsigned row0, unsigned col0, unsigned rows, unsigned cols) {
  Pattern p(rows, cols);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) p(r, c) = !j(row0 + r, col0 + c).is_zero();
  return p;
}

Pattern pattern_sum(const Pattern& a, const Pattern& b) { return a || b; }

Pattern pattern_product(const Pattern& a, const Pattern& b) {
  if (a.cols() != b.rows()) throw std::logic_error("pattern_product: inner sizes differ");
  Pattern p = Pattern::Constant(a.rows(), b.cols(), false);
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index k = 0; k < a.cols(); ++k)
      if (a(i, k))
        for (Eigen::Index j = 0; j < b.cols(); ++j) p(i, j) = p(i, j) || b(k, j);
  return p;
}

Pattern pattern_closure(const Pattern& a) {
  if (a.rows() != a.cols()) throw std::logic_error("pattern_closure: matrix not square");
  Pattern p = a;
  for (Eigen::Index i = 0; i < p.rows(); ++i) p(i, i) = true;
  for (Eigen::Index k = 0; k < p.rows(); ++k)  // Warshall
    for (Eigen::Index i = 0; i < p.rows(); ++i)
      if (p(i, k))
        for (Eigen::Index j = 0; j < p.cols(); ++j) p(i, j) = p(i, j) || p(k, j);
  return p;
}

long LinearMap::nonzeros() const {
  long n = 0;
  for (const auto& row : terms) n += static_cast<long>(row.size());
  return n;
}

OpCount LinearMap::ops() const {
  OpCount c;
  for (const auto& row : terms) {
    if (row.empty()) continue;
    c.add += static_cast<long>(row.size()) - 1;
    for (const auto& t : row) c.mul += t.entry < 0 && (t.coefficient == 1 || t.coefficient == -1) ? 0 : 1;
    if (row.front().entry < 0 && row.front().coefficient < 0) c.neg += 1;
  }
  return c;
}

std::string LinearMap::shape() const {
  const long nnz = nonzeros();
  if (nnz == 0) return "zero";
  if (nnz == rows * cols) return "dense";
  bool one_per_row = true;
  std::vector<int> per_column(static_cast<std::size_t>(cols));
  for (std::size_t r = 0; r < terms.size(); ++r) {
    one_per_row = one_per_row && terms[r].size() == 1;
    for (const auto& t : terms[r]) ++per_column[static_cast<std::size_t>(t.column)];
  }
  const bool one_per_column = std::all_of(per_column.begin(), per_column.end(), [](int n) { return n == 1; });
  if (one_per_row && one_per_column && rows == cols) {
    bool diagonal = true;
    for (std::size_t r = 0; r < terms.size(); ++r)
      diagonal = diagonal && terms[r].front().column == static_cast<long>(r);
    return diagonal ? "diagonal" : "permutation";
  }
  return "sparse";
}

LinearMap linear_map(const NamedMatrix& m) {
  const bool structured = m.structure.size() > 0;
  if (structured && (m.structure.rows() != m.value.rows() || m.structure.cols() != m.value.cols()))
    throw std::logic_error("linear_map: " + m.name + "'s structure has the wrong size");
  LinearMap map{m.name, m.what, m.value.rows(), m.value.cols(), {}, 0, 0};
  map.structural_nonzeros = structured ? static_cast<long>(m.structure.count()) : static_cast<long>(m.value.size());
  const std::vector<Eigen::MatrixXd> points = m.scheduled.empty() ? std::vector<Eigen::MatrixXd>{m.value} : m.scheduled;
  double largest = 0;
  for (const auto& p : points)
    if (p.size() > 0) largest = std::max(largest, p.cwiseAbs().maxCoeff());
  for (Eigen::Index r = 0; r < m.value.rows(); ++r) {
    std::vector<LinearTerm> varying, positive, negative;
    for (Eigen::Index c = 0; c < m.value.cols(); ++c) {
      bool nonzero = false, constant = true;
      for (const auto& p : points) {
        nonzero = nonzero || p(r, c) != 0;
        constant = constant && p(r, c) == points.front()(r, c);
      }
      if (!nonzero) continue;
      if (structured && !m.structure(r, c)) {
        for (const auto& p : points) map.dropped_residue = std::max(map.dropped_residue, std::fabs(p(r, c)) / largest);
        continue;
      }
      if (!constant) {
        std::vector<double> table;
        table.reserve(points.size());
        for (const auto& p : points) table.push_back(p(r, c));
        varying.push_back({c, 0, static_cast<long>(map.tables.size())});
        map.tables.push_back(std::move(table));
        continue;
      }
      const double v = points.front()(r, c);
      (v > 0 ? positive : negative).push_back({c, v});
    }
    varying.insert(varying.end(), positive.begin(), positive.end());
    varying.insert(varying.end(), negative.begin(), negative.end());
    map.terms.push_back(std::move(varying));
  }
  return map;
}

const NamedMatrix* find_named(const std::vector<NamedMatrix>& matrices, const std::string& name) {
  for (const auto& m : matrices)
    if (m.name == name) return &m;
  return nullptr;
}

const NamedMatrix& named(const std::vector<NamedMatrix>& matrices, const std::string& name) {
  if (const NamedMatrix* m = find_named(matrices, name)) return *m;
  throw std::logic_error("no precomputed matrix '" + name + "'");
}

LinearMap calibrated_linear_map(const NamedMatrix& m) {
  LinearMap map;
  map.name = m.name;
  map.what = m.what + "; follows the calibration";
  map.rows = m.value.rows();
  map.cols = m.value.cols();
  map.terms.resize(static_cast<std::size_t>(map.rows));
  for (Eigen::Index r = 0; r < map.rows; ++r)
    for (Eigen::Index c = 0; c < map.cols; ++c)
      if (m.structure.size() == 0 || m.structure(r, c)) {
        map.terms[static_cast<std::size_t>(r)].push_back({c, 1, static_cast<long>(r * map.cols + c)});
        ++map.structural_nonzeros;
      }
  return map;
}

OpCount product_ops(const std::vector<NamedMatrix>& matrices, const std::string& name) {
  return linear_map(named(matrices, name)).ops();
}

}  // namespace dualrate
