// The reference core: an independent host implementation that integrates a model straight
// from its parsed description, in double, with no generated code involved. It is the oracle
// that generated code is verified against, so it is kept plain:
//  - the model is evaluated as the model file states it (reference/reference_model.hpp);
//  - the fixed-step schemes are textbook transcriptions (each scheme's reference hook, found
//    in the registry); inputs are sampled at the start of each step and held over it
//    (zero-order hold), exactly as a periodic ECU task does; the paper-form Adams schemes
//    (schemes/adams/adams.hpp) evaluate only at grid times, with the inputs sampled there; the
//    dual-rate task forms hold the inputs of the task's release;
//  - kHighAccuracy is Boost.Odeint's controlled runge_kutta_dopri5 at tight tolerances
//    with the input signals evaluated continuously in time: the high-accuracy solution.
// It sits above the registry; the schemes themselves build on reference/ only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "reference/reference_model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// One step of the single-step scheme `scheme` (its registry entry's reference step, prepared
// without a model: the textbook schemes) from (t, x) with step h. Throws SimulationError for a
// name the registry lacks or a scheme without such a step.
std::vector<double> scheme_step(const std::string& scheme, const RightHandSide& f, double t, double h,
                                const std::vector<double>& x);

class ReferenceCore;
// The reference cores of a run with calibration writes (RunOptions::calibration).
using ReferenceCores = CalibratedCores<ReferenceCore>;

class ReferenceCore : public ReferenceModel {
 public:
  using ReferenceModel::ReferenceModel;

  // The run of options.scheme (a scheme of the registry, or kHighAccuracy).
  Trace simulate(const RunOptions& options) const;
  // Step i of simulate's run of the single-step scheme options.scheme (inputs held as that run
  // holds them, the same linearization or schedule), taken from the state x given instead of
  // the run's own (verify's local check: from the generated code's state). Prepared once; the
  // function returned takes one step per call. Throws SimulationError for a scheme tied to its
  // grid (the multistep and dual-rate ones).
  std::function<Vector(long i, const Vector& x)> single_step(const RunOptions& options) const;
  // single_step's step i with its length h' in place of options.step, at the same time and
  // with the same inputs: a step's sensitivity to its length, by differences (verify's float
  // tolerance of schemes whose constants scale the step, VerifyPolicy::step_scaled_constants).
  std::function<Vector(long i, const Vector& x, double h)> single_step_of_length(const RunOptions& options) const;
  // Why generated code's step may round otherwise than the reference core's in the same
  // arithmetic (single_step or macro_step in double, single_step_in_float or
  // macro_step_in_float in float): the scheme's reference step (or macro step) is not written
  // in the runtime's order of operations; the model's mass matrix depends on the coordinates,
  // which the generated code factorizes (in double); the scheme's float_reference_gap; in
  // double, constants recomputed after a calibration write (the runtime's exponential), or
  // precomputed matrices or a schedule of a scheme without double_reference (the reference's
  // own agree only to rounding). Empty when both compute the same operations on the same values
  // (verify's exact step check).
  std::string exact_step_difference(const RunOptions& options) const;
  // single_step of a float build's run in float arithmetic, operation for operation as the
  // generated code computes it (SchemeHooks::float_reference, Evaluator's float evaluation; the
  // state, parameters and held inputs in float, the inputs sampled at float times as
  // RunOptions::float_time has them; precomputed matrices the generator's design confirmed by
  // the reference's own, ir/float_constants.hpp; after a calibration write, the design at the
  // written values, as the target recomputes it in double and stores it in float); returns the
  // float result, exactly converted. Throws SimulationError when exact_step_difference is not
  // empty.
  std::function<Vector(long i, const Vector& x)> single_step_in_float(const RunOptions& options) const;
  // The step the exact step check compares with, in the build's arithmetic: single_step_in_float
  // (options.float_time), else single_step, or for a design with matrices or a schedule the
  // scheme's double_reference (its confirmed constants applied as the generated code applies
  // them, as single_step_in_float does in float). Throws SimulationError when
  // exact_step_difference is not empty.
  std::function<Vector(long i, const Vector& x)> exact_single_step(const RunOptions& options) const;
  // The dual-rate task forms' counterpart (GridRun::restore): one macro step of simulate's run
  // from tick i = k r, restarted from `kept` (what the generated tasks keep at release k);
  // returns the state at release k + 1. Throws SimulationError for any other scheme.
  std::function<Vector(long i, const Vector& kept)> macro_step(const RunOptions& options) const;
  // macro_step of a float build's run in float arithmetic, operation for operation as the
  // generated tasks compute it (SchemeHooks::float_reference_run; the model evaluated in float as
  // single_step_in_float evaluates it). Throws SimulationError when exact_step_difference is
  // not empty.
  std::function<Vector(long i, const Vector& kept)> macro_step_in_float(const RunOptions& options) const;
  // The dual-rate task forms' state before every `every`-th fast tick n of the run (n below its
  // last), and the outputs there at the tick's sample (dualrate::DualRate::state(), outputs()):
  // rows t_n, states, outputs, in the build's arithmetic (float: SchemeHooks::float_reference_run
  // and float_outputs, as macro_step_in_float). Throws SimulationError for any other scheme.
  Trace tick_trace(const RunOptions& options, int every) const;

 private:
  // single_step in T with the scheme's transcription `reference` (float_reference,
  // double_reference) on the generator's design.
  template <class T>
  std::function<Vector(long i, const Vector& x)> single_step_in(const RunOptions& options,
                                                                StepIn<T> (*reference)(const ReferenceSetup&,
                                                                                       double)) const;
  void fixed_step(const RunOptions& options, Trace& trace) const;
  // The run of a scheme tied to its grid (SchemeHooks::reference_run: the Adams schemes).
  void grid_run(const SchemeInfo& info, const RunOptions& options, Trace& trace) const;
  // The grid and right-hand sides of options' run (what a grid-tied scheme's run is built on),
  // evaluated on the core `*active` points to when it is called (this one without `active`);
  // with `cores`, GridSetup::held on the core in effect at its input tick.
  template <class T = double>
  GridSetupIn<T> grid_setup(const RunOptions& options, std::shared_ptr<const ReferenceCore*> active = nullptr,
                            std::shared_ptr<const ReferenceCores> cores = nullptr) const;
  // macro_step of `reference_run` (the scheme's, in T), restarted from kept values.
  template <class T>
  std::function<Vector(long i, const Vector& kept)> macro_step_in(
      const RunOptions& options, GridRunIn<T> (*reference_run)(const GridSetupIn<T>&)) const;
  template <class T>
  Trace tick_trace_in(const RunOptions& options, GridRunIn<T> (*reference_run)(const GridSetupIn<T>&), int every) const;
};

}  // namespace dualrate
