// `dualrate verify-system`: several generated models' dual-rate tasks on one Cortex-M core.
// A system file (YAML) lists the models with their schemes and rates and the run's end time:
//   name: flight_ecu
//   t_end: 0.2
//   models:
//     - file: aircraft_pitch.yaml     # relative to the system file
//       scheme: mrabm4_parallel       # a dual-rate scheme
//       step: 1.0e-4                  # optional: the model's simulation.step
//       ratio: 10                     # optional: the model's simulation.ratio
//       overrun: skip                 # optional: skip or defer (dualrate/dual_rate.hpp)
//       scalar: double                # optional: float or double (default: the target's)
// Each model is verified alone first (its sequential run on the target against the reference
// core and the host); then one program (targets/cortex-m/system_main.cpp) runs every task
// rate-monotonically, one interrupt per task under a SysTick dispatcher at the base tick (the
// largest step that divides every h), and each model's trace must equal its own sequential
// run's bit for bit. The combined response-time analysis (verify/budget.hpp's schedule_task_set) is
// made from the jobs counted in the sequential runs and the handlers and dispatcher counted in
// the preemptive one. Each model's answer is measured as verify measures it (verify/accuracy.hpp:
// its sequential run on the target against the high-accuracy solution, which the system run
// equals bit for bit) and judged against its simulation: tolerance: where it has one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "verify/budget.hpp"
#include "base/diagnostics.hpp"
#include "verify/verify.hpp"

namespace dualrate {

struct SystemModel {
  SourceLoc loc;     // the entry in the system file
  std::string file;  // resolved path
  std::string scheme;
  SourceLoc scheme_loc;
  std::optional<double> step;
  std::optional<int> ratio;
  OverrunHandling overrun_handling = OverrunHandling::kSkip;
  std::string scalar;  // float or double; empty: the target's default
};

struct SystemSpec {
  std::string file, name;
  double t_end = 0;
  std::vector<SystemModel> models;
};

// Reads a system file; problems are ModelErrors at their position.
SystemSpec load_system_file(const std::string& path);

struct SystemOptions {
  std::string target = "cortex-m4f";
  double cpu_hz = 0, cpi = 0;  // 0: the target's part
  std::string keep_dir;
  std::string generator_version;  // written into the generated headers
};

struct SystemResult {
  std::string name, target;
  double base_tick = 0;
  std::vector<VerifyResult> models;  // each alone, sequential run on the target
  // Per model, its counts in the system's run (ticks, overruns, handler instructions) and
  // bit_exact_vs_single: its trace there equals its own sequential run's.
  std::vector<TaskRun> runs;
  long dispatcher_instructions = -1;
  std::optional<TaskSetBudget> budget;
  bool pass = false;
  std::string error;
  std::string directory;

  // Every model whose accuracy is judged is within its tolerance (none judged: nullopt).
  std::optional<bool> accurate() const;
  bool pass_all() const { return pass && accurate().value_or(true); }
  std::string json() const;
  std::string text() const;
};

SystemResult verify_system(const SystemSpec& spec, const SystemOptions& options);

}  // namespace dualrate
