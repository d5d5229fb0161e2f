// The CSV trace format of the trace programs (trace.hpp: single-rate step functions,
// tasks.hpp: dual-rate tasks): header t,states...,outputs...; numbers with exact round-trip
// digits (%.9g float, %.17g double), or as hex floats (%a) with DUALRATE_TRACE_HEX, which is
// what the bit-for-bit checks compare. Built with -DDUALRATE_MODEL_HEADER="<name>.hpp"
// -DDUALRATE_MODEL_NS=<name>.
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

inline void print_header(std::FILE* out) {
  std::fprintf(out, "t");
  for (const char* name : model::Model::state_names) std::fprintf(out, ",%s", name);
  for (const char* name : model::Model::output_names) std::fprintf(out, ",%s", name);
  std::fprintf(out, "\n");
}

// One row: t, the state x and the outputs at (t, x, u).
inline void print_state_row(std::FILE* out, Scalar t, const model::Model::State& x, const model::Model::Input& u) {
  model::Model::Output y;
  model::Model::outputs(t, x, u, y);
  print_number(out, "", t);
  for (int i = 0; i < model::Model::kStates; ++i) print_number(out, ",", x[i]);
  for (int i = 0; i < model::Model::kOutputs; ++i) print_number(out, ",", y[i]);
  std::fprintf(out, "\n");
}

}  // namespace dualrate_trace
