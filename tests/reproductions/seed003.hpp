// Seed 003's step-size claims (Tables 7 and 8), shared by the reproduction tests and the
// report program: each model's largest stable step for a scheme from the analysis at the
// initial state, confirmed by simulation with the reference core.
#pragma once

#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/stability.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "source_tree.hpp"

namespace dualrate::seed003 {

// Table 7's quarter cars and Table 8's planar vehicle, with the paper's RK2 limits (s) and,
// for the vehicle, its 2-5 PRK limit (0 where the paper gives none).
struct PaperCase {
  const char* model;
  const char* what;
  double paper_rk2;
  double paper_prk;
  friend void PrintTo(const PaperCase& c, std::ostream* os) { *os << c.model; }
};
inline const std::vector<PaperCase>& paper_cases() {
  static const std::vector<PaperCase> cases = {
      {"quarter_car_a", "Table 7 (A): chassis, one spring and one damper", 0.1, 0},
      {"quarter_car", "Table 7 (B): chassis and wheel, spring tire", 0.01, 0},
      {"quarter_car_c", "Table 7 (C): chassis, suspension, rigid ring tire", 0.001, 0},
      {"planar_vehicle", "Table 8: planar vehicle, rigid ring tires, 28 states", 0.0005, 0.002},
  };
  return cases;
}

inline std::string model_path(const std::string& name) { return test::source_path("models/" + name + ".yaml"); }

// The largest stable step of `scheme` from the analysis at the initial state, and runs of
// the model's scenario by the reference core at 0.99 and 1.1 times that step and at a
// quarter of it (resolved), each over the longer of the model's t_end and 300 steps, twice:
// from the initial state and from it perturbed by kPerturbation times max(1, |x_i(0)|) in
// every state. Their largest difference over the run, relative to each state's scale
// max(1, max |x_i|) and to kPerturbation, is the run's amplification: the model's own
// sensitivity where the step is stable along the whole trajectory (the resolved run
// measures it), growing like rho^n where it is not. The error against the high-accuracy
// solution on the same grid is reported beside it; it includes the zero-order hold of the
// inputs (first order in h), which the high-accuracy solution does not have.
inline constexpr double kPerturbation = 1e-7;

struct Run {
  double amplification = std::numeric_limits<double>::infinity();  // infinity: went non-finite
  double error = std::numeric_limits<double>::infinity();
};

struct StepLimit {
  double analyzed = 0;
  Run resolved;  // at 0.25 times the step
  Run below;     // at 0.99 times the step
  Run beyond;    // at 1.1 times
};

inline Run run(const Model& model, const std::string& scheme, double h, double t_end) {
  Run r;
  Model perturbed = model;
  for (auto& x : perturbed.states) x.initial_value += kPerturbation * std::max(1.0, std::fabs(x.initial_value));
  Trace a, b;
  try {
    a = ReferenceCore(model).simulate({scheme, h, t_end, 1});
    b = ReferenceCore(perturbed).simulate({scheme, h, t_end, 1});
  } catch (const SimulationError&) {
    return r;
  }
  const Trace exact = ReferenceCore(model).simulate({kHighAccuracy, h, t_end, 1});
  const std::size_t n = model.states.size();
  std::vector<double> scale(n, 1.0);
  for (const auto& row : exact.rows)
    for (std::size_t j = 0; j < n; ++j) scale[j] = std::max(scale[j], std::fabs(row[1 + j]));
  r.amplification = r.error = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (std::size_t j = 0; j < n; ++j) {
      r.amplification =
          std::max(r.amplification, std::fabs(b.rows[i][1 + j] - a.rows[i][1 + j]) / scale[j] / kPerturbation);
      r.error = std::max(r.error, std::fabs(a.rows[i][1 + j] - exact.rows[i][1 + j]) / scale[j]);
    }
  return r;
}

inline StepLimit step_limit(const Model& model, const std::string& scheme) {
  StepLimit s;
  s.analyzed = analyze_stability(model, scheme, model.simulation.step.value()).max_stable_step;
  const auto span = [&](double h) { return std::max(model.simulation.t_end, 300 * h); };
  s.resolved = run(model, scheme, 0.25 * s.analyzed, span(0.99 * s.analyzed));
  s.below = run(model, scheme, 0.99 * s.analyzed, span(0.99 * s.analyzed));
  s.beyond = run(model, scheme, 1.1 * s.analyzed, span(1.1 * s.analyzed));
  return s;
}

// For convergence orders without the inputs' zero-order hold: the model started from its
// high-accuracy state at t0 of the scenario (every state moving), with the inputs held at
// their values at t0 for all time.
inline Model frozen_inputs(const Model& model, double t0) {
  const ReferenceCore core(model);
  const Trace tr = core.simulate({kHighAccuracy, t0 / 100, t0, 100});
  const std::vector<double> u = core.inputs_at(t0);
  Model m = model;
  for (std::size_t i = 0; i < m.states.size(); ++i) m.states[i].initial_value = tr.rows.back()[1 + i];
  for (std::size_t i = 0; i < m.inputs.size(); ++i) m.inputs[i].default_value = u[i];
  m.simulation.inputs.clear();
  return m;
}

// The error at t_end of `scheme` at step h against the high-accuracy solution, relative to
// each state's scale max(1, |x_i(t_end)|).
inline double end_error(const Model& model, const std::string& scheme, double h, double t_end) {
  const ReferenceCore core(model);
  const std::vector<double> a = core.simulate({scheme, h, t_end, 1000000}).rows.back();
  const std::vector<double> b = core.simulate({kHighAccuracy, h, t_end, 1000000}).rows.back();
  double e = 0;
  for (std::size_t j = 1; j <= model.states.size(); ++j)
    e = std::max(e, std::fabs(a[j] - b[j]) / std::max(1.0, std::fabs(b[j])));
  return e;
}

}  // namespace dualrate::seed003
