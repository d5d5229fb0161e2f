// The Jacobian under calibration (docs/calibration.md): its entries as expressions of the
// parameters that follow a calibration, for the schemes whose generated code recomputes on the
// target the matrices they take from it (RecomputeStep), and their values at points of the
// calibration range.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/tunable.hpp"

namespace dualrate {

// d f_i / d v_j of m's right-hand sides for the symbols v (the states when not given), with the
// variables expanded and the parameters that do not follow a calibration by value: expressions
// of t, the states, the inputs and the calibrated parameters.
GiNaC::matrix calibrated_jacobian(const Model& m);
GiNaC::matrix calibrated_jacobian(const Model& m, const std::vector<GiNaC::ex>& wrt);

// Where the schemes take their constant blocks: t = 0, the initial state and the inputs there.
GiNaC::exmap design_point(const Model& m);

// A block of a Jacobian: rows [row0, row0 + rows), columns [col0, col0 + cols), and what it is
// (for messages: "g_z").
struct JacobianBlock {
  std::string name;
  std::size_t row0, rows, col0, cols;
};

// Block b of j at `point`, row by row. Throws a ModelError at the range of a tunable table that
// an entry calls (its values would stay those of the generation), naming `scheme`.
std::vector<GiNaC::ex> calibrated_block(const Model& m, const GiNaC::matrix& j, const JacobianBlock& b,
                                        const GiNaC::exmap& point, const std::string& scheme);

// Whether an entry uses a calibrated parameter.
bool follows_calibration(const Model& m, const std::vector<GiNaC::ex>& entries);

// The rows x cols matrix of `entries` (row by row) at the parameters' `values`.
Eigen::MatrixXd evaluate_block(const std::vector<GiNaC::ex>& entries, std::size_t rows, std::size_t cols,
                               const GiNaC::exmap& values);

}  // namespace dualrate
