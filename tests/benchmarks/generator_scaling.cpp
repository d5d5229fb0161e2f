// Generator scaling: the time `dualrate generate` takes (load, analysis, the scheme's
// precomputation, emission) and the header it writes, for the actuated chain
// (tests/models/actuated_chain.hpp) from 12 to 501 states, with rk4 and sp_ll. Google
// Benchmark fits the growth of the time with n (BigO line) and each run reports the header's
// bytes and sp_ll's emitted nonzeros as counters.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "actuated_chain.hpp"
#include "analysis/stability.hpp"
#include "emit/cpp_emitter.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "registry/registry.hpp"

namespace {

// The chain's model file with `states` states (a third of them masses' fast actuators).
std::string chain_file(int states) {
  const auto dir = std::filesystem::temp_directory_path() / "dualrate-generator-scaling";
  std::filesystem::create_directories(dir);
  const auto path = dir / ("chain" + std::to_string(states) + ".yaml");
  std::ofstream(path) << dualrate_test::actuated_chain_yaml(states / 3);
  return path.string();
}

void generate(benchmark::State& state, const char* scheme) {
  const int n = static_cast<int>(state.range(0));
  const std::string file = chain_file(n);
  dualrate::init_symbolic();
  std::size_t bytes = 0;
  long nonzeros = 0;
  for (auto _ : state) {
    const dualrate::Model model = dualrate::load_model_file(file);
    const double h = *model.simulation.step;
    const dualrate::StabilityReport stability =
        dualrate::analyze_stability(model, scheme, h, 1, {}, dualrate::StepSearch::kWhenUnstable);
    dualrate::GenerateRequest o{scheme, h, 1, dualrate::ScalarType::kDouble, "benchmark"};
    const dualrate::SchemeDesign design = dualrate::precompute_scheme(model, o);
    const std::string header = dualrate::generate_header(model, o, design);
    benchmark::DoNotOptimize(stability.stable);
    bytes = header.size();
    nonzeros = 0;
    for (const auto& m : design.matrices) nonzeros += dualrate::linear_map(m).nonzeros();
  }
  state.SetComplexityN(n);
  state.counters["header_bytes"] = static_cast<double>(bytes);
  state.counters["matrix_nonzeros"] = static_cast<double>(nonzeros);
}

// 4 to 167 masses.
void chain_sizes(benchmark::internal::Benchmark* b) {
  for (const int n : {12, 30, 60, 120, 240, 501}) b->Arg(n);
}

}  // namespace

BENCHMARK_CAPTURE(generate, rk4, "rk4")
    ->Apply(chain_sizes)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oAuto);
BENCHMARK_CAPTURE(generate, sp_ll, "sp_ll")
    ->Apply(chain_sizes)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oAuto);

BENCHMARK_MAIN();
