// Seed 003's efficiency claim (Table 8: 4x RK2's stable step on the planar vehicle; Table 9:
// 2.4x less CPU than RK2 on the HMMWV): the planar vehicle's generated model over the first
// T = 1 s of its scenario, stepped by the runtime schemes that generated code calls
// (dualrate::Rk2, Rk4, Prk25 on planar_vehicle::Model), in one run:
//   usable:  each scheme at 0.9 times its largest stable step (dualrate's analysis at the
//            initial state), h = T / N;
//   matched: each scheme at the largest step h = T / N whose error at T is at most 1e-6,
//            from the scenario's state at t = 2 s with the inputs held there (so that the
//            error is the scheme's, not the inputs' zero-order hold; at the usable steps the
//            hold's first-order error dominates and is alike for all three), N raised from
//            the usable one by 5% at a time.
// Error: max over states of |x(T) - x_ref(T)| / max(1, |x_ref(T)|), x_ref from the reference
// core's high-accuracy mode. CPU-time ratios against RK2 are printed at the end.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "analysis/stability.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "planar_vehicle.hpp"
#include "ratio_reporter.hpp"
#include "reference_core/reference_core.hpp"
#include "seed003.hpp"
#include "source_tree.hpp"

namespace {

using Model = planar_vehicle::Model;
constexpr double kEnd = 1.0;
const char* const kSchemes[] = {"rk2", "rk4", "prk25"};

constexpr double kMatchedError = 1e-6;

// From x over [0, kEnd] in `steps` steps, with the scenario's inputs (held over each step) or
// with `held` inputs throughout.
template <class Scheme>
Model::State run(long steps, Model::State x, const Model::Input* held) {
  const double h = kEnd / static_cast<double>(steps);
  for (long i = 0; i < steps; ++i) {
    const double t = static_cast<double>(i) * h;
    Scheme::step(t, h, held ? *held : Model::scenario_inputs(t), x);
  }
  return x;
}

Model::State run(int scheme, long steps, const Model::State& x, const Model::Input* held) {
  switch (scheme) {
    case 0:
      return run<dualrate::Rk2<Model>>(steps, x, held);
    case 1:
      return run<dualrate::Rk4<Model>>(steps, x, held);
    default:
      return run<dualrate::Prk25<Model>>(steps, x, held);
  }
}

struct Setup {
  double limit[3] = {};  // largest stable step
  long usable[3] = {};   // N at 0.9 times it
  long matched[3] = {};  // N at kMatchedError
  double usable_error[3] = {}, matched_error[3] = {};
  Model::State held_x0;  // the scenario's state at t = 2 s
  Model::Input held_u;   // and its inputs
};

// max over states of |x - exact| / max(1, |exact|), exact a reference-core trace row.
double error(const Model::State& x, const std::vector<double>& exact) {
  double e = 0;
  for (int j = 0; j < Model::kStates; ++j)
    e = std::max(e, std::fabs(x[j] - exact[1 + j]) / std::max(1.0, std::fabs(exact[1 + j])));
  return std::isfinite(e) ? e : INFINITY;
}

const Setup& setup() {
  static const Setup s = [] {
    Setup r;
    dualrate::init_symbolic();
    const dualrate::Model m = dualrate::load_model_file(dualrate::test::source_path("models/planar_vehicle.yaml"));
    const std::vector<double> exact =
        dualrate::ReferenceCore(m).simulate({dualrate::kHighAccuracy, 1e-3, kEnd, 1000}).rows.back();
    const dualrate::Model held = dualrate::seed003::frozen_inputs(m, 2.0);
    const dualrate::ReferenceCore held_core(held);
    const std::vector<double> held_exact = held_core.simulate({dualrate::kHighAccuracy, 1e-3, kEnd, 1000}).rows.back();
    for (int j = 0; j < Model::kStates; ++j) r.held_x0[j] = held.states[static_cast<std::size_t>(j)].initial_value;
    for (int j = 0; j < Model::kInputs; ++j) r.held_u[j] = held.inputs[static_cast<std::size_t>(j)].default_value;
    for (int k = 0; k < 3; ++k) {
      r.limit[k] = dualrate::analyze_stability(m, kSchemes[k], m.simulation.step.value()).max_stable_step;
      r.usable[k] = static_cast<long>(std::ceil(kEnd / (0.9 * r.limit[k])));
      r.usable_error[k] = error(run(k, r.usable[k], Model::initial_state(), nullptr), exact);
      long n = r.usable[k];
      double e = error(run(k, n, r.held_x0, &r.held_u), held_exact);
      while (e > kMatchedError && n < 1000 * r.usable[k]) {
        n = static_cast<long>(std::ceil(n * 1.05));
        e = error(run(k, n, r.held_x0, &r.held_u), held_exact);
      }
      r.matched[k] = n;
      r.matched_error[k] = e;
    }
    return r;
  }();
  return s;
}

void BM_Vehicle(benchmark::State& state, int scheme, bool matched) {
  const Setup& s = setup();
  const long n = matched ? s.matched[scheme] : s.usable[scheme];
  for (auto _ : state)
    benchmark::DoNotOptimize(matched ? run(scheme, n, s.held_x0, &s.held_u)
                                     : run(scheme, n, Model::initial_state(), nullptr));
  state.counters["h"] = kEnd / static_cast<double>(n);
  state.counters["steps"] = static_cast<double>(n);
  state.counters["error"] = matched ? s.matched_error[scheme] : s.usable_error[scheme];
}

}  // namespace

int main(int argc, char** argv) {
  for (const bool matched : {false, true})
    for (int k = 0; k < 3; ++k)
      benchmark::RegisterBenchmark((std::string(matched ? "matched/" : "usable/") + kSchemes[k]).c_str(), BM_Vehicle, k,
                                   matched)
          ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const Setup& s = setup();
  std::printf("largest stable steps: rk2 %.4g, rk4 %.4g, prk25 %.4g s\n", s.limit[0], s.limit[1], s.limit[2]);
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (const char* mode : {"usable", "matched"})
    std::printf("%s: CPU time over rk2's: rk4 %.3f, prk25 %.3f\n", mode,
                reporter.ratio(std::string(mode) + "/rk4", std::string(mode) + "/rk2"),
                reporter.ratio(std::string(mode) + "/prk25", std::string(mode) + "/rk2"));
  return 0;
}
