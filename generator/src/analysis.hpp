// Symbolic analysis of a model: Jacobians of the right-hand side by GiNaC differentiation,
// and their values at a point.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <vector>

#include "model.hpp"

namespace dualrate {

// d f_i / d v_j for the resolved right-hand sides f (variables expanded, parameters by
// value) and the given symbols v (states, inputs, or any subset).
GiNaC::matrix jacobian(const Model& model, const std::vector<GiNaC::ex>& wrt);

std::vector<GiNaC::ex> state_symbols(const Model& model);
std::vector<GiNaC::ex> input_symbols(const Model& model);

// Numeric value of a matrix of expressions in t, states and inputs at (t, x, u).
Eigen::MatrixXd evaluate(const Model& model, const GiNaC::matrix& m, double t, const std::vector<double>& x,
                         const std::vector<double>& u);

}  // namespace dualrate
