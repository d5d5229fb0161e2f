#include "design/partition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "base/text_io.hpp"
#include "numeric/decompositions.hpp"
#include "reference_core/reference_core.hpp"

namespace dualrate {

namespace {

// One sample: |lambda| ascending and each state's participation in each mode of that order.
struct Modes {
  double t = 0;
  std::vector<double> magnitude;
  Eigen::MatrixXd participation;  // n x n: state i (row), mode k (column), rows summing to 1
};

Modes modes_at(double t, const Eigen::MatrixXd& j) {
  const Eigen::Index n = j.rows();
  const EigenPairs es = eigen_pairs(j);
  const Eigen::MatrixXcd& right = es.vectors;
  const Eigen::MatrixXcd left = full_pivot_inverse(right);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const Eigen::VectorXcd& lambda = es.values;
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return std::abs(lambda(a)) < std::abs(lambda(b)); });
  Modes m;
  m.t = t;
  m.participation.resize(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index mode = order[static_cast<std::size_t>(k)];
    m.magnitude.push_back(std::abs(lambda(mode)));
    for (Eigen::Index i = 0; i < n; ++i) m.participation(i, k) = std::abs(left(mode, i) * right(i, mode));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sum = m.participation.row(i).sum();
    if (sum > 0 && std::isfinite(sum)) m.participation.row(i) /= sum;
  }
  return m;
}

double gap_at(const Modes& m, std::size_t s, double floor) {
  return m.magnitude[s] / std::max(m.magnitude[s - 1], floor);
}

// Each state's share in the `fast_modes` fastest modes: mean, smallest and largest over the samples.
std::vector<StateShare> fast_shares(const Model& model, const std::vector<Modes>& along, std::size_t fast_modes) {
  std::vector<StateShare> shares;
  for (std::size_t i = 0; i < model.states.size(); ++i) {
    StateShare s{model.states[i].name, 0, std::numeric_limits<double>::infinity(), 0, false, false};
    for (const Modes& m : along) {
      const double share =
          m.participation.row(static_cast<Eigen::Index>(i)).tail(static_cast<Eigen::Index>(fast_modes)).sum();
      s.share += share / static_cast<double>(along.size());
      s.share_min = std::min(s.share_min, share);
      s.share_max = std::max(s.share_max, share);
    }
    shares.push_back(s);
  }
  return shares;
}

std::vector<std::size_t> largest_first(const std::vector<StateShare>& shares) {
  std::vector<std::size_t> order(shares.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return shares[a].share > shares[b].share; });
  return order;
}

}  // namespace

PartitionProposal propose_partition(const Model& model, double t_end, std::size_t samples) {
  const ReferenceCore core(model);
  // Output steps of a tenth of the samples' spacing: the integrator's first trial step is
  // the output step, and a stiff model's first trial over a long one can overflow.
  RunOptions run{kHighAccuracy, t_end / static_cast<double>(10 * (samples - 1)), t_end, 10};
  run.reference_tolerance = 1e-10;
  const Trace trace = core.simulate(run);
  const std::size_t n = model.states.size();
  std::vector<Modes> along;
  for (const auto& row : trace.rows) {
    const std::vector<double> x(row.begin() + 1, row.begin() + 1 + static_cast<long>(n));
    along.push_back(modes_at(row[0], core.jacobian_at(row[0], x, core.inputs_at(row[0]))));
  }
  PartitionProposal p;
  p.samples = along.size();
  p.declared = model.partitioned && model.fast_count() > 0;
  for (const State& x : model.states) p.states.push_back({x.name, 0, 0, 0, false, x.fast});
  if (n < 2) {
    p.note = "one state: nothing to partition";
    return p;
  }
  const double floor = 1 / t_end;
  std::vector<double> gaps(n, 0);  // per split s: the smallest gap over the samples
  std::size_t split = 0;
  for (std::size_t s = 1; s < n; ++s) {
    gaps[s] = std::numeric_limits<double>::infinity();
    for (const Modes& m : along) gaps[s] = std::min(gaps[s], gap_at(m, s, floor));
    if (split == 0 || gaps[s] > gaps[split]) split = s;
  }
  p.gap = gaps[split];
  const auto worst = std::min_element(along.begin(), along.end(), [&](const Modes& a, const Modes& b) {
    return gap_at(a, split, floor) < gap_at(b, split, floor);
  });
  p.gap_time = worst->t;
  p.slowest_fast = worst->magnitude[split];
  p.fastest_slow = worst->magnitude[split - 1];
  p.fast_modes = n - split;
  const std::vector<StateShare> shares = fast_shares(model, along, p.fast_modes);
  for (std::size_t i = 0; i < n; ++i)
    p.states[i] = {shares[i].name,      shares[i].share, shares[i].share_min,
                   shares[i].share_max, false,           model.states[i].fast};
  const std::vector<std::size_t> by_share = largest_first(shares);
  for (std::size_t k = 0; k < p.fast_modes; ++k) p.states[by_share[k]].fast = true;
  for (std::size_t s = 1; s < n; ++s)
    if (s != split && gaps[s] >= kMinGap) {
      AlternativeSplit a{n - s, gaps[s], {}};
      const std::vector<StateShare> other = fast_shares(model, along, n - s);
      const std::vector<std::size_t> order = largest_first(other);
      for (std::size_t i = 0; i < n; ++i)
        if (std::find(order.begin(), order.begin() + static_cast<long>(n - s), i) !=
            order.begin() + static_cast<long>(n - s))
          a.fast.push_back(model.states[i].name);
      p.alternatives.push_back(a);
    }
  std::sort(p.alternatives.begin(), p.alternatives.end(),
            [](const AlternativeSplit& a, const AlternativeSplit& b) { return a.gap > b.gap; });
  for (const StateShare& s : p.states) (s.fast ? p.fast : p.slow).push_back(s.name);
  p.found = p.gap >= kMinGap;
  if (!p.found)
    p.note = fmt::format(
        "no gap of at least {} between the modes' |lambda| holds along the scenario (the largest, "
        "{:.3g}, falls to that at t = {:.6g}): the model has no two time scales to partition",
        kMinGap, p.gap, p.gap_time);
  else if (p.states[by_share[p.fast_modes - 1]].share < 0.5 ||
           (p.fast_modes < n && p.states[by_share[p.fast_modes]].share > 0.5))
    p.note =
        "a state's participation is split between the slow and the fast modes (its share is near 1/2): "
        "the partition is the closest one with as many fast states as fast modes";
  p.agrees = p.declared && p.found;
  for (const StateShare& s : p.states)
    if (s.fast != s.declared_fast) p.agrees = false;
  return p;
}

std::string PartitionProposal::text() const {
  std::string out = fmt::format("partition: {} samples of the scenario's high-accuracy trajectory\n", samples);
  out += fmt::format("  {:<16} {:>10} {:>10} {:>10}  {}\n", "state", "fast share", "min", "max",
                     declared ? "proposed (declared)" : "proposed");
  for (const StateShare& s : states)
    out += fmt::format("  {:<16} {:>10.3f} {:>10.3f} {:>10.3f}  {}{}\n", s.name, s.share, s.share_min, s.share_max,
                       s.fast ? "fast" : "slow", declared ? (s.declared_fast ? " (fast)" : " (slow)") : "");
  if (fast_modes > 0)
    out += fmt::format(
        "  gap: {:.3g} ({} fast mode{}), smallest at t = {:.6g}: slowest fast |lambda| {:.4g}, "
        "fastest slow {:.4g} 1/s\n",
        gap, fast_modes, fast_modes == 1 ? "" : "s", gap_time, slowest_fast, fastest_slow);
  for (const AlternativeSplit& a : alternatives) {
    std::string names;
    for (const auto& f : a.fast) names += (names.empty() ? "" : ", ") + f;
    out += fmt::format("  another split: gap {:.3g} with {} fast mode{}, fast states {}\n", a.gap, a.fast_modes,
                       a.fast_modes == 1 ? "" : "s", names);
  }
  if (!note.empty()) out += "  " + note + "\n";
  if (declared && found)
    out += agrees ? "  the declared partition agrees\n"
                  : "  the declared partition differs from the proposal (the candidates below use the proposal)\n";
  return out;
}

std::string PartitionProposal::json() const {
  const auto names = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + json_string(x);
    return "[" + s + "]";
  };
  std::string shares;
  for (const StateShare& s : states)
    shares += fmt::format(
        "{}{{\"state\": {}, \"fast_share\": {:.6g}, \"min\": {:.6g}, \"max\": {:.6g}, "
        "\"fast\": {}}}",
        shares.empty() ? "" : ", ", json_string(s.name), s.share, s.share_min, s.share_max, s.fast);
  std::string others;
  for (const AlternativeSplit& a : alternatives)
    others += fmt::format("{}{{\"gap\": {:.6g}, \"fast_modes\": {}, \"fast\": {}}}", others.empty() ? "" : ", ", a.gap,
                          a.fast_modes, names(a.fast));
  return fmt::format(
      "{{\"found\": {}, \"slow\": {}, \"fast\": {}, \"gap\": {:.6g}, \"gap_time\": {:.6g}, "
      "\"slowest_fast\": {:.6g}, \"fastest_slow\": {:.6g}, \"fast_modes\": {}, \"samples\": {}, "
      "\"declared\": {}, \"agrees\": {}, \"states\": [{}], \"alternatives\": [{}], \"note\": {}}}",
      found, names(slow), names(fast), gap, gap_time, slowest_fast, fastest_slow, fast_modes, samples, declared, agrees,
      shares, others, json_string(note));
}

}  // namespace dualrate
