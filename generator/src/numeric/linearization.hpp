// The linearization of a model: Jacobians of the right-hand side by GiNaC differentiation,
// their values at a point, and the spectra the analysis and the schemes' designs read.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <vector>

#include "model/model.hpp"

namespace dualrate {

// d f_i / d v_j for the resolved right-hand sides f (variables expanded, parameters by
// value) and the given symbols v (states, inputs, or any subset).
GiNaC::matrix jacobian(const Model& model, const std::vector<GiNaC::ex>& wrt);

std::vector<GiNaC::ex> state_symbols(const Model& model);
std::vector<GiNaC::ex> input_symbols(const Model& model);

// Numeric value of a matrix of expressions in t, states and inputs at (t, x, u).
Eigen::MatrixXd evaluate(const Model& model, const GiNaC::matrix& m, double t, const std::vector<double>& x,
                         const std::vector<double>& u);

// Eigenvalues of a Jacobian split after `slow` states: of the whole, of its fast block g_z
// (empty without fast states) and of the reduced slow dynamics f_x - f_z g_z^-1 g_x (f_x
// alone when g_z is singular or there are no fast states).
struct Spectra {
  Eigen::VectorXcd all, fast, slow;
};
Spectra spectra(const Eigen::MatrixXd& j, std::size_t slow);

// A one-step map is called stable when its spectral radius is at most 1 + kStabilityMargin
// (the neutral eigenvalue 0 of a free coordinate maps to exactly 1, up to rounding).
constexpr double kStabilityMargin = 1e-9;

// The eigenvalues of m (empty for an empty m).
Eigen::VectorXcd eigenvalues(const Eigen::MatrixXd& m);

}  // namespace dualrate
