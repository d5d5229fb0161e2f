// `dualrate design`: the partition (partition.hpp), then for every generated scheme that
// accepts the partitioned model the largest stable step (as `analyze`), the largest step
// (and ratio, dual-rate) whose error over the scenario is within the tolerance, and its cost;
// the candidates ranked by cost and the cheapest that meets the request chosen.
//
// Error: the reference core's run of the scheme against the high-accuracy solution at the
// same rows (at most kErrorRows of them, every k-th step), max over rows of each state's and
// output's |x - x_accurate| / max(1, max_t |x_accurate|), as `verify` normalizes, or
// |x - x_accurate| in its own unit where the request gives it an absolute tolerance; a candidate
// is within the tolerance when each is within its own (verify/trace_comparison.hpp).
//
// Step search, per scheme (and ratio): the steps tried are the R10 preferred numbers (1,
// 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 times a power of ten) from the largest stable step
// (at most t_end / kMinSteps; dual-rate schemes: from t_end / kMinSteps, the stability scan
// of their macro-step map being too costly to repeat per ratio) down to t_end / kMaxSteps, or with a task period P the
// steps P/k for whole k; a dual-rate scheme's only those whose steps make whole macro steps over t_end. From the
// largest, every step is tried until one is within the tolerance: the error need not fall with the step (an input that
// switches between grid points adds an error that comes and goes with the step: docs/commands.md), so none is skipped
// for its error; without a target (DesignRequest::exhaustive false) a step whose cost is above a candidate's already
// within the tolerance is not run (branch and bound: the same choice, at a fraction of the runs). A search stops when
// the error plateaus (three or more errors at steps from h to 10 h, spanning a factor of 2.5, within 1.25 of each
// other: the scheme's own error, as quasistatic's reduction, is above the tolerance) or the scheme has no design at a
// step (smfe below its inner step). Past the first step within the tolerance, smaller ones are tried while their
// operations per simulated second are fewer (smfe's inner steps fall with its macro step), until two in a row save
// nothing. Ratios of the dual-rate schemes: kRatios, each searched, stopping after two that cost more than the cheapest
// so far.
//
// Holds: where the scenario's input signals vary in time, a scheme that takes held inputs
// (SchemeTraits::held_inputs) is a candidate with each hold up to its SchemeTraits::hold_degree
// (every input zero, linear or quadratic: rk4, sp_ll and quasistatic all three, rk2 and prk25
// zero and linear, euler and smfe zero), the higher first, any other with the zero hold.
//
// Cost: the scheme's arithmetic operations per step (SchemeHooks::cost; dual-rate: per macro
// step) per simulated second. With a target, each candidate's design is verified there once:
// instructions per step under QEMU, cycles per second at the part's CPI, its utilization at
// the clock, and verify's response-time verdict; the candidates rank by cycles instead.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "design/candidate.hpp"
#include "design/partition.hpp"
#include "model/model.hpp"

namespace dualrate {

struct Design {
  std::string model;
  ErrorTolerance tolerance;
  double t_end = 0;
  double accurate_error = 0;                 // the high-accuracy solution's own error, estimated
  bool inputs_sampled_before_start = false;  // simulation: inputs_before_start: sampled
  std::string target;
  std::optional<double> period;
  std::vector<std::string> schemes;  // those asked for (--schemes; empty: every scheme)
  PartitionProposal partition;
  bool partitioned = false;           // the candidates run on a partition (proposed or declared)
  std::vector<std::string> fast;      // its fast states
  std::string states_block;           // the proposed states: block, when it is not the file's
  std::vector<Candidate> candidates;  // ranked: those meeting the request by cost, then the rest by error
  int choice = -1;                    // index into candidates, -1: none meets the request

  std::string text() const;
  std::string json() const;
};

// The design of `model`, loaded from `text`. Throws SimulationError when the scenario blows up,
// std::invalid_argument for a tolerance the high-accuracy solution cannot resolve.
Design design(const Model& model, const std::string& text, const DesignRequest& request);

// The candidate's scheme, step, ratio, linearization and hold written into `text` (the file of
// `model`), with the design's partition.
std::string designed_text(const Design& d, const Candidate& c, const Model& model, const std::string& text);

}  // namespace dualrate
