// Seed 001's efficiency claim (SMFE needs N + 1 evaluations per macro step where forward
// Euler needs about 1/eps steps): the DC motor (models/dc_motor.yaml: electrical pole
// -5975 rad/s, mechanical -25 rad/s) over its 0.5 s scenario, in one run:
//   smfe:  the generated step at D = 0.01 s (N and h_s chosen by the generator);
//   euler: forward Euler (the runtime's Euler on the same model) at 0.9 times its largest
//          stable step, 0.335 ms;
//   rk4:   RK4 at 0.9 times its largest stable step, 0.466 ms (at matched accuracy RK4 would
//          take a longer step, but its stability does not allow one: at its limit it is
//          already more accurate than smfe at D).
// Error: max over states of |x(T) - x_ref(T)| / max(1, |x_ref(T)|) against the reference
// core's high-accuracy solution. CPU-time ratios against forward Euler are printed at the
// end. sp_ll (precomputed phi-functions at one step) is left out: it would need a generated
// header per step for a matched-accuracy search.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "analysis.hpp"
#include "dc_motor.hpp"
#include "functions.hpp"
#include "model.hpp"
#include "ratio_reporter.hpp"
#include "reference_core.hpp"

namespace {

using Model = dc_motor::Model;
constexpr double kEnd = 0.5;

template <class Scheme>
Model::State run(long steps) {
  Model::State x = Model::initial_state();
  const double h = kEnd / static_cast<double>(steps);
  for (long i = 0; i < steps; ++i) {
    const double t = static_cast<double>(i) * h;
    Scheme::step(t, h, Model::scenario_inputs(t), x);
  }
  return x;
}

struct Setup {
  long smfe_steps = 0, euler_steps = 0, rk4_steps = 0;
  double smfe_error = 0, euler_error = 0, rk4_error = 0;
};

const Setup& setup() {
  static const Setup s = [] {
    Setup r;
    dualrate::init_symbolic();
    const dualrate::Model m = dualrate::load_model_file(DUALRATE_SOURCE_DIR "/models/dc_motor.yaml");
    const std::vector<double> exact =
        dualrate::ReferenceCore(m).simulate({"reference", dc_motor::kStep, kEnd, 1000000}).rows.back();
    const auto error = [&](const Model::State& x) {
      double e = 0;
      for (int j = 0; j < Model::kStates; ++j)
        e = std::max(e, std::fabs(x[j] - exact[1 + j]) / std::max(1.0, std::fabs(exact[1 + j])));
      return e;
    };
    const auto usable = [&](const char* scheme) {
      const double limit = dualrate::analyze_stability(m, scheme, m.simulation.step.value()).max_stable_step;
      return static_cast<long>(std::ceil(kEnd / (0.9 * limit)));
    };
    r.smfe_steps = std::lround(kEnd / dc_motor::kStep);
    r.smfe_error = error(run<dc_motor::Scheme>(r.smfe_steps));
    r.euler_steps = usable("euler");
    r.euler_error = error(run<dualrate::Euler<Model>>(r.euler_steps));
    r.rk4_steps = usable("rk4");
    r.rk4_error = error(run<dualrate::Rk4<Model>>(r.rk4_steps));
    return r;
  }();
  return s;
}

template <class Scheme>
void bench(benchmark::State& state, long steps, double error) {
  for (auto _ : state) benchmark::DoNotOptimize(run<Scheme>(steps));
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["error"] = error;
}

void BM_Smfe(benchmark::State& state) { bench<dc_motor::Scheme>(state, setup().smfe_steps, setup().smfe_error); }
void BM_Euler(benchmark::State& state) {
  bench<dualrate::Euler<Model>>(state, setup().euler_steps, setup().euler_error);
}
void BM_Rk4(benchmark::State& state) { bench<dualrate::Rk4<Model>>(state, setup().rk4_steps, setup().rk4_error); }

BENCHMARK(BM_Smfe)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Euler)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rk4)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const Setup& s = setup();
  std::printf("dc_motor over %.1f s: smfe D = %g (N = %d), euler %ld steps, rk4 %ld steps\n", kEnd,
              static_cast<double>(dc_motor::kStep), dc_motor::SchemeConstants::inner_steps, s.euler_steps, s.rk4_steps);
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("CPU time over forward Euler's: smfe %.4f, rk4 %.3f\n", reporter.ratio("BM_Smfe", "BM_Euler"),
              reporter.ratio("BM_Rk4", "BM_Euler"));
  return 0;
}
