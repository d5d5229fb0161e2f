// `dualrate design`: the partition (partition.hpp), then for every generated scheme that
// accepts the partitioned model the largest stable step (as `analyze`), the largest step
// (and ratio, dual-rate) whose error over the scenario is within the tolerance, and its cost;
// the candidates ranked by cost and the cheapest that meets the request chosen.
//
// Error: the reference core's run of the scheme against the high-accuracy solution at the
// same rows (at most kErrorRows of them, every k-th step), max over rows and states of
// |x - x_accurate| / max(1, max_t |x_accurate|), as `verify` normalizes.
//
// Step search, per scheme (and ratio): the steps tried are the R10 preferred numbers (1,
// 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 times a power of ten) from the largest stable step
// (at most t_end / kMinSteps; dual-rate schemes: from t_end / kMinSteps, the stability scan
// of their macro-step map being too costly to repeat per ratio) down to t_end / kMaxSteps, or with a task period P the steps P/k
// for whole k; a dual-rate scheme's only those whose steps make whole macro steps over
// t_end. From the largest, every step is tried until one is within the tolerance: the error
// need not fall with the step (an input that switches between grid points adds an error that
// comes and goes with the step: dc_motor's sp_ll meets 1e-3 at 2.5 ms and misses it at 0.8
// ms), so none is skipped. A search stops when the error plateaus (three or more errors at
// steps from h to 10 h, spanning a factor of 2.5, within 1.25 of each other: the scheme's
// own error, as quasistatic's reduction, is above the tolerance) or the scheme has no design
// at a step (smfe below its inner step). Past the first step within the tolerance, smaller
// ones are tried while their operations per simulated second are fewer (smfe's inner steps
// fall with its macro step), until two in a row save nothing.
// Ratios of the dual-rate schemes: kRatios, each searched, stopping after two that cost more
// than the cheapest so far.
//
// Holds: where the scenario's input signals vary in time, a scheme that takes held inputs
// (SchemeInfo::held_inputs) is a candidate with each hold of degree below its order (every input
// zero, linear or quadratic: rk4 all three, rk2 zero and linear, euler zero), any other with the
// zero hold.
//
// Cost: the scheme's arithmetic operations per step (SchemeInfo::cost; dual-rate: per macro
// step) per simulated second. With a target, each candidate's design is verified there once:
// instructions per step under QEMU, cycles per second at the part's CPI, its utilization at
// the clock, and verify's response-time verdict; the candidates rank by cycles instead.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "design/partition.hpp"
#include "model/model.hpp"
#include "verify/budget.hpp"

namespace dualrate {

constexpr long kMinSteps = 20;        // a step is at most t_end / kMinSteps
constexpr long kMaxSteps = 200000;    // and at least t_end / kMaxSteps
constexpr long kErrorRows = 1000;     // rows compared per run, at most
inline const std::vector<int> kRatios = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50};

struct DesignRequest {
  double tolerance = 0;
  std::string generator_version;  // of the headers verified on the target
  std::string target;          // empty: the host's operation counts only
  double cpu_hz = 0, cpi = 0;  // the part at the target (0: its default part)
  std::optional<double> period;  // the ECU task's period: steps P/k
  std::vector<std::string> schemes;  // the schemes to consider (empty: every scheme)
  // Every candidate searched to its cheapest step; false: without a target, steps that cost more
  // than a candidate already within the tolerance are not run (such a candidate is "dearer").
  bool exhaustive = false;
  std::vector<ParameterOverride> parameters;  // --param, as the model was loaded with
  // Told what runs ("sp_ll: step 0.0125") on the way; null: quiet.
  std::function<void(const std::string&)> progress;
};

// A tried step and its error (infinity: the run blew up).
struct Trial {
  double step = 0;
  int ratio = 1;
  double error = 0;
};

struct Candidate {
  std::string scheme;
  std::string linearization;  // of the schemes that take one: as designed (exact, frozen, scheduled)
  // Every input's hold as designed (zero, linear, quadratic; model/model.hpp InputHold) when the
  // scenario's inputs vary in time, empty otherwise: the schemes that take held inputs are
  // searched with each, the others with zero.
  std::string hold;
  bool dual_rate = false;
  double step = 0;  // the largest step within the tolerance (0: none)
  int ratio = 1;
  double error = -1;  // at that step (-1: none within the tolerance)
  double max_stable_step = 0;
  bool stable_bounded = true;
  long ops_per_step = 0;  // dual-rate: per macro step
  double ops_per_second = 0;
  // chosen, ok (meets the request, costs more), dearer (no step within the tolerance where it
  // costs less than a candidate that meets it: DesignRequest::exhaustive), refused (the model
  // does not suit it), inaccurate (no step within the tolerance), not schedulable (on the target).
  std::string status;
  std::string reason;
  std::vector<Trial> trials;  // in the order run
  // With a target:
  double instructions_per_step = -1;  // dual-rate: per macro step (ratio ticks and a job)
  double cycles_per_second = -1;
  std::optional<Budget> budget;
  int bit_exact = -1;         // the target's trace equals the host build's
  std::string target_error;   // why it could not be measured there

  bool meets() const { return status == "chosen" || status == "ok"; }
  double cost() const { return cycles_per_second >= 0 ? cycles_per_second : ops_per_second; }
};

struct Design {
  std::string model;
  double tolerance = 0;
  double t_end = 0;
  double accurate_error = 0;  // the high-accuracy solution's own error, estimated
  std::string target;
  std::optional<double> period;
  std::vector<std::string> schemes;  // those asked for (--schemes; empty: every scheme)
  PartitionProposal partition;
  bool partitioned = false;    // the candidates run on a partition (proposed or declared)
  std::vector<std::string> fast;  // its fast states
  std::string states_block;       // the proposed states: block, when it is not the file's
  std::vector<Candidate> candidates;  // ranked: those meeting the request by cost, then the rest by error
  int choice = -1;                    // index into candidates, -1: none meets the request

  std::string text() const;
  std::string json() const;
};

// The steps a search tries for a scheme whose largest stable step is `max_stable_step`
// (`bounded` false: none found), largest first; `stride` > 1 keeps those that make whole
// macro steps of stride steps over t_end.
std::vector<double> design_steps(const DesignRequest& r, double t_end, double max_stable_step, bool bounded,
                                 int stride);

// The design of `model`, loaded from `text`. Throws SimulationError when the scenario blows up,
// std::invalid_argument for a tolerance the high-accuracy solution cannot resolve.
Design design(const Model& model, const std::string& text, const DesignRequest& request);

// The candidate's scheme, step, ratio, linearization and hold written into `text` (the file of
// `model`), with the design's partition.
std::string designed_text(const Design& d, const Candidate& c, const Model& model, const std::string& text);

}  // namespace dualrate
