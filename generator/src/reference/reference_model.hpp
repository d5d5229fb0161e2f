// The reference core: an independent host implementation that integrates a model straight
// from its parsed description (Model), in double, with no generated code involved. It is
// the oracle that generated code is verified against, so it is kept plain:
//  - right-hand sides, variables, outputs and input signals are evaluated from the parsed
//    expressions as the model file states them (Evaluator): parameters by value, variables
//    in dependency order;
//  - the fixed-step schemes are textbook transcriptions; inputs are sampled at the start
//    of each step and held over it (zero-order hold), exactly as a periodic ECU task does;
//    the paper-form Adams schemes (schemes/adams/adams.hpp) evaluate only at grid times, with the inputs
//    sampled there; the dual-rate task forms hold the inputs of the task's release;
//  - `reference` is Boost.Odeint's controlled runge_kutta_fehlberg78 at tight tolerances
//    with the input signals evaluated continuously in time: the high-accuracy solution.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "model/evaluator.hpp"
#include "model/model.hpp"
#include "base/trace.hpp"
#include "numeric/ode.hpp"

namespace dualrate {

struct GridSetup;  // schemes/contract.hpp

struct SchemeInfo;
struct ConstantSchedule;

// A simulation that produced a non-finite state or derivative, or could not proceed.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::string scheme;  // one of schemes(), abm4, mrabm4_sync, mrabm4_parallel_sync or reference
  double step = 0;     // h
  double t_end = 0;
  int every = 1;       // one trace row every `every` steps
  double reference_tolerance = 1e-12;  // absolute and relative, for `reference`
  bool frozen_linearization = false;   // sp_ll: Jacobian blocks at the initial state, not re-linearized
  // Scheduled constants (linearization: scheduled, as generate designed them): interpolated at
  // each step's start instead of re-linearizing; null otherwise.
  std::shared_ptr<const ConstantSchedule> schedule{};
  int ratio = 1;                       // H = ratio h, for the multirate schemes
  double inner_step = 0;               // smfe: h_s (0: the generator's choice); step is the macro step D
  // Without `schedule`: the count a scheduled design fixed (ConstantSchedule::iterations), for
  // the run that re-designs at every step what the schedule interpolates (verify's
  // schedule_error); 0: the scheme's own design.
  int iterations = 0;
  // The run a float build is compared with: step i samples the inputs at t_i = fl(fl(i) fl(h))
  // as float generated code does (Data::time, tasks.hpp), evaluated in float: an input that
  // steps at a point of the grid then switches at the same step in both.
  bool float_time = false;
  // End exactly at t_end when it is not a whole number of steps: the single-step schemes and
  // `reference` take a last, shortened step; the multistep and dual-rate schemes, whose
  // steps are tied to their grid, refuse with the nearest end times they reach. Otherwise
  // the run ends at the first grid time at or past t_end (as generated code does).
  bool exact_end = false;
};

// The time at which step i of size h samples its inputs (RunOptions::float_time).
double sample_time(long i, double h, bool float_time);


// One step of the single-step scheme `scheme` (its registry entry's reference step, prepared
// without a model: the textbook schemes) from (t, x) with step h. Throws SimulationError for a
// name the registry lacks or a scheme without such a step.
std::vector<double> scheme_step(const std::string& scheme, const RightHandSide& f, double t, double h,
                                const std::vector<double>& x);

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

class ReferenceCore {
 public:
  using Vector = std::vector<double>;
  explicit ReferenceCore(const Model& model);

  Vector initial_state() const;
  // The signals at t; with `in_float` evaluated in float at fl(t) with the parameters rounded
  // to float, as a float build's scenario_inputs computes them (RunOptions::float_time).
  Vector inputs_at(double t, bool in_float = false) const;
  // Throws SimulationError naming the derivatives (and model variables) that are not finite.
  void derivatives(double t, const Vector& x, const Vector& u, Vector& dxdt) const;
  Vector outputs(double t, const Vector& x, const Vector& u) const;
  // The model's scheduling values (simulation: schedule: by) at (t, x, u); empty without a schedule.
  Vector scheduling_values(double t, const Vector& x, const Vector& u) const;
  std::vector<std::string> columns() const;

  Trace simulate(const RunOptions& options) const;
  // Step i of simulate's run of the single-step scheme options.scheme (inputs held as that run
  // holds them, the same linearization or schedule), taken from the state x given instead of
  // the run's own (verify's local check: from the generated code's state). Prepared once; the
  // function returned takes one step per call. Throws SimulationError for a scheme tied to its
  // grid (the multistep and dual-rate ones).
  std::function<Vector(long i, const Vector& x)> single_step(const RunOptions& options) const;
  // single_step's step i with its length h' in place of options.step, at the same time and
  // with the same inputs: a step's sensitivity to its length, by differences (verify's float
  // tolerance of schemes whose constants scale the step, SchemeInfo::step_scaled_constants).
  std::function<Vector(long i, const Vector& x, double h)> single_step_of_length(const RunOptions& options) const;
  // Why generated code's step may round otherwise than the reference core's in the same
  // arithmetic (single_step in double, single_step_in_float in float): the scheme's reference
  // step is not written in the runtime's order of operations, or the model has tables or a
  // mass matrix, which the generated code looks up or solves by another computation. Empty
  // when both compute the same operations on the same values (verify's exact step check).
  std::string exact_step_difference(const RunOptions& options) const;
  // single_step of a float build's run in float arithmetic, operation for operation as the
  // generated code computes it (SchemeInfo::float_reference, Evaluator's float evaluation; the
  // state, parameters and held inputs in float, the inputs sampled at float times as
  // RunOptions::float_time has them); returns the float result, exactly converted. Throws
  // SimulationError when exact_step_difference is not empty.
  std::function<Vector(long i, const Vector& x)> single_step_in_float(const RunOptions& options) const;
  // The dual-rate task forms' counterpart (GridRun::restore): one macro step of simulate's run
  // from tick i = k r, restarted from `kept` (what the generated tasks keep at release k);
  // returns the state at release k + 1. Throws SimulationError for any other scheme.
  std::function<Vector(long i, const Vector& kept)> macro_step(const RunOptions& options) const;
  // `trace` with a column per input appended, under its name: the signal at each row's time
  // (what the step starting there holds).
  Trace with_inputs(const Trace& trace) const;
  // Jacobian d(dx/dt)/dx at (t, x, u).
  Eigen::MatrixXd jacobian_at(double t, const Vector& x, const Vector& u) const;
  // Per state i, sum_j |df_i/dp_j p_j| at (t, x, u): how far a relative change of every
  // parameter by one unit can move the derivative of state i (to first order).
  Vector parameter_rates(double t, const Vector& x, const Vector& u) const;

 private:
  void fixed_step(const RunOptions& options, Trace& trace) const;
  // The run of a scheme tied to its grid (SchemeInfo::reference_run: the Adams schemes).
  void grid_run(const SchemeInfo& info, const RunOptions& options, Trace& trace) const;
  // The grid and right-hand sides of options' run (what a grid-tied scheme's run is built on).
  GridSetup grid_setup(const RunOptions& options) const;
  // From the initial state over n steps of size h: `advance(i, x)` moves x from grid index i
  // to the index it returns. The state is checked after each advance; a row is written at
  // t = 0, after each advance that reaches or passes a multiple of `every` steps, and at the end.
  // The last row's time is t_last (n h, or t_end after a shortened last step).
  void march(long n, double h, double t_last, int every, const std::function<long(long, Vector&)>& advance,
             Trace& trace) const;
  // derivatives in float arithmetic (Evaluator's float evaluation), for single_step_in_float.
  void float_derivatives(double t, const std::vector<float>& x, const Vector& u, std::vector<float>& dxdt) const;
  // The right-hand side with the inputs held at u (zero-order hold).
  RightHandSide holding(Vector u) const;
  // The inputs step i of size h holds: inputs_at(sample_time(i, h, in_float), in_float).
  Vector inputs_of_step(long i, double h, bool in_float) const;
  void high_accuracy(const RunOptions& options, Trace& trace) const;
  Vector row(double t, const Vector& x, const Vector& u) const;
  void check_state(double t, const Vector& x) const;
  // Values of all slots in T's arithmetic: t, states, inputs, parameters, then the variables
  // evaluated (their time terms at the double t).
  template <class T>
  std::vector<T> environment(double t, const std::vector<T>& x, const Vector& u) const;
  // The same with the variables left at zero.
  template <class T>
  std::vector<T> slot_values(double t, const std::vector<T>& x, const Vector& u) const;

  const Model& model_;
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> slots_;  // t, states, inputs, parameters, variables
  std::vector<Evaluator> rhs_, outputs_, variables_, signals_, scheduling_;
  std::vector<Evaluator> jacobian_;  // row-major, resolved entries
  std::vector<std::vector<Evaluator>> parameter_rates_;  // per state: the nonzero df_i/dp_j p_j
};

}  // namespace dualrate
