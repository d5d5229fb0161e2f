// The trace loop shared by the host and the Cortex-M trace programs: runs a generated
// model's step function from its initial state with the inputs of the model file's scenario
// and prints a CSV trace (trace_format.hpp; one row every EVERY steps and after the last).
// Each row also holds the state one step later (columns next:<state>) and the carries of a
// model's compensated states at both, for verify's local check: a row is printed once that step is taken, and after the
// last row one more step is taken for it (not measured). With EIGEN_RUNTIME_NO_MALLOC defined, every step runs with
// Eigen's heap use forbidden.
#pragma once

#include "trace_format.hpp"
#include "samples_before_start.hpp"
#include "trace_calibration.hpp"

namespace dualrate_trace {

// The row of `d`, with the state `next` one step later (and both carries, dualrate/compensated_sum.hpp).
template <class Data>
void print_row(std::FILE* out, const Data& d, const Data& next) {
  const model::Model::Time t = d.time(model::kStep);
  if constexpr (dualrate::CompensatesStates<model::Model>::value) {
    print_state_row(out, t, d.x, model::Model::scenario_inputs(t), &next.x, &d.carry, &next.carry);
  } else {
    print_state_row(out, t, d.x, model::Model::scenario_inputs(t), &next.x);
  }
}

// One step, kept out of line so that a probe can measure exactly this call.
[[gnu::noinline]] inline dualrate::Status step_once(model::Data& d, const model::Model::Input& u) {
  return model::step(d, u);
}

// The model's data objects, where a calibration tool's A2L file finds them (dualrate a2l):
// the state (data.x), the inputs of the step being taken and the outputs at its start.
inline model::Data data;
inline model::Model::Input inputs = model::Model::default_inputs();
inline model::Model::Output outputs;

// Runs `steps` steps; `measure(d, u)` performs each one (calling step_once) and returns its
// status. Returns 0, or 3 with a message on stderr when a step reports a fault.
template <class Measure>
int run(std::FILE* out, long steps, long every, Measure&& measure) {
  print_header(out, true, true);
  model::Data& d = data;
  take_samples_before_start<model::Model>(d, model::kStep);
  model::Data row = d;  // the row waiting for its next state, that of step row_step
  long row_step = 0;
  for (long i = 0; i <= steps; ++i) {
#ifdef DUALRATE_TRACE_CALIBRATION
    calibration_writer.before_step(i, stdout, measure);
#endif
    const model::Model::Input u = model::Model::scenario_inputs(d.time(model::kStep));
    inputs = u;
    model::Model::outputs(d.time(model::kStep), d.x, u, outputs);
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(false);
#endif
    const dualrate::Status status = i < steps ? measure(d, u) : step_once(d, u);
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(true);
#endif
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "step %ld at t = %.17g: %s\n", i, static_cast<double>(d.time(model::kStep)),
                   dualrate::to_string(status));
      return 3;
    }
    if (i == row_step) print_row(out, row, d);
    if ((i + 1) % every == 0 || i + 1 == steps) {
      row = d;
      row_step = i + 1;
    }
  }
  return 0;
}

}  // namespace dualrate_trace
