// The slow/fast partition `dualrate design` proposes: from the Jacobian at samples of the
// scenario's high-accuracy trajectory, the split of the modes at the largest gap in |lambda|
// that holds all along it, and each state's participation in the modes above the split.
//
// At a sample, J = R diag(lambda) L with the right eigenvectors R (columns, each of unit
// length) and the left ones L = R^-1 (rows, so l_k r_k = 1). State i's participation in mode
// k is p_ik = |l_ki r_ik| (Perez-Arriaga, Verghese and Schweppe's participation factors; for
// each i, sum_k l_ki r_ik = 1). Its fast share at the sample is sum_{k fast} p_ik / sum_k p_ik;
// the proposal's share is the mean over the samples. The modes sorted by |lambda| split after
// the s slowest; the gap at a sample is |lambda_{s+1}| / max(|lambda_s|, 1 / t_end) (a mode
// slower than the scenario is as slow as one that does not move), and s is the split whose
// smallest gap over the samples is largest. The fast states are the n - s with the largest
// shares (as many as fast modes); a partition needs that gap to be at least kMinGap.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

constexpr double kMinGap = 10;
constexpr std::size_t kPartitionSamples = 41;  // t_end / 40 apart, both ends included

struct StateShare {
  std::string name;
  double share = 0;  // mean over the samples of its participation in the fast modes
  double share_min = 0, share_max = 0;
  bool fast = false;           // proposed
  bool declared_fast = false;  // as the model file has it
};

// Another split whose gap holds too: its fast states (as many as its fast modes, the largest shares).
struct AlternativeSplit {
  std::size_t fast_modes = 0;
  double gap = 0;
  std::vector<std::string> fast;
};

struct PartitionProposal {
  std::size_t samples = 0;
  std::size_t fast_modes = 0;  // n - s
  double gap = 0;              // the smallest gap over the samples at the chosen split
  double gap_time = 0;         // the sample where it is smallest
  double slowest_fast = 0;     // |lambda| of the slowest fast and the fastest slow mode there
  double fastest_slow = 0;
  bool found = false;                   // gap >= kMinGap
  std::vector<StateShare> states;       // in the model's state order
  std::vector<std::string> slow, fast;  // the proposal, in the model's state order
  // The other splits whose gap is at least kMinGap all along, largest gap first (a model of
  // three time scales has two).
  std::vector<AlternativeSplit> alternatives;
  // Declared (Model::partitioned): whether its fast states are the proposed ones.
  bool declared = false;
  bool agrees = false;
  std::string note;  // why there is no partition, or what is unclear about it

  std::string text() const;
  std::string json() const;  // an object
};

// Throws SimulationError when the scenario cannot be integrated (it blows up).
PartitionProposal propose_partition(const Model& model, double t_end, std::size_t samples = kPartitionSamples);

}  // namespace dualrate
