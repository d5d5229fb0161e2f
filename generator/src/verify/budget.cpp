#include "verify/budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dualrate {

namespace {

// Response times in cycles of fixed-priority preemptive tasks with periods (= deadlines) and
// demands in cycles: R_i = D_i + sum over the other tasks j on i's core of at least i's priority (a
// lower number; an equal one counts, as the two may be released together) of
// ceil(R_i / T_j) D_j, iterated from D_i to its fixed point or until it passes T_i (the
// value then only says that it missed).
std::vector<double> response_times(const std::vector<double>& periods, const std::vector<double>& demands,
                                   const std::vector<int>& priorities, const std::vector<int>& cores) {
  std::vector<double> r(periods.size());
  for (std::size_t i = 0; i < periods.size(); ++i) {
    double response = demands[i];
    for (int step = 0; step < 1000; ++step) {
      double next = demands[i];
      for (std::size_t j = 0; j < periods.size(); ++j)
        if (j != i && cores[j] == cores[i] && priorities[j] <= priorities[i])
          next += std::ceil(response / periods[j]) * demands[j];
      if (next == response) break;
      response = next;
      if (response > periods[i]) break;
    }
    r[i] = response;
  }
  return r;
}

}  // namespace

Budget schedule(const JobCost& fast, const std::optional<JobCost>& slow, double h, int ratio, const std::string& part,
                double cpu_hz, double cpi, long overhead_cycles, int slow_core, const HandlerInstructions& handlers) {
  Budget b;
  b.slow_core = slow_core;
  b.part = part;
  b.cpu_hz = cpu_hz;
  b.cpi = cpi;
  b.overhead_cycles = overhead_cycles;
  const auto overhead = [&](long handler) {
    return static_cast<double>(overhead_cycles) + static_cast<double>(handler) * cpi;
  };
  b.fast_cycles_max = static_cast<double>(fast.instructions_max) * cpi;
  b.fast_overhead = overhead(handlers.fast);
  std::vector<PeriodicTask> tasks = {{"fast", h, 0, b.fast_cycles_max, b.fast_overhead, 0}};
  if (slow) {
    b.slow_cycles_max = static_cast<double>(slow->instructions_max) * cpi;
    b.slow_overhead = overhead(handlers.slow);
    tasks.push_back({"slow", h * ratio, 1, *b.slow_cycles_max, b.slow_overhead, 0, slow_core});
  }
  const TaskSetBudget set = schedule_task_set(tasks, part, cpu_hz, cpi);
  b.fast_response = set.tasks[0].response;
  if (slow) b.slow_response = set.tasks[1].response;
  b.utilization = set.utilization;
  b.schedulable = set.schedulable;
  b.margin = set.margin;
  b.min_cpu_hz = set.min_cpu_hz;
  b.fast_core_utilization = (b.fast_cycles_max + b.fast_overhead) / (h * cpu_hz);
  const double slow_utilization = slow ? (*b.slow_cycles_max + b.slow_overhead) / (h * ratio * cpu_hz) : 0;
  (slow_core == 0 ? b.fast_core_utilization : b.slow_core_utilization) += slow_utilization;
  const double fast_total = b.fast_cycles_max + b.fast_overhead;
  if (b.fast_response > h)
    b.verdict = fmt::format(
        "the fast task needs {:.0f} cycles per job ({:.0f} of its code at CPI {:.3g}, {:.0f} of "
        "interrupt entry, exit and handler) but has {:.0f}: its period h = {:.6g} s at {:.6g} MHz",
        fast_total, b.fast_cycles_max, cpi, b.fast_overhead, h * cpu_hz, h, cpu_hz / 1e6);
  else if (slow && !b.schedulable && slow_core != 0)
    b.verdict = fmt::format(
        "the slow task needs {:.0f} cycles per job on core {} ({:.0f} of its code at CPI {:.3g}, "
        "{:.0f} of interrupt entry, exit and handler) but has {:.0f}: its period H = {} h = {:.6g} s "
        "at {:.6g} MHz",
        *b.slow_response * cpu_hz, slow_core, *b.slow_cycles_max, cpi, b.slow_overhead, h * ratio * cpu_hz, ratio,
        h * ratio, cpu_hz / 1e6);
  else if (slow && !b.schedulable)
    b.verdict = fmt::format(
        "the slow task's response time is {:.0f} cycles ({:.0f} of its own code at CPI {:.3g}, "
        "preempted by fast jobs of {:.0f} cycles each) but its budget is {:.0f}: its period H = "
        "{} h = {:.6g} s at {:.6g} MHz",
        *b.slow_response * cpu_hz, *b.slow_cycles_max, cpi, fast_total, h * ratio * cpu_hz, ratio, h * ratio,
        cpu_hz / 1e6);
  return b;
}

std::string Budget::json() const {
  std::string s = fmt::format(
      ",\"part\":\"{}\",\"cpu_hz\":{:.17g},\"cpi\":{:.17g},\"interrupt_entry_exit_cycles\":{},"
      "\"fast_job_cycles_max\":{:.17g},\"fast_overhead_cycles\":{:.17g},\"fast_response_time\":{:.17g}",
      part, cpu_hz, cpi, overhead_cycles, fast_cycles_max, fast_overhead, fast_response);
  if (slow_cycles_max)
    s += fmt::format(",\"slow_job_cycles_max\":{:.17g},\"slow_overhead_cycles\":{:.17g},\"slow_response_time\":{:.17g}",
                     *slow_cycles_max, slow_overhead, *slow_response);
  s += fmt::format(",\"utilization\":{:.6g},\"schedulable\":{},\"margin\":{:.6g},\"min_cpu_hz\":{:.6g}", utilization,
                   schedulable ? "true" : "false", margin, min_cpu_hz);
  const bool dual = slow_cycles_max.has_value();
  if (slow_core == 0)
    return s + fmt::format(",\"cores\":[{{\"core\":0,\"tasks\":[{}],\"utilization\":{:.6g}}}]",
                           dual ? "\"fast\",\"slow\"" : "\"fast\"", fast_core_utilization);
  return s + fmt::format(
                 ",\"cores\":[{{\"core\":0,\"tasks\":[\"fast\"],\"utilization\":{:.6g}}},"
                 "{{\"core\":{},\"tasks\":[\"slow\"],\"utilization\":{:.6g}}}]",
                 fast_core_utilization, slow_core, slow_core_utilization);
}

TaskSetBudget schedule_task_set(std::vector<PeriodicTask> tasks, const std::string& part, double cpu_hz, double cpi) {
  TaskSetBudget b;
  b.part = part;
  b.cpu_hz = cpu_hz;
  b.cpi = cpi;
  std::vector<int> priorities, cores;
  std::vector<double> demands;
  for (const auto& t : tasks) {
    priorities.push_back(t.priority);
    cores.push_back(t.core);
    demands.push_back(t.cycles + t.overhead);
    b.utilization += (t.cycles + t.overhead) / (t.period * cpu_hz);
  }
  const auto periods_at = [&](double hz) {
    std::vector<double> p;
    p.reserve(tasks.size());
    for (const auto& t : tasks) p.push_back(t.period * hz);
    return p;
  };
  const auto fits = [&](double hz) {
    const std::vector<double> p = periods_at(hz), r = response_times(p, demands, priorities, cores);
    for (std::size_t i = 0; i < r.size(); ++i)
      if (r[i] > p[i]) return false;
    return true;
  };
  const std::vector<double> r = response_times(periods_at(cpu_hz), demands, priorities, cores);
  b.schedulable = true;
  b.margin = 1;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    PeriodicTask& t = tasks[i];
    t.response = r[i] / cpu_hz;
    b.margin = std::min(b.margin, 1 - t.response / t.period);
    if (t.response > t.period && b.schedulable) {
      b.schedulable = false;
      b.verdict = fmt::format(
          "the task {} has a response time of {:.0f} cycles ({:.0f} of its own code at CPI {:.3g}, "
          "{:.0f} of interrupt entry, exit and handler, the rest preemption by higher-rate tasks) "
          "but a budget of {:.0f}: its period {:.6g} s at {:.6g} MHz",
          t.name, r[i], t.cycles, cpi, t.overhead, t.period * cpu_hz, t.period, cpu_hz / 1e6);
    }
  }
  b.tasks = tasks;
  double lo = 1, hi = cpu_hz;
  while (!fits(hi)) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-6 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (fits(mid) ? hi : lo) = mid;
  }
  b.min_cpu_hz = hi;
  return b;
}

PartRate part_rate(const CrossTarget& target, double cpu_hz, double cpi) {
  return {cpu_hz > 0 ? cpu_hz : target.part_hz, cpi > 0 ? cpi : target.cpi};
}

std::string clock_warning(const CrossTarget& target, double cpu_hz) {
  if (cpu_hz <= target.part_hz * (1 + 1e-12)) return "";
  return fmt::format(
      "--cpu-hz {:.6g} MHz is above the {:.6g} MHz of {}'s typical part ({}): the budget is for a "
      "faster part than that",
      cpu_hz / 1e6, target.part_hz / 1e6, target.name, target.part);
}

std::string not_schedulable_message(const std::string& subject, const std::string& object, const std::string& part,
                                    double cpu_hz, double cpi, const std::string& verdict, double min_cpu_hz) {
  return fmt::format(
      "{} not schedulable on {} at {:.6g} MHz (CPI {:.3g}, an estimate): {}; the smallest clock that "
      "schedules {} is {:.4g} MHz",
      subject, part, cpu_hz / 1e6, cpi, verdict, object, min_cpu_hz / 1e6);
}

}  // namespace dualrate
