// What `dualrate design` is asked (DesignRequest) and what it finds per scheme (Candidate): the
// types its step search (step_search.hpp) and its ranking (design.hpp) share.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "verify/budget.hpp"

namespace dualrate {

constexpr long kMinSteps = 20;      // a step is at most t_end / kMinSteps
constexpr long kMaxSteps = 200000;  // and at least t_end / kMaxSteps
constexpr long kErrorRows = 1000;   // rows compared per run in the search, at most
inline const std::vector<int> kRatios = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50};

struct DesignRequest {
  // What a candidate's states and outputs must be within: relative to max(1, max_t |x_accurate|)
  // or in their own unit (verify/trace_comparison.hpp column_tolerances); the states and outputs
  // it names none for are not judged.
  ErrorTolerance tolerance;
  std::string generator_version;     // of the headers verified on the target
  std::string target;                // empty: the host's operation counts only
  double cpu_hz = 0, cpi = 0;        // the part at the target (0: its default part)
  std::optional<double> period;      // the ECU task's period: steps P/k
  std::vector<std::string> schemes;  // the schemes to consider (empty: every scheme)
  // Every candidate searched to its cheapest step; false: without a target, steps that cost more
  // than a candidate already within the tolerance are not run (such a candidate is "dearer").
  bool exhaustive = false;
  std::vector<ParameterOverride> parameters;  // --param, as the model was loaded with
  // Told what runs ("sp_ll: step 0.0125") on the way; null: quiet.
  std::function<void(const std::string&)> progress;
};

// A tried step and its error (infinity: the run blew up). A step within the tolerance at the
// search's samples is checked at every step (dual-rate: every macro step, then every fast tick,
// the tasks' state and outputs between releases) on the states and the
// outputs, and its error is that check's, where it occurs: at `time` in `where` (a state's or an
// output's name; empty: not checked at every step).
struct Trial {
  double step = 0;
  int ratio = 1;
  // The worst state's or output's error in its measure (relative, or absolute where its tolerance
  // is), the one with the largest share of its tolerance; NaN: no design at this step.
  double error = 0;
  double share = 0;  // error / its tolerance: within at most 1
  double time = 0;
  std::string where;
  bool absolute = false;  // where's tolerance is absolute
};

// Where a candidate stands, in the order design ranks them: chosen, ok (meets the request, costs
// more), dearer (no step within the tolerance where it costs less than a candidate that meets
// it: DesignRequest::exhaustive), not schedulable and failed on target (meets it on the host,
// not on the target), inaccurate (no step within the tolerance), refused (the model does not
// suit it). Text only in the report and the JSON (to_string).
enum class CandidateStatus { kChosen, kOk, kDearer, kNotSchedulable, kFailedOnTarget, kInaccurate, kRefused };
constexpr const char* to_string(CandidateStatus s) {
  switch (s) {
    case CandidateStatus::kChosen:
      return "chosen";
    case CandidateStatus::kOk:
      return "ok";
    case CandidateStatus::kDearer:
      return "dearer";
    case CandidateStatus::kNotSchedulable:
      return "not schedulable";
    case CandidateStatus::kFailedOnTarget:
      return "failed on target";
    case CandidateStatus::kInaccurate:
      return "inaccurate";
    case CandidateStatus::kRefused:
      return "refused";
  }
  return "";
}

struct Candidate {
  std::string scheme;
  std::optional<Linearization> linearization;  // of the schemes that take one: as designed
  // Every input's hold as designed (zero, linear, quadratic; model/model.hpp InputHold) when the
  // scenario's inputs vary in time, empty otherwise: the schemes that take held inputs are
  // searched with each, the others with zero.
  std::string hold;
  bool dual_rate = false;
  double step = 0;  // the largest step within the tolerance (0: none)
  int ratio = 1;
  double error = -1;            // at that step (-1: none within the tolerance), checked at every step
  double error_share = -1;      // of its tolerance
  double error_time = 0;        // where it occurs: the time
  std::string error_where;      // and the state or output
  bool error_absolute = false;  // in error_where's unit (an absolute tolerance)
  // The chosen single-rate candidate's error where the inputs vary: the inputs' hold's part
  // (the high-accuracy solution with the inputs held as its steps hold them, against the
  // continuous one) and the integration's (its run against that solution); -1: not split.
  double hold_error = -1, integration_error = -1;
  double max_stable_step = 0;
  bool stable_bounded = true;
  long ops_per_step = 0;  // dual-rate: per macro step
  double ops_per_second = 0;
  CandidateStatus status = CandidateStatus::kRefused;
  std::string reason;
  std::vector<Trial> trials;  // in the order run
  // With a target:
  double instructions_per_step = -1;  // dual-rate: per macro step (ratio ticks and a job)
  double cycles_per_second = -1;
  std::optional<Budget> budget;
  int bit_exact = -1;        // the target's trace equals the host build's
  std::string target_error;  // why it could not be measured there

  bool meets() const { return status == CandidateStatus::kChosen || status == CandidateStatus::kOk; }
  double cost() const { return cycles_per_second >= 0 ? cycles_per_second : ops_per_second; }
};

}  // namespace dualrate
