// Seed 001's claims, shared by the reproduction tests and the report program: the number
// of inner steps against eps (eq. 17 beside the exact eq. 14 choice) on a linear test system,
// and the adaptive control example (Table I's protocol, Fig. 3) with explicit N.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/stability.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "schemes/smfe/smfe.hpp"
#include "source_tree.hpp"

namespace dualrate::seed001 {

// x' = -x + z, eps z' = -z + x: one slow mode near -1, one fast near -1/eps.
inline Model linear_system(double eps) {
  return load_model_text(fmt::format("name: linear_test\nparameters:\n  eps: {:.17g}\nstates:\n  slow:\n    x: 1\n"
                                     "  fast:\n    z: 0\nequations:\n  x: -x + z\n  z: (-z + x)/eps\n"
                                     "simulation:\n  t_end: 1\n  step: 0.5\n",
                                     eps),
                         "linear_test.yaml");
}

// The paper's inner step h_s = eps D (eq. 12) at macro step D = 0.5: h_s lambda_f is about
// -D, so |1 + h_s lambda_f| = 0.5 and N grows like ln(D / eps) / ln 2 (eq. 17).
inline constexpr double kLinearD = 0.5;

struct NPoint {
  double eps;
  int n;              // exact, eq. 14 for every eigenvalue
  double eq17;        // eq. 17's bound
  double smfe_rate;   // right-hand-side evaluations per unit time: (N + 1) / D
  double euler_rate;  // forward Euler at its stability limit 2 / |lambda_max|: 1 / that
};

inline NPoint n_for(double eps) {
  const Model m = linear_system(eps);
  const ReferenceCore core(m);
  const Spectra s = spectra(core.jacobian_at(0, core.initial_state(), core.inputs_at(0)), m.slow_count);
  const SmfeDesign d = smfe_design(s.all, s.slow, s.fast, kLinearD, eps * kLinearD);
  return {eps, d.inner_steps, d.eq17_bound, (d.inner_steps + 1) / kLinearD, s.all.cwiseAbs().maxCoeff() / 2};
}

// The adaptive example (models/adaptive_parasitic.yaml) and its reduced model (eps = 0,
// z = u = -k y: eq. 23).
inline Model adaptive() { return load_model_file(test::source_path("models/adaptive_parasitic.yaml")); }
inline Model adaptive_reduced() {
  return load_model_text(
      "name: reduced\nparameters:\n  a: 1\n  y0: 1\n  k0: 1.5\nstates:\n  slow:\n    y: y0\n"
      "    k: k0\nequations:\n  y: (a - k)*y\n  k: y^2\nsimulation:\n  t_end: 10\n  step: 0.1\n",
      "reduced.yaml");
}

// (y, k) every macro step D over [0, 10]: SMFE on the full model with h_s = eps = 0.01 and N
// inner steps (Algorithm 1, the reference core's transcription), or forward Euler with step
// D on the reduced model (n = 0).
inline std::vector<std::pair<double, double>> slow_plane(double d, int n) {
  const bool reduced = n == 0;
  const Model m = reduced ? adaptive_reduced() : adaptive();
  const ReferenceCore core(m);
  std::vector<double> x = core.initial_state();
  const RightHandSide f = [&](double t, const std::vector<double>& xs, std::vector<double>& dx) {
    core.derivatives(t, xs, core.inputs_at(t), dx);
  };
  std::vector<std::pair<double, double>> path{{x[0], x[1]}};
  const long steps = std::lround(10 / d);
  for (long i = 0; i < steps; ++i) {
    const double t = static_cast<double>(i) * d;
    x = reduced ? scheme_step("euler", f, t, d, x) : smfe_reference_step(f, t, d, 0.01, n, x);
    path.emplace_back(x[0], x[1]);
  }
  return path;
}

// Mean squared error of (y, k) at the macro steps against the high-accuracy solution of the
// full model.
inline double mse(const std::vector<std::pair<double, double>>& path, double d) {
  const Model m = adaptive();
  const Trace exact = ReferenceCore(m).simulate({kHighAccuracy, d, 10, 1});
  double s = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const double ey = path[i].first - exact.rows[i][1], ek = path[i].second - exact.rows[i][2];
    s += ey * ey + ek * ek;
  }
  return s / static_cast<double>(path.size());
}

}  // namespace dualrate::seed001
