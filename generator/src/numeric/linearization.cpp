#include "numeric/linearization.hpp"

#include "numeric/decompositions.hpp"

#include <vector>

#include <cmath>
#include <limits>

#include <algorithm>

#include <stdexcept>

namespace dualrate {

std::vector<GiNaC::ex> state_symbols(const Model& model) {
  std::vector<GiNaC::ex> s;
  for (const auto& x : model.states) s.push_back(x.symbol);
  return s;
}

std::vector<GiNaC::ex> input_symbols(const Model& model) {
  std::vector<GiNaC::ex> s;
  for (const auto& u : model.inputs) s.push_back(u.symbol);
  return s;
}

GiNaC::matrix jacobian(const Model& model, const std::vector<GiNaC::ex>& wrt) {
  const std::vector<GiNaC::ex> f = model.resolved_rhs();
  GiNaC::matrix j(static_cast<unsigned>(f.size()), static_cast<unsigned>(wrt.size()));
  for (unsigned r = 0; r < f.size(); ++r)
    for (unsigned c = 0; c < wrt.size(); ++c) j(r, c) = f[r].diff(GiNaC::ex_to<GiNaC::symbol>(wrt[c]));
  return j;
}

InitialPoint initial_point(const Model& model) {
  InitialPoint p;
  for (const auto& x : model.states) p.x.push_back(x.initial_value);
  for (std::size_t i = 0; i < model.inputs.size(); ++i) {
    const GiNaC::ex v =
        model.input_signal(i).subs(model.parameter_values()).subs(GiNaC::lst{model.time}, GiNaC::lst{0}).evalf();
    p.u.push_back(GiNaC::is_a<GiNaC::numeric>(v) ? GiNaC::ex_to<GiNaC::numeric>(v).to_double()
                                                 : std::numeric_limits<double>::quiet_NaN());
  }
  return p;
}

Eigen::MatrixXd evaluate(const Model& model, const GiNaC::matrix& m, double t, const std::vector<double>& x,
                         const std::vector<double>& u) {
  GiNaC::exmap point;
  point[model.time] = GiNaC::numeric(t);
  for (std::size_t i = 0; i < model.states.size(); ++i) point[model.states[i].symbol] = GiNaC::numeric(x.at(i));
  for (std::size_t i = 0; i < model.inputs.size(); ++i) point[model.inputs[i].symbol] = GiNaC::numeric(u.at(i));
  Eigen::MatrixXd result(m.rows(), m.cols());
  for (unsigned r = 0; r < m.rows(); ++r)
    for (unsigned c = 0; c < m.cols(); ++c) {
      const GiNaC::ex& entry = m(r, c);
      // Plain substitution (no pattern matching): a map lookup per symbol instead of a match
      // against every entry of the point per node.
      const GiNaC::ex v = GiNaC::is_a<GiNaC::numeric>(entry)
                              ? entry.evalf()
                              : entry.subs(point, GiNaC::subs_options::no_pattern).evalf();
      if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
        throw std::runtime_error("Jacobian entry does not evaluate to a real number");
      result(r, c) = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
    }
  return result;
}

Eigen::VectorXcd eigenvalues(const Eigen::MatrixXd& m) {
  if (m.size() == 0) return {};
  return Eigen::EigenSolver<Eigen::MatrixXd>(m, false).eigenvalues();
}

double growth_threshold(const Eigen::VectorXcd& eigenvalues) {
  return 1e-9 * (1 + (eigenvalues.size() > 0 ? eigenvalues.cwiseAbs().maxCoeff() : 0.0));
}

double growth_rate(const Eigen::VectorXcd& eigenvalues) {
  const double threshold = growth_threshold(eigenvalues);
  double rate = 0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i)
    if (eigenvalues[i].real() > threshold) rate = std::max(rate, eigenvalues[i].real());
  return rate;
}

Eigen::VectorXcd growing_modes(const Eigen::VectorXcd& eigenvalues) {
  const double threshold = growth_threshold(eigenvalues);
  std::vector<std::complex<double>> modes;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i)
    if (eigenvalues[i].real() > threshold && eigenvalues[i].imag() >= 0) modes.push_back(eigenvalues[i]);
  return Eigen::Map<const Eigen::VectorXcd>(modes.data(), static_cast<Eigen::Index>(modes.size()));
}

std::complex<double> slowest_decaying_mode(const Eigen::VectorXcd& eigenvalues) {
  std::complex<double> mode{};
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i)
    if (i == 0 || eigenvalues[i].real() > mode.real()) mode = eigenvalues[i];
  return mode;
}

double growth_relative(double a, double rate, bool grows, double step, double accuracy) {
  if (!grows) return a;
  const double z = step * rate;
  const double least = std::min(std::exp(0.5 * z), std::exp(z) - accuracy);
  return std::max(a / std::exp(1.5 * z), least / a);
}

double scheme_accuracy(int order, double step_modulus) {
  double term = 1;
  for (int k = 1; k <= order + 1; ++k) term *= step_modulus / k;
  return term;
}

Spectra spectra(const Eigen::MatrixXd& j, std::size_t slow) {
  const auto ns = static_cast<Eigen::Index>(slow);
  const auto nf = j.rows() - ns;
  Spectra s;
  s.all = eigenvalues(j);
  const Eigen::MatrixXd gz = j.bottomRightCorner(nf, nf);
  s.fast = eigenvalues(gz);
  Eigen::MatrixXd reduced = j.topLeftCorner(ns, ns);
  if (nf > 0 && ns > 0) {
    const FullPivotLu lu(gz);
    if (lu.invertible()) reduced -= j.topRightCorner(ns, nf) * lu.solve_matrix(j.bottomLeftCorner(nf, ns));
  }
  s.slow = eigenvalues(reduced);
  return s;
}

}  // namespace dualrate
