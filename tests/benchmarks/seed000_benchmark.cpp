// Seed 000's efficiency claim (the paper: 0.6x of ode45's time): the pendulum + particle over
// 10 s, generated sp_ll at h = 0.005 against Boost.Odeint's controlled dopri5 (the algorithm
// of ode45) at the tolerance that gives the same energy error, both on the same generated
// right-hand side, in one run. The ratio of their times is printed at the end.
//
// Energy error: max over the run of |E(t) - E(0)| / |E(0)| (eq. 68), sampled at every step
// of each integrator. The dopri5 tolerance (absolute = relative) is the largest of
// 10^(-k/4), k = 0..48, whose energy error does not exceed sp_ll's.
#include <benchmark/benchmark.h>

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "pendulum_particle.hpp"
#include "ratio_reporter.hpp"

namespace {

namespace odeint = boost::numeric::odeint;
using Model = pendulum_particle::Model;
using State = Model::State;

constexpr double kEnd = 10;

double energy(double t, const State& x) {
  Model::Output y;
  Model::outputs(t, x, Model::default_inputs(), y);
  return y[0];
}

// Runs sp_ll over [0, kEnd]; false when a step reports a fault.
bool sp_ll_run(double& worst) {
  pendulum_particle::Data d;
  const double e0 = energy(0, d.x);
  const long steps = std::lround(kEnd / pendulum_particle::kStep);
  worst = 0;
  for (long i = 0; i < steps; ++i) {
    if (pendulum_particle::step(d, Model::default_inputs()) != dualrate::Status::kOk) return false;
    worst = std::max(worst, std::fabs(energy(d.time(pendulum_particle::kStep), d.x) - e0) / std::fabs(e0));
  }
  return true;
}

struct Rhs {
  void operator()(const State& x, State& dxdt, double t) const {
    Model::derivatives(t, x, Model::default_inputs(), dxdt);
  }
};

// dopri5 over [0, kEnd]; returns the number of accepted steps and the energy error.
std::size_t dopri5_run(double tolerance, double& worst) {
  State x = Model::initial_state();
  const double e0 = energy(0, x);
  worst = 0;
  auto stepper = odeint::make_controlled(
      tolerance, tolerance, odeint::runge_kutta_dopri5<State, double, State, double, odeint::vector_space_algebra>());
  return odeint::integrate_adaptive(stepper, Rhs(), x, 0.0, kEnd, 1e-3, [&](const State& s, double t) {
    worst = std::max(worst, std::fabs(energy(t, s) - e0) / std::fabs(e0));
  });
}

struct Matched {
  double sp_ll_error = 0, dopri5_error = 0, tolerance = 0;
  std::size_t dopri5_steps = 0;
};

const Matched& matched() {
  static const Matched m = [] {
    Matched r;
    if (!sp_ll_run(r.sp_ll_error)) return r;
    for (int k = 0; k <= 48; ++k) {
      const double tolerance = std::pow(10.0, -k / 4.0);
      double e = 0;
      const std::size_t steps = dopri5_run(tolerance, e);
      if (e <= r.sp_ll_error) {
        r.tolerance = tolerance;
        r.dopri5_error = e;
        r.dopri5_steps = steps;
        break;
      }
    }
    return r;
  }();
  return m;
}

void BM_SpLl(benchmark::State& state) {
  pendulum_particle::Data d;
  bool ok = true;
  for (auto _ : state) {
    d = pendulum_particle::Data();
    const long steps = std::lround(kEnd / pendulum_particle::kStep);
    for (long i = 0; i < steps; ++i) ok &= pendulum_particle::step(d, Model::default_inputs()) == dualrate::Status::kOk;
    benchmark::DoNotOptimize(d.x);
  }
  if (!ok) state.SkipWithError("a step reported a fault");
  state.counters["energy_error"] = matched().sp_ll_error;
  state.counters["steps"] = static_cast<double>(std::lround(kEnd / pendulum_particle::kStep));
}

void BM_Dopri5(benchmark::State& state) {
  const Matched& m = matched();
  for (auto _ : state) {
    State x = Model::initial_state();
    auto stepper = odeint::make_controlled(
        m.tolerance, m.tolerance,
        odeint::runge_kutta_dopri5<State, double, State, double, odeint::vector_space_algebra>());
    odeint::integrate_adaptive(stepper, Rhs(), x, 0.0, kEnd, 1e-3);
    benchmark::DoNotOptimize(x);
  }
  state.counters["energy_error"] = m.dopri5_error;
  state.counters["tolerance"] = m.tolerance;
  state.counters["steps"] = static_cast<double>(m.dopri5_steps);
}

BENCHMARK(BM_SpLl)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dopri5)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const Matched& m = matched();
  if (m.tolerance == 0) {
    std::fprintf(stderr, "sp_ll faulted, or no dopri5 tolerance down to 1e-12 reaches its energy error %.3e\n",
                 m.sp_ll_error);
    return 1;
  }
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double ratio = reporter.ratio("BM_SpLl", "BM_Dopri5");
  if (ratio == 0) return 0;  // filtered out
  std::printf(
      "energy error: sp_ll %.3e (h = %g, %ld steps), dopri5 %.3e (tolerance %.3g, %zu steps)\n"
      "time ratio sp_ll / dopri5: %.4f (the paper: 0.6 against ode45; our goal: 0.05 or less)\n",
      m.sp_ll_error, pendulum_particle::kStep, std::lround(kEnd / pendulum_particle::kStep), m.dopri5_error,
      m.tolerance, m.dopri5_steps, ratio);
  return 0;
}
