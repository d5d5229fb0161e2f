// The trace loop shared by the host and the Cortex-M trace programs: runs a generated
// model's step function from its initial state with the inputs of the model file's scenario
// and prints a CSV trace (header t,states...,outputs...; one row every EVERY steps and after
// the last). Built with -DDUALRATE_MODEL_HEADER="<name>.hpp" -DDUALRATE_MODEL_NS=<name>.
// Numbers print with exact round-trip digits (%.9g float, %.17g double), or as hex floats
// (%a) with DUALRATE_TRACE_HEX, which is what the host-vs-target bit-for-bit check compares.
// With EIGEN_RUNTIME_NO_MALLOC defined, every step runs with Eigen's heap use forbidden.
#pragma once

#include DUALRATE_MODEL_HEADER

#include <cstdio>

namespace dualrate_trace {

namespace model = DUALRATE_MODEL_NS;
using Scalar = model::Model::Scalar;

inline void print_number(std::FILE* out, const char* separator, Scalar v) {
#ifdef DUALRATE_TRACE_HEX
  std::fprintf(out, "%s%a", separator, static_cast<double>(v));
#else
  std::fprintf(out, "%s%.*g", separator, sizeof(Scalar) == sizeof(float) ? 9 : 17, static_cast<double>(v));
#endif
}

inline void print_row(std::FILE* out, const model::Data& d) {
  const Scalar t = d.time(model::kStep);
  const model::Model::Input u = model::Model::scenario_inputs(t);
  model::Model::Output y;
  model::Model::outputs(t, d.x, u, y);
  print_number(out, "", t);
  for (int i = 0; i < model::Model::kStates; ++i) print_number(out, ",", d.x[i]);
  for (int i = 0; i < model::Model::kOutputs; ++i) print_number(out, ",", y[i]);
  std::fprintf(out, "\n");
}

// One step, kept out of line so that a probe can measure exactly this call.
[[gnu::noinline]] inline dualrate::Status step_once(model::Data& d, const model::Model::Input& u) {
  return model::step(d, u);
}

// Runs `steps` steps; `measure(d, u)` performs each one (calling step_once) and returns its
// status. Returns 0, or 3 with a message on stderr when a step reports a fault.
template <class Measure>
int run(std::FILE* out, long steps, long every, Measure&& measure) {
  std::fprintf(out, "t");
  for (const char* name : model::Model::state_names) std::fprintf(out, ",%s", name);
  for (const char* name : model::Model::output_names) std::fprintf(out, ",%s", name);
  std::fprintf(out, "\n");
  model::Data d;
  print_row(out, d);
  for (long i = 0; i < steps; ++i) {
    const model::Model::Input u = model::Model::scenario_inputs(d.time(model::kStep));
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(false);
#endif
    const dualrate::Status status = measure(d, u);
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(true);
#endif
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "step %ld at t = %.17g: %s\n", i, static_cast<double>(d.time(model::kStep)),
                   dualrate::to_string(status));
      return 3;
    }
    if ((i + 1) % every == 0 || i + 1 == steps) print_row(out, d);
  }
  return 0;
}

}  // namespace dualrate_trace
