// design's search of one scheme (design.hpp says how): the high-accuracy solution at a run's
// rows, and a scheme's candidate, the cheapest step within the tolerance of each of its ratios,
// searched at the steps that cost less than a bound.
#pragma once

#include <limits>
#include <map>
#include <string>
#include <utility>

#include "design/candidate.hpp"
#include "reference/dense_solution.hpp"
#include "schemes/contract.hpp"
#include "reference_core/reference_core.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate {

// The error of a run that blew up, and scheme_candidate's bound before a candidate is within the
// tolerance.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// The high-accuracy solution at the rows of a run with step h, a row every `every` steps: one
// dense solution of the scenario (reference/dense_solution.hpp, Odeint tolerance 1e-12, steps
// of at most t_end / 1000), read on each grid.
class Accurate {
 public:
  Accurate(const ReferenceCore& core, double t_end) : t_end_(t_end), solution_(core, 1e-12, t_end / 1000) {}
  const Trace& at(double h, int every) {
    const auto key = std::make_pair(h, every);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, solution_.rows_on_grid(h, step_count(t_end_, h), every)).first;
    return it->second;
  }
  double grid_end(double h) const { return static_cast<double>(step_count(t_end_, h)) * h; }

 private:
  double t_end_;
  DenseSolution solution_;
  std::map<std::pair<double, int>, Trace> cache_;
};

// The steps a search tries for a scheme whose largest stable step is `max_stable_step`
// (`bounded` false: none found), largest first; `stride` > 1 keeps those that make whole
// macro steps of stride steps over t_end.
std::vector<double> design_steps(const DesignRequest& r, double t_end, double max_stable_step, bool bounded,
                                 int stride);

// The error of a single-rate candidate that meets the request, on a model whose inputs vary
// (its holds as m says), split into Candidate::hold_error and integration_error, each measured
// as `tolerance` measures its worst state or output; otherwise none.
void split_error(const Model& m, const SchemeInfo& info, double t_end, Accurate& accurate,
                 const ErrorTolerance& tolerance, Candidate& c);

// The candidate of one scheme below `bound` (operations per second of a candidate within the
// tolerance; infinity: none): single-rate, its step search; dual-rate, the cheapest of its ratios.
// A scheme with no step within the tolerance that costs less is "dearer".
Candidate scheme_candidate(const Model& m, const SchemeInfo& info, std::optional<Linearization> lin, double t_end,
                           Accurate& accurate, const DesignRequest& r, double bound);

}  // namespace dualrate
