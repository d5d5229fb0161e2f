// The CSV trace format of the trace programs (trace.hpp: single-rate step functions,
// tasks.hpp: dual-rate tasks): header t,states...,outputs...; numbers with exact round-trip
// digits (%.9g float, %.17g double), or as hex floats (%a) with DUALRATE_TRACE_HEX, which is
// what the bit-for-bit checks compare. Programs for one model are built with
// -DDUALRATE_MODEL_HEADER="<name>.hpp" -DDUALRATE_MODEL_NS=<name>; the system program
// (several models) uses the templates only.
#pragma once

#ifdef DUALRATE_MODEL_HEADER
#include DUALRATE_MODEL_HEADER
#endif

#include <cstdio>

#include <dualrate/compensated_sum.hpp>

namespace dualrate_trace {

template <class Scalar>
void print_number(std::FILE* out, const char* separator, Scalar v) {
#ifdef DUALRATE_TRACE_HEX
  std::fprintf(out, "%s%a", separator, static_cast<double>(v));
#else
  std::fprintf(out, "%s%.*g", separator, sizeof(Scalar) == sizeof(float) ? 9 : 17, static_cast<double>(v));
#endif
}

// The compensated states' columns (dualrate/compensated_sum.hpp), PREFIX<state> each.
template <class M>
void print_carry_header(std::FILE* out, const char* prefix) {
  if constexpr (dualrate::CompensatesStates<M>::value)
    for (int i = 0; i < M::kStates; ++i)
      if (M::compensated_states[static_cast<std::size_t>(i)]) std::fprintf(out, ",%s%s", prefix, M::state_names[i]);
}
template <class M>
void print_carries(std::FILE* out, const typename M::State& carry) {
  if constexpr (dualrate::CompensatesStates<M>::value)
    for (int i = 0; i < M::kStates; ++i)
      if (M::compensated_states[static_cast<std::size_t>(i)]) print_number(out, ",", carry[i]);
}

// The header line of model type M (a generated Model); with `next`, a column next:<state> per
// state after the outputs (the state one step later: verify's local check), then `kept`
// columns kept:0 ... (what dual-rate tasks keep between macro steps: tasks.hpp), then with
// `carries`, carry:<state> and (with `next`) next_carry:<state> for each compensated state.
template <class M>
void print_model_header(std::FILE* out, bool next = false, int kept = 0, bool carries = false) {
  std::fprintf(out, "t");
  for (const char* name : M::state_names) std::fprintf(out, ",%s", name);
  for (const char* name : M::output_names) std::fprintf(out, ",%s", name);
  if (next)
    for (const char* name : M::state_names) std::fprintf(out, ",next:%s", name);
  for (int i = 0; i < kept; ++i) std::fprintf(out, ",kept:%d", i);
  if (carries) print_carry_header<M>(out, "carry:");
  if (carries && next) print_carry_header<M>(out, "next_carry:");
  std::fprintf(out, "\n");
}

// One row: t, the state x and the outputs at (t, x, u), then the state `next` and the
// `kept_count` values `kept` when given, then the compensated states' carries `carry` and
// `next_carry` when given.
template <class M>
void print_model_row(std::FILE* out, typename M::Time t, const typename M::State& x, const typename M::Input& u,
                     const typename M::State* next = nullptr, const typename M::Scalar* kept = nullptr,
                     int kept_count = 0, const typename M::State* carry = nullptr,
                     const typename M::State* next_carry = nullptr) {
  typename M::Output y;
  M::outputs(t, x, u, y);
  print_number(out, "", t);
  for (int i = 0; i < M::kStates; ++i) print_number(out, ",", x[i]);
  for (int i = 0; i < M::kOutputs; ++i) print_number(out, ",", y[i]);
  if (next)
    for (int i = 0; i < M::kStates; ++i) print_number(out, ",", (*next)[i]);
  for (int i = 0; i < kept_count; ++i) print_number(out, ",", kept[i]);
  if (carry) print_carries<M>(out, *carry);
  if (next_carry) print_carries<M>(out, *next_carry);
  std::fprintf(out, "\n");
}

#ifdef DUALRATE_MODEL_NS
// Programs built for one model (-DDUALRATE_MODEL_NS=<name>).
namespace model = DUALRATE_MODEL_NS;
using Scalar = model::Model::Scalar;

inline void print_header(std::FILE* out, bool next = false, bool carries = false) {
  print_model_header<model::Model>(out, next, 0, carries);
}

inline void print_state_row(std::FILE* out, model::Model::Time t, const model::Model::State& x,
                            const model::Model::Input& u, const model::Model::State* next = nullptr,
                            const model::Model::State* carry = nullptr,
                            const model::Model::State* next_carry = nullptr) {
  print_model_row<model::Model>(out, t, x, u, next, nullptr, 0, carry, next_carry);
}
#endif

}  // namespace dualrate_trace
