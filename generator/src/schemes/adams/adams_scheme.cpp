// Seed 004's schemes in the registry: the reference core's runs, the one-step maps the
// analysis and verify's float tolerance read, and the entries themselves.
#include <memory>

#include "schemes/adams/adams.hpp"
#include "schemes/adams/dual_rate_adams.hpp"

#include "ir/function_cost.hpp"

namespace dualrate {

namespace {

// The run of a task form in T (mrabm4_parallel's or mrabm4's) on the reference core's grid.
template <class T>
GridRunIn<T> task_run(bool parallel, const GridSetupIn<T>& s) {
  auto tasks = std::make_shared<DualRateAdamsIn<T>>(parallel, s.slow, s.h, s.ratio,
                                                    typename DualRateAdamsIn<T>::Rates{s.held, s.held}, s.start,
                                                    s.jumped, s.each_tick, s.compensated);
  return {s.ratio,
          [tasks, ratio = s.ratio](long i, std::vector<T>& x) {
            tasks->advance(i, x);
            return i + ratio;
          },
          [tasks](const std::vector<T>& kept) { tasks->restore(kept); }};
}

// The run of `scheme` on the reference core's grid.
GridRun run(AdamsScheme scheme, const GridSetup& s) {
  if (task_form(scheme)) return task_run(scheme == AdamsScheme::kMrabm4Parallel, s);
  auto integrator = std::make_shared<AdamsIntegrator>(scheme, s.slow, s.h, s.ratio, s.f, s.start);
  return {scheme == AdamsScheme::kAbm4 ? 1 : s.ratio, [integrator](long i, std::vector<double>& x) {
            const long next = i + integrator->stride(i);
            integrator->advance(i, x);
            return next;
          }};
}

// Calls use(tasks, tick, x) with the task form of mrabm4 (parallel or not) for dx/dt = J x,
// started up: past its RK4 macro steps, at macro step `tick`.
template <class Use>
auto with_started_tasks(bool parallel, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio, Use use) {
  const RightHandSide linear = linear_rhs(j);
  const TickRhs ticks = [&](long, double t, const std::vector<double>& x, std::vector<double>& dx) {
    linear(t, x, dx);
  };
  const StartStep start = [&](long, const std::vector<double>& x) { return rk4_step(linear, 0, h, x); };
  DualRateAdams tasks(parallel, slow, h, ratio, {ticks, ticks}, start);
  std::vector<double> x(static_cast<std::size_t>(j.rows()), 1.0);
  long tick = 0;
  for (; tick <= DualRateAdams::kStartupMacroSteps * ratio; tick += ratio) tasks.advance(tick, x);
  return use(tasks, tick, x);
}

Eigen::MatrixXd macro_step_map(bool parallel, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
  return with_started_tasks(parallel, j, h, slow, ratio, [](DualRateAdams& tasks, long tick, std::vector<double>& x) {
    const std::size_t m = tasks.history().size();
    Eigen::MatrixXd map(m, m);
    for (std::size_t c = 0; c < m; ++c) {
      std::vector<double> e(m, 0.0);
      e[c] = 1.0;
      tasks.set_history(e);
      tasks.advance(tick, x);
      const std::vector<double> next = tasks.history();
      map.col(static_cast<Eigen::Index>(c)) =
          Eigen::Map<const Eigen::VectorXd>(next.data(), static_cast<Eigen::Index>(m));
    }
    return map;
  });
}

StepMapLayout macro_step_layout(bool parallel, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
  return {with_started_tasks(
              parallel, j, h, slow, ratio,
              [](const DualRateAdams& tasks, long, const std::vector<double>&) { return tasks.history_layout(); }),
          ratio};
}

// abm4's one-step map on [x; f_i; f_{i-1}; f_{i-2}; f_{i-3}] after its RK4 start-up.
Eigen::MatrixXd abm4_step_map(const Eigen::MatrixXd& j, double h, std::size_t slow) {
  const auto n = static_cast<std::size_t>(j.rows());
  const RightHandSide linear = linear_rhs(j);
  const GridRhs f = [&](long, const std::vector<double>& x, std::vector<double>& dx) { linear(0, x, dx); };
  const StartStep start = [&](long, const std::vector<double>& x) { return rk4_step(linear, 0, h, x); };
  AdamsIntegrator abm4(AdamsScheme::kAbm4, slow, h, 1, f, start);
  std::vector<double> x(n, 1.0);
  long i = 0;
  for (; i <= abm4.startup_steps(); ++i) abm4.advance(i, x);
  const std::size_t m = 5 * n;
  Eigen::MatrixXd map(m, m);
  for (std::size_t c = 0; c < m; ++c) {
    std::vector<double> e(m, 0.0);
    e[c] = 1.0;
    x.assign(e.begin(), e.begin() + static_cast<long>(n));
    abm4.set_derivative_history({e.begin() + static_cast<long>(n), e.end()});
    abm4.advance(i, x);
    x.resize(m);
    const std::vector<double> history = abm4.derivative_history();
    std::copy(history.begin(), history.end(), x.begin() + static_cast<long>(n));
    map.col(static_cast<Eigen::Index>(c)) = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(m));
  }
  return map;
}

// One macro step of the runtime's task form (runtime/include/dualrate/schemes/mrabm4.hpp)
// past its start-up, `ratio` fast ticks and one slow job: the reference core's task form run on
// counted sizes, f_e and f_r at their emitted cost. Held inputs: each tick forms their
// polynomial and evaluates it at t_{n+1} (once for both rounds and both evaluations of each);
// the slow job evaluates tick k R's at t_k (parallel: and at t_{k+1}).
StepCost macro_step_cost(const Model& m, bool parallel, int ratio) {
  using Tasks = DualRateAdamsIn<CountedScalar, CountedScalar>;
  StepCost c;
  const auto rate = [&m, &c](Rows rows) -> Tasks::Rhs {
    return
        [&m, &c, rows](long, const CountedScalar&, const std::vector<CountedScalar>& x, std::vector<CountedScalar>& d) {
          c.add_work(derivative_ops(m, rows));
          d.assign(x.size(), CountedScalar(c.ops));
        };
  };
  const CountedScalar h(c.ops);
  Tasks tasks(parallel, m.slow_count, h, ratio, {rate(Rows::kFast), rate(Rows::kSlow)},
              [](long, const std::vector<CountedScalar>& x) { return x; });
  std::vector<CountedScalar> x(m.states.size(), h);
  long tick = 0;
  for (; tick <= Tasks::kStartupMacroSteps * ratio; tick += ratio) tasks.advance(tick, x);
  c = {};
  tasks.advance(tick, x);
  c.ops += ratio * held_input_ops(m, 1);
  c.ops += (parallel ? 2 : 1) * held_input_evaluation_ops(m);
  return c;
}

// A scheme only the reference core runs, in the paper's form.
SchemeInfo paper_form(const char* name, int order, const char* summary, int evaluations) {
  SchemeInfo s;
  s.identity.name = name;
  s.traits.order = order;
  s.identity.summary = summary;
  s.traits.evaluations = evaluations;
  s.traits.generated = false;
  s.traits.analysable = false;
  s.traits.grid_tied = true;
  return s;
}

}  // namespace

std::vector<SchemeInfo> adams_schemes() {
  // Evaluations: per fast step 2 f_e (4 parallel), per macro step 2 f_r (3 parallel).
  SchemeInfo serial;
  serial.identity.name = "mrabm4";
  serial.identity.runtime_class = "dualrate::Mrabm4";
  serial.identity.header = "dualrate/schemes/mrabm4.hpp";
  serial.traits.order = 2;
  serial.identity.summary = "serial multirate Adams-Bashforth-Moulton 4 as fast and slow tasks, seed 004";
  serial.traits.evaluations = 2;
  serial.traits.dual_rate = true;
  serial.traits.held_inputs = true;  // at each round's t_{n+1}, the start-up's RK4 stages and the slow job's times
  serial.traits.hold_degree = 1;     // the task form is second order (its slow state interpolated linearly)
  serial.traits.grid_tied = true;
  serial.traits.compensated_update = CompensatedUpdate::kSlowStates;  // the slow job's corrections of x_r
  serial.hooks.reference_run = [](const GridSetup& s) { return run(AdamsScheme::kMrabm4, s); };
  serial.hooks.float_reference_run = [](const GridSetupIn<float>& s) { return task_run(false, s); };
  serial.hooks.cost = [](const Model& m, const GenerateRequest& request, const SchemeDesign&) {
    return macro_step_cost(m, false, request.ratio);
  };
  serial.hooks.grid_step_map = [](const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
    return macro_step_map(false, j, h, slow, ratio);
  };
  serial.hooks.step_map_layout = [](const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
    return macro_step_layout(false, j, h, slow, ratio);
  };
  SchemeInfo parallel;
  parallel.identity.name = "mrabm4_parallel";
  parallel.identity.runtime_class = "dualrate::Mrabm4";
  parallel.identity.header = "dualrate/schemes/mrabm4.hpp";
  parallel.traits.order = 2;
  parallel.identity.summary = "parallel two-track multirate Adams-Bashforth-Moulton 4 as fast and slow tasks, seed 004";
  parallel.traits.evaluations = 4;
  parallel.traits.dual_rate = true;
  parallel.traits.held_inputs = true;
  parallel.traits.hold_degree = 1;
  parallel.traits.parallel = true;
  parallel.traits.grid_tied = true;
  parallel.traits.compensated_update = CompensatedUpdate::kSlowStates;
  parallel.hooks.reference_run = [](const GridSetup& s) { return run(AdamsScheme::kMrabm4Parallel, s); };
  parallel.hooks.float_reference_run = [](const GridSetupIn<float>& s) { return task_run(true, s); };
  parallel.hooks.cost = [](const Model& m, const GenerateRequest& request, const SchemeDesign&) {
    return macro_step_cost(m, true, request.ratio);
  };
  parallel.hooks.grid_step_map = [](const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
    return macro_step_map(true, j, h, slow, ratio);
  };
  parallel.hooks.step_map_layout = [](const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
    return macro_step_layout(true, j, h, slow, ratio);
  };
  SchemeInfo abm4 = paper_form("abm4", 4, "single-rate Adams-Bashforth-Moulton 4 PECE, seed 004's reference", 2);
  abm4.traits.analysable = true;
  abm4.traits.uniform = true;
  abm4.hooks.reference_run = [](const GridSetup& s) { return run(AdamsScheme::kAbm4, s); };
  abm4.hooks.grid_step_map = [](const Eigen::MatrixXd& j, double h, std::size_t slow, int) {
    return abm4_step_map(j, h, slow);
  };
  SchemeInfo sync = paper_form("mrabm4_sync", 4, "serial multirate ABM4 as the paper states it, seed 004", 2);
  sync.hooks.reference_run = [](const GridSetup& s) { return run(AdamsScheme::kMrabm4Sync, s); };
  SchemeInfo parallel_sync =
      paper_form("mrabm4_parallel_sync", 4, "parallel multirate ABM4 as the paper states it, seed 004", 4);
  parallel_sync.hooks.reference_run = [](const GridSetup& s) { return run(AdamsScheme::kMrabm4ParallelSync, s); };
  return {serial, parallel, abm4, sync, parallel_sync};
}

}  // namespace dualrate
