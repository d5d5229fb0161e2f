// Seed 001's efficiency claim (SMFE needs N + 1 evaluations per macro step where forward
// Euler needs about 1/eps steps), on the three models whose fast Jacobian block is constant
// (dc_motor: real fast pole -5975 rad/s; servo_actuator_lag: -2000 rad/s; flexible_joint:
// the gearbox pair -573 +- 879i rad/s), each over its scenario, in one run:
//   smfe:  the generated step at the task period D = 10 ms (N and h_s chosen by the
//          generator: N = 1, 1, 10);
//   euler: forward Euler (the runtime's Euler) at the longest step D/m within 0.9 times its
//          largest stable step;
//   rk4:   RK4 at matched accuracy: the longest step D/m whose error is at most smfe's, no
//          longer than 0.9 times its largest stable step (on these models RK4 at that bound
//          is already more accurate than smfe: stability, not accuracy, sets its step);
//   sp_ll: at matched accuracy, the longest step D/m (m = 1, 2, ...) whose error is at most
//          smfe's, with the constants the generator would emit for that step
//          (sp_ll_constants) loaded into the runtime's SpLl, which generated code calls.
// Steps are D/m so that every scheme's grid holds the samples t = kD and the scenarios'
// input switches (all on multiples of D); sp_ll is not offered steps longer than D, the
// task period. Error: max over the samples t = kD and the states of
// |x - x_ref| / max(1, |x_ref|), x_ref from the reference core's high-accuracy solution.
// The CPU time of each scheme over smfe's (same model, same run) is printed at the end.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "analysis/stability.hpp"
#include "dc_motor.hpp"
#include "flexible_joint.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "periodic_run.hpp"
#include "ratio_reporter.hpp"
#include "reference_core/reference_core.hpp"
#include "servo_actuator_lag.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "sp_ll_at_step.hpp"
#include "source_tree.hpp"

namespace {

constexpr double kPeriod = 0.01;  // D, the STEP the three smfe headers are generated with
constexpr int kMaxSubsteps = 2000;

struct Choice {
  int substeps = 1;  // m: step D/m
  double error = 0;
  bool stability_bound = false;  // the step is at the stability bound, not the accuracy target
  bool reached = true;           // the accuracy target was met within kMaxSubsteps
};

template <class M, class SmfeConstants>
class Case {
 public:
  using SmfeScheme = dualrate::Smfe<M, SmfeConstants>;
  using SpLl = dualrate::SpLl<M, dualrate_test::SpLlAtStep<M>>;

  Case(const char* name, const char* file) : name_(name) {
    const dualrate::Model m = dualrate::load_model_file(file);
    t_end_ = m.simulation.t_end;
    macro_ = std::lround(t_end_ / kPeriod);
    exact_ = dualrate::ReferenceCore(m).simulate({dualrate::kHighAccuracy, kPeriod, t_end_, 1}).rows;
    blocks_ = dualrate::sp_ll_blocks(m, false);
    const auto within = [&](const char* scheme) {
      const double limit = dualrate::analyze_stability(m, scheme, kPeriod).max_stable_step;
      return static_cast<int>(std::ceil(kPeriod / (0.9 * limit)));
    };
    smfe.error = error<SmfeScheme>(1);
    euler.substeps = within("euler");
    euler.error = error<dualrate::Euler<M>>(euler.substeps);
    euler.stability_bound = true;
    rk4 = matched<dualrate::Rk4<M>>(within("rk4"), [](int) {});
    sp_ll = matched<SpLl>(1, [&](int sub) { dualrate_test::SpLlAtStep<M>::set(blocks_, kPeriod / sub); });
  }

  void add_benchmarks() {
    add<SmfeScheme>("smfe", smfe.substeps, [] {});
    add<dualrate::Euler<M>>("euler", euler.substeps, [] {});
    add<dualrate::Rk4<M>>("rk4", rk4.substeps, [] {});
    add<SpLl>("sp_ll", sp_ll.substeps,
              [this] { dualrate_test::SpLlAtStep<M>::set(blocks_, kPeriod / sp_ll.substeps); });
  }

  void print(const dualrate::bench::RatioReporter& reporter) const {
    std::printf("%s over %g s, D = %g s (smfe N = %d, h_s = %.4g s):\n", name_, t_end_, kPeriod,
                SmfeConstants::inner_steps, static_cast<double>(SmfeConstants::inner_step));
    const std::string smfe_name = std::string(name_) + "/smfe";
    for (const auto& [scheme, c] :
         {std::pair<const char*, const Choice&>{"smfe", smfe}, {"euler", euler}, {"rk4", rk4}, {"sp_ll", sp_ll}}) {
      std::printf(
          "  %-6s step %-10.4g steps/s %-8.0f error %-9.2e CPU time / smfe's %6.3f%s%s\n", scheme, kPeriod / c.substeps,
          c.substeps / kPeriod, c.error, reporter.ratio(std::string(name_) + "/" + scheme, smfe_name),
          c.stability_bound ? "  (stability-bound step)" : "", c.reached ? "" : "  (accuracy target not reached)");
    }
  }

  Choice smfe, euler, rk4, sp_ll;

 private:
  template <class Scheme>
  double error(int substeps) const {
    return dualrate::bench::max_relative_error<M, Scheme>(exact_, macro_, kPeriod, substeps);
  }

  // The fewest substeps m >= `from` whose error is at most smfe's; prepare(m) readies the
  // scheme for step D/m.
  template <class Scheme, class Prepare>
  Choice matched(int from, Prepare&& prepare) const {
    Choice c;
    for (c.substeps = from; c.substeps <= kMaxSubsteps; ++c.substeps) {
      prepare(c.substeps);
      c.error = error<Scheme>(c.substeps);
      if (c.error <= smfe.error) {
        c.stability_bound = c.substeps == from && from > 1;
        return c;
      }
    }
    c.reached = false;
    --c.substeps;
    return c;
  }

  template <class Scheme, class Prepare>
  void add(const char* scheme, int substeps, Prepare prepare) {
    dualrate::bench::register_periods<M, Scheme>(std::string(name_) + "/" + scheme, macro_, kPeriod, substeps, prepare);
  }

  const char* name_;
  double t_end_ = 0;
  long macro_ = 0;
  std::vector<std::vector<double>> exact_;
  dualrate::SpLlBlocks blocks_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  dualrate::init_symbolic();
  Case<dc_motor::Model, dc_motor::SchemeConstants> dc("dc_motor",
                                                      dualrate::test::source_path("models/dc_motor.yaml").c_str());
  Case<servo_actuator_lag::Model, servo_actuator_lag::SchemeConstants> servo(
      "servo_actuator_lag", dualrate::test::source_path("models/servo_actuator_lag.yaml").c_str());
  Case<flexible_joint::Model, flexible_joint::SchemeConstants> joint(
      "flexible_joint", dualrate::test::source_path("models/flexible_joint.yaml").c_str());
  dc.add_benchmarks();
  servo.add_benchmarks();
  joint.add_benchmarks();
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  dc.print(reporter);
  servo.print(reporter);
  joint.print(reporter);
  return 0;
}
