// The reference core's model side: an independent host implementation that evaluates a model
// straight from its parsed description (Model), in double, with no generated code involved:
// right-hand sides, variables, outputs and input signals from the parsed expressions as the
// model file states them (Evaluator): parameters by value, variables in dependency order. It
// integrates to high accuracy on its own (high_accuracy: Boost.Odeint's controlled
// runge_kutta_dopri5 at tight tolerances, the input signals evaluated continuously in
// time); the runs of the schemes, each through its registry entry, are the reference core's
// (reference_core/reference_core.hpp), above the schemes, which build on this layer.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "model/calibration.hpp"
#include "model/evaluator.hpp"
#include "model/model.hpp"
#include "base/trace.hpp"
#include "numeric/ode.hpp"

namespace dualrate {

struct ConstantSchedule;
struct SchemeDesign;

// The name of the high-accuracy run (high_accuracy) where a scheme's name may stand
// (RunOptions::scheme, `simulate --scheme`).
inline const std::string kHighAccuracy = "reference";

// A simulation that produced a non-finite state or derivative, or could not proceed.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The values given for schemes' own options (SchemeTraits::options, schemes/contract.hpp), by
// the option's name; an option not given is absent, and its scheme chooses.
using SchemeOptions = std::map<std::string, double>;

struct RunOptions {
  std::string scheme;  // a scheme of the registry (registry/registry.hpp) or kHighAccuracy
  double step = 0;     // h
  double t_end = 0;
  int every = 1;                       // one trace row every `every` steps
  double reference_tolerance = 1e-12;  // absolute and relative, for kHighAccuracy
  // kHighAccuracy with the inputs as a single-rate run of `step` holds them over each step (its
  // sample, or the polynomial of its hold: holding_step), not continuous in time: the solution
  // whose difference to the continuous one is what the inputs' hold costs.
  bool inputs_held = false;
  // The linearization the scheme's steps take instead of the model's (verify's re-linearizing
  // run: exact); none: the model's (Simulation::linearization).
  std::optional<Linearization> linearization{};
  // Scheduled constants (linearization: scheduled, as generate designed them): interpolated at
  // each step's start instead of re-linearizing; null otherwise.
  std::shared_ptr<const ConstantSchedule> schedule{};
  // The generator's design (precompute_scheme) of the build the run is compared with, where the
  // caller holds it (verify); null: the reference core designs it where its exact step check
  // needs it. Its schedule, if any, is `schedule`.
  std::shared_ptr<const SchemeDesign> design{};
  int ratio = 1;                   // H = ratio h, for the multirate schemes
  SchemeOptions scheme_options{};  // the scheme's own options as given
  // Without `schedule`: the count a scheduled design fixed (ConstantSchedule::iterations), for
  // the run that re-designs at every step what the schedule interpolates (verify's
  // schedule_error); 0: the scheme's own design.
  int iterations = 0;
  // The run a float build is compared with: step i samples the inputs at t_i = fl(fl(i) fl(h))
  // as float generated code does (Data::time, tasks.hpp), evaluated in float: an input that
  // steps at a point of the grid then switches at the same step in both.
  bool float_time = false;
  // End exactly at t_end when it is not a whole number of steps: the single-step schemes and
  // kHighAccuracy take a last, shortened step; the multistep and dual-rate schemes, whose
  // steps are tied to their grid, refuse with the nearest end times they reach. Otherwise
  // the run ends at the first grid time at or past t_end (as generated code does).
  bool exact_end = false;
  // Calibration writes (model/calibration.hpp): each applies from the step its `at` falls on
  // (first_step_at; a dual-rate run's first macro step), unless check_write refuses it; from
  // there on the run steps on the model at the new values (calibrated_model: derived parameters,
  // tables, input signals and a scheme's constants at them), from the state it has reached.
  // A row at a step's start time shows the outputs at the values in effect for that step.
  std::vector<CalibrationWrite> calibration{};
  // The steps per macro step at whose starts writes apply (first_step_at's stride); 0: the
  // scheme's (its ratio for a dual-rate scheme, else 1; 1 for kHighAccuracy). A high-accuracy
  // run compared with a dual-rate scheme's takes that scheme's ratio.
  int calibration_stride = 0;
  // The compensated states of the float build the run is compared with (SchemeDesign::
  // compensated, dualrate/compensated_sum.hpp), or empty: its exact step takes the carries of
  // those states after the states.
  std::vector<bool> compensated{};
  // Called with the time each step (or macro step) of the run reaches: simulate's progress line.
  std::function<void(double t)> progress{};
};

// The stride options' writes apply with for a run of a dual-rate scheme (`dual_rate`) or not.
inline int calibration_stride(const RunOptions& options, bool dual_rate) {
  if (options.calibration_stride > 0) return options.calibration_stride;
  return dual_rate ? options.ratio : 1;
}

// The time at which step i of size h samples its inputs (RunOptions::float_time).
double sample_time(long i, double h, bool float_time);

// Number of steps of size h that cover [0, t_end] (t_end is reached or passed by less than
// one part in 1e9 of a step).
long step_count(double t_end, double h);

// How t_end falls on the grid of strides of `stride` steps h (a dual-rate scheme's macro
// step: stride = ratio).
struct EndTime {
  long steps = 0;      // step_count(t_end, h), rounded up to whole strides
  bool whole = false;  // t_end is a whole number of strides, to 1e-9 of a step
  double below = 0;    // the nearest end times on the grid of strides: below <= t_end <= above
  double above = 0;
};
EndTime end_time(double t_end, double h, int stride = 1);

// The cores of a run with calibration writes (RunOptions::calibration), each a Core (a
// ReferenceModel or derived) built on the model of one calibration segment
// (calibration_segments): `base` (the run's own) before the first step a write is applied at,
// then one per such step. The models live as long as this.
template <class Core>
class CalibratedCores {
 public:
  CalibratedCores(const Core& base, const Model& model, const std::vector<CalibrationWrite>& writes, double h,
                  int stride = 1)
      : base_(base), base_model_(model) {
    for (auto& s : calibration_segments(model, writes, h, stride)) {
      from_.push_back(s.from);
      cores_.push_back(std::make_unique<Core>(*s.model));
      models_.push_back(std::move(s.model));
    }
  }
  // 0 for base, k for the k-th segment's core: the one in effect at step i.
  std::size_t index(long i) const {
    return static_cast<std::size_t>(std::upper_bound(from_.begin(), from_.end(), i) - from_.begin());
  }
  std::size_t size() const { return cores_.size() + 1; }
  const Core& core(std::size_t k) const { return k == 0 ? base_ : *cores_[k - 1]; }
  const Core& at(long i) const { return core(index(i)); }
  const Model& model(std::size_t k) const { return k == 0 ? base_model_ : *models_[k - 1]; }

 private:
  const Core& base_;
  const Model& base_model_;
  std::vector<long> from_;
  std::vector<std::shared_ptr<const Model>> models_;
  std::vector<std::unique_ptr<Core>> cores_;
};

// Inputs over one step from `start`: u(t) = value + s (rate + s curvature), s = T(t - start),
// in T's arithmetic (dualrate/input_hold.hpp's HeldInput), and at `start` the sample itself.
template <class T>
struct HeldInputs {
  double start = 0;
  std::vector<T> value, rate, curvature;
  std::vector<double> at(double t) const {
    if (t == start) return {value.begin(), value.end()};  // the sample, as a stage at the start takes it
    const T s = static_cast<T>(t - start);
    std::vector<double> u(value.size());
    for (std::size_t k = 0; k < u.size(); ++k) u[k] = static_cast<double>(value[k] + s * (rate[k] + s * curvature[k]));
    return u;
  }
};

class ReferenceModel {
 public:
  using Vector = std::vector<double>;
  explicit ReferenceModel(const Model& model);

  Vector initial_state() const;
  // The signals at t; with `in_float` evaluated in float at fl(t) with the parameters rounded
  // to float, as a float build's scenario_inputs computes them (RunOptions::float_time).
  Vector inputs_at(double t, bool in_float = false) const;
  // Whether an input has a hold (Model::holds_inputs).
  bool holds_inputs() const;
  // The inputs over step i as the runtime's dualrate::InputSamples::hold forms them, written
  // here on its own: each input's polynomial through the samples of steps i, i-1 and i-2 that its
  // hold uses (as many as exist before step i; with simulation: inputs_before_start: sampled,
  // the samples of steps -1 and -2 exist, at t = -h and -2h), in T's arithmetic (the samples
  // rounded to T, as inputs_of_step gives them in a float build).
  template <class T>
  HeldInputs<T> held_inputs_of_step(long i, double h, bool in_float) const;
  // Whether step i's sample stepped from step i - 1's: by more than an input's jump (Input::jump),
  // the samples as inputs_of_step gives them, their difference in T (as dualrate::input_jumped).
  template <class T>
  bool input_jumped_at_step(long i, double h, bool in_float) const;
  // Throws SimulationError naming the derivatives (and model variables) that are not finite.
  void derivatives(double t, const Vector& x, const Vector& u, Vector& dxdt) const;
  Vector outputs(double t, const Vector& x, const Vector& u) const;
  // The outputs in float arithmetic, as a float build's outputs() computes them (Evaluator's
  // float evaluation; the parameters rounded to float, time terms in double at t).
  std::vector<float> float_outputs(double t, const std::vector<float>& x, const Vector& u) const;
  // The model's scheduling values (simulation: schedule: by) at (t, x, u); empty without a schedule.
  Vector scheduling_values(double t, const Vector& x, const Vector& u) const;
  // derivatives in float arithmetic (Evaluator's float evaluation), as float generated code
  // computes them.
  void float_derivatives(double t, const std::vector<float>& x, const Vector& u, std::vector<float>& dxdt) const;
  // `expressions` of the model's values (t, states, inputs, parameters, variables), prepared
  // once, then evaluated in T (float or double) at (t, x, u) as a build in T's generated
  // function of them computes them (Evaluator's evaluation in T, time terms as emitted). The
  // function refers to this model.
  template <class T>
  std::function<std::vector<T>(double t, const std::vector<T>& x, const Vector& u)> function_in(
      const std::vector<GiNaC::ex>& expressions) const;
  // The same in float, as float generated code's Model::scheduling_values computes them.
  std::vector<float> float_scheduling_values(double t, const std::vector<float>& x, const Vector& u) const;
  std::vector<std::string> columns() const;
  // The high-accuracy solution of options' scenario (options.scheme is not read): integrated
  // segment by segment over the grid t_i = i h of options.step, a row every options.every
  // segments. Throws SimulationError for a non-positive step or t_end, or every < 1.
  Trace high_accuracy(const RunOptions& options) const;
  // `trace` with a column per input appended, under its name: the signal at each row's time
  // (what the step starting there holds).
  Trace with_inputs(const Trace& trace) const;
  // The same for the trace of options' run: with calibration writes, a signal that uses a
  // tunable parameter at the values in effect at each row's step (first_step_at of its time).
  Trace with_inputs(const Trace& trace, const RunOptions& options) const;
  // Jacobian d(dx/dt)/dx at (t, x, u).
  Eigen::MatrixXd jacobian_at(double t, const Vector& x, const Vector& u) const;
  // Its block of the last `size` rows and columns (the fast states' G_z), evaluating only those
  // entries: a quasistatic Newton step needs no more, and a reduced model's slow rows are large.
  Eigen::MatrixXd trailing_jacobian_at(double t, const Vector& x, const Vector& u, Eigen::Index size) const;
  // The Jacobian d(dx/dt)/du at (t, x, u).
  Eigen::MatrixXd input_jacobian_at(double t, const Vector& x, const Vector& u) const;
  // Whether d(dx/dt)/dx depends on t, a state or an input (false: the model is linear with
  // constant coefficients, and its linearization anywhere is the initial state's).
  bool jacobian_varies() const { return jacobian_varies_; }
  // Per state i, sum_j |df_i/dp_j p_j| at (t, x, u): how far a relative change of every
  // parameter by one unit can move the derivative of state i (to first order). A table call
  // T_c in f_i counts as such a value, |df_i/dT_c T_c|: its data and its interpolation round
  // relative to the table's values, and terms that cancel in f_i (the moments of a trimmed
  // airframe) each carry their own rounding.
  Vector parameter_rates(double t, const Vector& x, const Vector& u) const;

 protected:
  const Model& model() const { return model_; }
  // An empty trace with the columns, for options' run (SimulationError as high_accuracy's).
  Trace started(const RunOptions& options) const;
  // From the initial state over n steps of size h: `advance(i, x)` moves x from grid index i
  // to the index it returns. The state is checked after each advance; a row is written at
  // t = 0, after each advance that reaches or passes a multiple of `every` steps, and at the end.
  // The last row's time is t_last (n h, or t_end after a shortened last step).
  // With `at`, the row at grid index i is at(i)'s (RunOptions::calibration). A row's outputs are
  // at the inputs its step holds (inputs_of_step with `float_time`, as a trace program's row
  // has them); the last row's after a shortened step at the inputs at t_last.
  void march(long n, double h, double t_last, int every, bool float_time,
             const std::function<long(long, Vector&)>& advance, Trace& trace,
             const std::function<const ReferenceModel&(long)>& at = {},
             const std::function<void(double)>& progress = {}) const;
  // The right-hand side with the inputs held at u (zero-order hold).
  RightHandSide holding(Vector u) const;
  // The right-hand side over step i of size h as generated code holds the inputs: holding the
  // step's sample, or for a model with held inputs (Input::hold) held_inputs_of_step's
  // polynomials at each stage's time.
  RightHandSide holding_step(long i, double h, bool in_float) const;
  // The inputs step i of size h holds: inputs_at(sample_time(i, h, in_float), in_float).
  Vector inputs_of_step(long i, double h, bool in_float) const;

 private:
  Vector row(double t, const Vector& x, const Vector& u) const;
  void check_state(double t, const Vector& x) const;
  // Values of all slots in T's arithmetic: t, states, inputs, parameters, then the variables
  // evaluated (their time terms at the double t). The accelerations of a coordinate-dependent
  // mass matrix are its symbolic inverse times the forces in double; in float, the runtime's
  // factorization and solves (solve_mass_in_float), as a float build computes them.
  template <class T>
  std::vector<T> environment(double t, const std::vector<T>& x, const Vector& u) const;
  // The same with the variables left at zero.
  template <class T>
  std::vector<T> slot_values(double t, const std::vector<T>& x, const Vector& u) const;
  // The accelerations' slots of `env` from the mass matrix and forces at it, in float, by
  // numeric/fixed_size_solves.hpp's transcription of dualrate::solve_mass.
  void solve_mass_in_float(double t, std::vector<float>& env) const;

  const Model& model_;
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> slots_;  // t, states, inputs, parameters, variables
  std::vector<Evaluator> rhs_, outputs_, variables_, signals_, scheduling_;
  // The Jacobian's resolved entries (list kFullJacobian), those of its trailing fast_count()
  // block (kFastBlock) and the input Jacobian's (kInputJacobian), column-major.
  enum : std::size_t { kFullJacobian, kFastBlock, kInputJacobian };
  EvaluatorSet jacobian_;
  bool jacobian_varies_ = false;
  // A coordinate-dependent mass matrix (row-major) and its forces, and the slots of the
  // accelerations solved from them.
  std::vector<Evaluator> mass_, forces_;
  std::vector<std::size_t> acceleration_slots_;
  std::vector<std::vector<Evaluator>> parameter_rates_;  // per state: the nonzero df_i/dp_j p_j and df_i/dT_c T_c
};

}  // namespace dualrate
