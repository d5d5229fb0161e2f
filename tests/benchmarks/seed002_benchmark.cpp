// Seed 002's speed claim on the walking robot (models/walking_robot.yaml, its 4 s scenario),
// in one run:
//   quasistatic: the generated step at the task period D = 10 ms (9 times RK4's largest
//                stable step on the full model; the feet eliminated);
//   rk4:         RK4 on the full model at matched accuracy: the longest step D/m whose error
//                is at most quasistatic's, no longer than 0.9 times its largest stable step
//                (1.12 ms). Quasistatic's error is the O(eps) error of the approximation
//                itself, so RK4 at its stability bound is already more accurate: stability,
//                not accuracy, sets its step.
// Error: max over the samples t = kD and the states of |x - x_ref| / max(1, |x_ref|), x_ref
// the full model's high-accuracy solution. The CPU time of rk4 over quasistatic's is printed
// at the end.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "analysis/stability.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "periodic_run.hpp"
#include "ratio_reporter.hpp"
#include "reference_core/reference_core.hpp"
#include "walking_robot.hpp"
#include "source_tree.hpp"

namespace {

using M = walking_robot::Model;
constexpr double kPeriod = 0.01;  // D, the STEP the quasistatic header is generated with
constexpr int kMaxSubsteps = 200;

class Robot {
 public:
  Robot() {
    const dualrate::Model m = dualrate::load_model_file(dualrate::test::source_path("models/walking_robot.yaml"));
    macro_ = std::lround(m.simulation.t_end / kPeriod);
    exact_ = dualrate::ReferenceCore(m).simulate({dualrate::kHighAccuracy, kPeriod, m.simulation.t_end, 1}).rows;
    quasistatic_error = error<walking_robot::Scheme>(1);
    const double limit = dualrate::analyze_stability(m, "rk4", kPeriod).max_stable_step;
    const int from = static_cast<int>(std::ceil(kPeriod / (0.9 * limit)));
    for (rk4_substeps = from; rk4_substeps <= kMaxSubsteps; ++rk4_substeps) {
      rk4_error = error<dualrate::Rk4<M>>(rk4_substeps);
      if (rk4_error <= quasistatic_error) break;
    }
    rk4_stability_bound = rk4_substeps == from;
  }

  void add_benchmarks() {
    add<walking_robot::Scheme>("walking_robot/quasistatic", 1);
    add<dualrate::Rk4<M>>("walking_robot/rk4", rk4_substeps);
  }

  void print(const dualrate::bench::RatioReporter& r) const {
    std::printf("walking_robot over %ld periods of D = %g s:\n", macro_, kPeriod);
    std::printf("  quasistatic step %-8.4g error %-9.2e\n", kPeriod, quasistatic_error);
    std::printf("  rk4         step %-8.4g error %-9.2e CPU time / quasistatic's %6.3f%s\n", kPeriod / rk4_substeps,
                rk4_error, r.ratio("walking_robot/rk4", "walking_robot/quasistatic"),
                rk4_stability_bound ? "  (stability-bound step)" : "");
  }

  double quasistatic_error = 0, rk4_error = 0;
  int rk4_substeps = 1;
  bool rk4_stability_bound = false;

 private:
  template <class Scheme>
  double error(int substeps) const {
    return dualrate::bench::max_relative_error<M, Scheme>(exact_, macro_, kPeriod, substeps);
  }

  template <class Scheme>
  void add(const char* name, int substeps) {
    dualrate::bench::register_periods<M, Scheme>(name, macro_, kPeriod, substeps, [] {});
  }

  long macro_ = 0;
  std::vector<std::vector<double>> exact_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  dualrate::init_symbolic();
  Robot robot;
  robot.add_benchmarks();
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  robot.print(reporter);
  return 0;
}
