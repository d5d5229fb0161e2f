// Constant matrices the schemes precompute, and the form they are emitted in: a function
// v -> M v written out over M's exact nonzero entries, so that zero blocks and entries cost
// nothing, a diagonal or permuted matrix costs one multiplication per row, and a unit
// coefficient none. Two kinds of zero are told apart: structural zeros, which hold for any
// parameter values (zeros of the symbolic Jacobian carried through the scheme's algebra, see
// Pattern), and exact zeros of the numbers the generator computed.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "ir/op_count.hpp"

namespace dualrate {

// Which entries of a matrix may be nonzero.
using Pattern = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>;

// The entries of the block of symbolic matrix j at (row0, col0) of rows x cols that are not
// identically zero.
Pattern symbolic_structure(const GiNaC::matrix& j, unsigned row0, unsigned col0, unsigned rows, unsigned cols);

// Pattern algebra: the entries a sum or product of matrices with patterns a and b may have.
Pattern pattern_sum(const Pattern& a, const Pattern& b);
Pattern pattern_product(const Pattern& a, const Pattern& b);
// The pattern of any function of a square matrix with pattern a that is a power series in it
// (inverse, exponential, phi-functions): the reflexive-transitive closure of a's graph.
Pattern pattern_closure(const Pattern& a);

// A constant matrix a scheme needs: its value for the model at the step, what it is, and
// the entries its structure allows (empty: not known, every entry may be nonzero).
struct NamedMatrix {
  std::string name;
  Eigen::MatrixXd value;
  std::string what;
  Pattern structure{};
  std::string origin{};  // the analysis that computed it (SourceMap's constants)
  // Scheduled constants: the matrix at every grid point of the schedule (the first scheduling
  // value's points outermost); `value` is then the one at the first point. Empty: constant.
  std::vector<Eigen::MatrixXd> scheduled{};
};

// One exact nonzero entry of a row: a constant coefficient, or (scheduled) the entry's index
// among the matrix's tabulated entries.
struct LinearTerm {
  Eigen::Index column = 0;
  double coefficient = 0;
  long entry = -1;  // >= 0: scheduled, coefficient unused
};

// A constant matrix as emitted: each row's nonzero entries, positive coefficients first (so a
// row starts with an addition, not a negation, when it can), columns ascending within each sign.
// Scheduled: the entries that differ between grid points come first, each with its values at
// the grid points in `tables` (row by row); entries equal at every point stay constants.
struct LinearMap {
  std::string name, what;
  Eigen::Index rows = 0, cols = 0;
  std::vector<std::vector<LinearTerm>> terms;  // terms[row]
  long structural_nonzeros = 0;                // entries the structure allows
  // Largest magnitude of an entry outside the structure, relative to the largest entry: the
  // rounding left where the exact value is zero (computed expm and solves), dropped.
  double dropped_residue = 0;
  std::vector<std::vector<double>> tables{};  // scheduled entries: per entry, its value at each grid point

  long nonzeros() const;
  // The arithmetic of one product M v as emitted: per nonzero row of m terms, m - 1 additions,
  // a multiplication per coefficient other than +-1, a negation when every term is negative.
  OpCount ops() const;
  // "zero", "diagonal", "permutation" (one entry per row and column), "dense" or "sparse".
  std::string shape() const;
};

// The emitted form of m: its exact nonzeros inside its structure (scheduled: nonzero at some
// grid point).
LinearMap linear_map(const NamedMatrix& m);

// The emitted form of a matrix whose values generated code recomputes (calibration): each entry
// its structure allows (every entry without one), read from the constants at index
// row * cols + col.
LinearMap calibrated_linear_map(const NamedMatrix& m);
// The matrix called `name` among `matrices`: find_named null, named std::logic_error when there
// is none.
const NamedMatrix* find_named(const std::vector<NamedMatrix>& matrices, const std::string& name);
const NamedMatrix& named(const std::vector<NamedMatrix>& matrices, const std::string& name);

// The arithmetic of one product with the matrix called `name` among `matrices` as emitted.
OpCount product_ops(const std::vector<NamedMatrix>& matrices, const std::string& name);

}  // namespace dualrate
