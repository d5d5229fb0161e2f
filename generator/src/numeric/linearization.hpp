// The linearization of a model: Jacobians of the right-hand side by GiNaC differentiation,
// their values at a point, and the spectra the analysis and the schemes' designs read.
#pragma once

#include <Eigen/Dense>

#include <complex>
#include <ginac/ginac.h>

#include <vector>

#include "model/model.hpp"

namespace dualrate {

// d f_i / d v_j for the resolved right-hand sides f (variables expanded, parameters by
// value) and the given symbols v (states, inputs, or any subset).
GiNaC::matrix jacobian(const Model& model, const std::vector<GiNaC::ex>& wrt);

std::vector<GiNaC::ex> state_symbols(const Model& model);
std::vector<GiNaC::ex> input_symbols(const Model& model);

// Where the generator linearizes a model: its initial state, and its inputs at t = 0 (the
// scenario's signals, else the defaults; NaN for one that is no number there).
struct InitialPoint {
  std::vector<double> x, u;
};
InitialPoint initial_point(const Model& model);

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

// Real parts above it grow: 1e-9 of 1 + the largest modulus of `eigenvalues`, above rounding.
double growth_threshold(const Eigen::VectorXcd& eigenvalues);
// The largest real part among `eigenvalues` above growth_threshold: the rate at which the
// linearized model itself grows; 0 if none.
double growth_rate(const Eigen::VectorXcd& eigenvalues);
// The Jacobian's eigenvalues that grow (above growth_rate's threshold), one of each conjugate pair.
Eigen::VectorXcd growing_modes(const Eigen::VectorXcd& eigenvalues);
// The eigenvalue with the largest real part (the first of equals; 0 for none): the mode that
// decides whether and how fast the model grows.
std::complex<double> slowest_decaying_mode(const Eigen::VectorXcd& eigenvalues);
// How far a map's amplification a of a mode with real part `rate` over a (macro) step H lies
// outside what is accepted (docs/schemes.md#growing-models): a itself for a mode that does not
// grow (`grows` false), else the factor by which a leaves [min(exp(z / 2), exp(z) - accuracy),
// exp(3 z / 2)], z = H rate (at most 1 inside): `accuracy` is the scheme's own error on the
// mode over the step (scheme_accuracy), within which a map that falls short of the model's
// growth still follows it. Acceptable: at most 1 + kStabilityMargin.
double growth_relative(double a, double rate, bool grows, double step, double accuracy = 0);
// The leading term of a scheme of order p's error on a mode over one step, |H lambda|^(p+1) /
// (p+1)!: that of the Taylor polynomial of e^(H lambda) of degree p, which an explicit
// Runge-Kutta scheme of up to four stages has as its stability function.
double scheme_accuracy(int order, double step_modulus);

}  // namespace dualrate
