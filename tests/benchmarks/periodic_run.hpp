// Runs of a generated model's scheme over whole task periods D, shared by the seed benchmarks
// that compare schemes at matched accuracy: m steps of D/m per period, so that every scheme's
// grid holds the samples t = kD and the scenarios' input switches (on multiples of D).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace dualrate::bench {

// Over `macro` periods from the initial state, m steps of period/m each (the scenario's inputs
// held over each step); sample(k, x) after period k.
template <class M, class Scheme, class Sample>
typename M::State run_periods(long macro, double period, int m, Sample&& sample) {
  typename M::State x = M::initial_state();
  const double h = period / m;
  for (long k = 0; k < macro; ++k) {
    for (int i = 0; i < m; ++i) {
      const double t = static_cast<double>(k * m + i) * h;
      Scheme::step(t, h, M::scenario_inputs(t), x);
    }
    sample(k + 1, x);
  }
  return x;
}

// Max over the samples t = kD and the states of |x - x_ref| / max(1, |x_ref|); `exact` holds
// rows (t, x_ref...) at t = kD, k = 0..macro. A non-finite state counts as an infinite error.
template <class M, class Scheme>
double max_relative_error(const std::vector<std::vector<double>>& exact, long macro, double period, int m) {
  double e = 0;
  run_periods<M, Scheme>(macro, period, m, [&](long k, const typename M::State& x) {
    for (int j = 0; j < M::kStates; ++j) {
      const double ref = exact.at(static_cast<std::size_t>(k)).at(static_cast<std::size_t>(1 + j));
      const double d = std::fabs(static_cast<double>(x[j]) - ref) / std::max(1.0, std::fabs(ref));
      e = std::isfinite(d) ? std::max(e, d) : HUGE_VAL;
    }
  });
  return e;
}

// Registers `name`: one iteration runs `macro` periods with m steps each, after prepare().
template <class M, class Scheme, class Prepare>
void register_periods(const std::string& name, long macro, double period, int m, Prepare prepare) {
  benchmark::RegisterBenchmark(name.c_str(), [macro, period, m, prepare](benchmark::State& state) {
    prepare();
    for (auto _ : state) benchmark::DoNotOptimize(run_periods<M, Scheme>(macro, period, m, [](long, const auto&) {}));
    state.counters["steps"] = static_cast<double>(macro * m);
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace dualrate::bench
