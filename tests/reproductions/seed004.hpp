// Seed 004's comparison (Figs. 6-10), shared by the reproduction tests and the report
// program: the planar spacecraft integrated by the reference core's Adams schemes.
#pragma once

#include <stdexcept>
#include <string>

#include "reference_core/reference_core.hpp"
#include "base/trace.hpp"

namespace dualrate::seed004 {

// As in the paper: H = r h = 0.01 with h = 0.001; t_end as in the model file (10 s).
inline constexpr double kStep = 1e-3;
inline constexpr int kRatio = 10;

// `scheme` (abm4, mrabm4, mrabm4_parallel, reference) at fast step h with H = ratio h, a
// trace row every 10 fast steps (every macro step at ratio 10).
inline Trace run(const ReferenceCore& core, const std::string& scheme, double h, int ratio, double t_end) {
  RunOptions o{scheme, h, t_end, 10};
  o.ratio = ratio;
  return core.simulate(o);
}

// The index of the column named `name`.
inline std::size_t column(const Trace& t, const std::string& name) {
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name) return c;
  throw std::runtime_error("no column " + name);
}

}  // namespace dualrate::seed004
