// The real-time budget of generated tasks on a part: measured instructions per job (QEMU,
// sequential executive) turned into cycles at an assumed CPI, the utilization, and the
// classic response-time analysis of fixed-priority preemptive scheduling (the fast task every
// h above the slow task every H = r h, each job's deadline its next release):
//   R_fast = C_fast + O                                   <= h
//   R_slow = C_slow + O + ceil(R_slow / h) (C_fast + O)   <= H   (iterated from C_slow + O)
// with O each job's interrupt entry and exit on the part plus its handler's own instructions
// (HandlerInstructions, once measured). Single-rate models have the fast task only.
// On two cores (cortex-m33-dual: the slow task on core 1) nothing preempts the slow task:
//   R_slow = C_slow + O                                   <= H
// The cycles are an estimate: instruction counts are exact and bounded (generated steps have no
// data-dependent loops), the CPI and the part's memory system are assumptions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "targets/cross_target.hpp"

namespace dualrate {

// A task's jobs' instructions, counted in a sequential run.
struct JobCost {
  long instructions_max = 0;
  double instructions_mean = 0;
};

// Each task's interrupt handler's own instructions around its jobs (bookkeeping, the release),
// measured in the preemptive run; 0 before it ran. Part of the task's O.
struct HandlerInstructions {
  long fast = 0, slow = 0;
};

struct Budget {
  std::string part;
  double cpu_hz = 0, cpi = 1;
  long overhead_cycles = 0;                     // interrupt entry and exit on the part, per job
  double fast_overhead = 0, slow_overhead = 0;  // O of each task: that plus its handler's instructions x CPI
  double fast_cycles_max = 0;
  std::optional<double> slow_cycles_max;  // the slow task's, as its response: dual-rate only
  double fast_response = 0;               // seconds
  std::optional<double> slow_response;
  double utilization = 0;
  bool schedulable = false;
  double margin = 0;      // min over the tasks of 1 - R / deadline
  double min_cpu_hz = 0;  // the smallest clock at which the tasks are schedulable
  std::string verdict;    // which task misses its deadline, with its cycles and budget; empty if none
  int slow_core = 0;      // the core the slow task runs on (the fast task's is 0)
  double fast_core_utilization = 0, slow_core_utilization = 0;  // of core 0, and of core 1 when slow_core is 1

  std::string json() const;  // fields to append to an object, each after a comma
};

// `slow` absent: a single-rate scheme's fast task alone.
Budget schedule(const JobCost& fast, const std::optional<JobCost>& slow, double h, int ratio, const std::string& part,
                double cpu_hz, double cpi, long overhead_cycles, int slow_core = 0,
                const HandlerInstructions& handlers = {});

// Any set of periodic tasks on one core (one model's two tasks above; several models' in
// verify-system): each task's job and overhead in cycles, its period (also its deadline) and
// its priority (rate-monotonic: a lower number preempts; equal numbers do not preempt each
// other, and the analysis counts them as interfering both ways). Response times by the same
// iteration as above, over every task of higher or equal priority on the same core; the
// smallest clock by bisection (schedulability is monotone in the clock).
struct PeriodicTask {
  std::string name;
  double period = 0;  // seconds
  int priority = 0;
  double cycles = 0;    // the largest job's cycles (instructions x CPI)
  double overhead = 0;  // O: interrupt entry and exit plus the handler's own cycles
  double response = 0;  // seconds, from the analysis
  int core = 0;
};

struct TaskSetBudget {
  std::string part;
  double cpu_hz = 0, cpi = 1;
  std::vector<PeriodicTask> tasks;
  double utilization = 0;
  bool schedulable = false;
  double margin = 0;
  double min_cpu_hz = 0;
  std::string verdict;  // the first task (in the given order) that misses, with its cycles and budget
};

TaskSetBudget schedule_task_set(std::vector<PeriodicTask> tasks, const std::string& part, double cpu_hz, double cpi);

// The clock and CPI of the part a cross target's budget is for: those given (positive), else
// the target's typical part's.
struct PartRate {
  double cpu_hz, cpi;
};
PartRate part_rate(const CrossTarget& target, double cpu_hz, double cpi);
// A warning when `cpu_hz` (--cpu-hz) is above the clock of the target's typical part (its
// fastest), or empty.
std::string clock_warning(const CrossTarget& target, double cpu_hz);

// Why a set of tasks is refused: "SUBJECT not schedulable on PART at ... MHz (CPI ..., an
// estimate): VERDICT; the smallest clock that schedules OBJECT is ... MHz".
std::string not_schedulable_message(const std::string& subject, const std::string& object, const std::string& part,
                                    double cpu_hz, double cpi, const std::string& verdict, double min_cpu_hz);

}  // namespace dualrate
