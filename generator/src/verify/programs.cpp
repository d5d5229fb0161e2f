// Building and running the programs verify compares (host, Cortex-M under QEMU, the dual-rate task programs).
#include "verify/programs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>
#include <variant>

#include "base/data_paths.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "targets/build.hpp"
#include "model/tunable.hpp"
#include "verify/calibration_writes.hpp"
#include "verify/local_check.hpp"

namespace dualrate {

namespace {

// A number of a program's count line, all of the word or nothing (a line cut short or mixed
// with other output is refused instead of read in part or thrown on).
template <class T>
bool parse_number(const std::string& word, T& value) {
  const char* end = word.data() + word.size();
  const auto parsed = std::from_chars(word.data(), end, value);
  return parsed.ec == std::errc() && parsed.ptr == end;
}

std::string malformed_count(const std::string& where, const std::vector<std::string>& words) {
  std::string line;
  for (const auto& w : words) line += " " + w;
  return fmt::format(
      "the program on {} printed a malformed count line '#{}' (its output was cut short or mixed "
      "with other output)",
      where, line.substr(0, 200));
}

// The host compiler command for generated code: $CXX, else the generator's default (c++; in a
// sanitized build the generator's own compiler with its sanitizers, so that host verification
// runs the generated code under them too, and links the sanitized portable libm).
std::vector<std::string> host_compiler() {
  std::vector<std::string> argv = {std::getenv("CXX") ? std::getenv("CXX") : DUALRATE_HOST_CXX};
  for (const auto& f : split(DUALRATE_HOST_CXX_FLAGS, ' '))
    if (!f.empty()) argv.push_back(f);
  return argv;
}

// The Linux task programs (cortex-a53-linux and the host): runs in all of a run that overruns
// while the fast thread woke late (host_scheduling_noise): neither qemu-user nor a kernel
// without real-time guarantees bounds the wake-up latency (docs/real-time.md).
constexpr int kNoiseAttempts = 3;

// Runs a real-time run on a host-timed executive (Linux threads), and again, up to
// kNoiseAttempts runs in all, while it failed only as host scheduling noise.
template <class Run>
std::string retrying_noise(TaskRun& t, bool host_timed, Run run) {
  std::string error = run();
  while (host_timed && error.empty() && host_scheduling_noise(t) && t.noise_retries + 1 < kNoiseAttempts) {
    ++t.noise_retries;
    error = run();
  }
  return error;
}

// The budget of the jobs counted in r, with the handlers' instructions once the preemptive run
// measured them; none without a fast job counted.
std::optional<Budget> budget_of(const TaskPlan& plan, const VerifyResult& r) {
  if (!r.fast_job) return std::nullopt;
  HandlerInstructions handlers;
  if (r.task_run) {
    handlers.fast = r.task_run->fast_handler_instructions.value_or(0);
    handlers.slow = r.task_run->slow_handler_instructions.value_or(0);
  }
  return schedule(*r.fast_job, r.slow_job, plan.h, plan.ratio, plan.target->part, plan.cpu_hz, plan.cpi,
                  plan.target->exception_cycles, plan.slow_core, handlers);
}

std::string not_schedulable(const Budget& b) {
  return not_schedulable_message("the tasks are", "them", b.part, b.cpu_hz, b.cpi, b.verdict, b.min_cpu_hz);
}

enum class CountLine { kOther, kRead, kMalformed };

// A '# fast_job_instructions MAX TOTAL JOBS' line (or slow_...) of a task program or of
// count_jobs.sh into r. A kind with no jobs stays unmeasured.
CountLine read_job_instructions(const std::vector<std::string>& words, VerifyResult& r) {
  if (words.size() != 4 || (words[0] != "fast_job_instructions" && words[0] != "slow_job_instructions"))
    return CountLine::kOther;
  double jobs = 0, total = 0;
  long max = 0;
  if (!parse_number(words[1], max) || !parse_number(words[2], total) || !parse_number(words[3], jobs))
    return CountLine::kMalformed;
  if (jobs < 1) return CountLine::kRead;
  (words[0] == "fast_job_instructions" ? r.fast_job : r.slow_job) = JobCost{max, total / jobs};
  return CountLine::kRead;
}

}  // namespace

std::string run_host_trace(const fs::path& dir, const std::vector<std::string>& flags, bool hex,
                           const std::string& name, const std::string& csv, long steps, int every,
                           std::string& script) {
  std::vector<std::string> argv = host_compiler();
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-DEIGEN_RUNTIME_NO_MALLOC");
  if (hex) argv.push_back("-DDUALRATE_TRACE_HEX");
  argv.insert(argv.end(), {(data_paths().targets / "host" / "trace_main.cpp").string(),
                           portable_math_library("host", "libm"), "-o", (dir / name).string()});
  script += command_line(argv) + "\n";
  const ProcessResult built = build_program(argv, dir);
  if (built.exit_code != 0) return "the generated code did not compile:\n" + built.output;
  const std::vector<std::string> run = {(dir / name).string(), std::to_string(steps), std::to_string(every),
                                        (dir / csv).string()};
  script += command_line(run) + "\n";
  const ProcessResult ran = run_process(run);
  write_file(dir / (name + ".log"), ran.output);
  return ran.exit_code == 0 ? "" : "the generated code failed on the host: " + ran.output;
}

std::string run_on_target(const CrossTarget& target, const fs::path& dir, const std::vector<std::string>& flags,
                          long steps, int every, VerifyResult& r, std::string& script) {
  const std::vector<std::string> argv =
      cortex_m_build(target, flags, {fmt::format("-DDUALRATE_ICOUNT_SHIFT={}", kIcountShift)},
                     (data_paths().targets / "cortex-m" / "trace_main.cpp").string(), dir / "trace.elf");
  script += command_line(argv) + "\n";
  const ProcessResult built = build_program(argv, dir);
  if (built.exit_code != 0)
    return "the generated code did not cross-build for " + std::string(target.name) + ":\n" + built.output;

  std::string heap = heap_function(dir / "trace.elf");
  if (!heap.empty()) return heap;
  const ProcessResult size = run_process({"arm-none-eabi-size", (dir / "trace.elf").string()});
  const auto size_lines = split(size.output, '\n');
  if (size.exit_code != 0 || size_lines.size() < 2) return "arm-none-eabi-size failed: " + size.output;
  std::istringstream sizes(size_lines[1]);
  TargetCost& cost = r.target_cost.emplace();
  cost.sections.emplace();
  sizes >> cost.sections->text >> cost.sections->data >> cost.sections->bss;

  const std::vector<std::string> run =
      qemu_system(target, kIcountShift, dir / "trace.elf", fmt::format("{} {}", steps, every));
  script += command_line(run) + " > target.txt\n";
  const ProcessResult ran = run_process(run);
  write_file(dir / "target.txt", ran.output);
  const ProgramOutput out = split_output(ran.output);
  if (ran.exit_code != 0)
    return fmt::format("the trace program failed on {} (exit status {}{}):\n{}", target.name, ran.exit_code,
                       ran.exit_code == 124 ? ", timed out" : "", out.messages.substr(0, 4000));
  for (const auto& words : out.counts) {
    if (words.size() == 4 && words[0] == "instructions_per_step" && steps > 0) {
      double total = 0;
      long min = 0, max = 0;
      if (!parse_number(words[1], total) || !parse_number(words[2], min) || !parse_number(words[3], max))
        return malformed_count(target.name, words);
      cost.instructions = StepInstructions{total / static_cast<double>(steps), min, max};
    } else if (words.size() == 3 && words[0] == "calibration_cost") {
      CalibrationCost& c = r.calibration_cost.emplace();
      if (!parse_number(words[1], c.instructions) || !parse_number(words[2], c.stack_bytes))
        return malformed_count(target.name, words);
    } else if (words.size() == 2 && words[0] == "stack_bytes") {
      if (!parse_number(words[1], cost.stack_bytes.emplace())) return malformed_count(target.name, words);
    } else if (words.size() == 3 && words[0] == "stack_bytes" && words[1] == "overflow") {
      return fmt::format(
          "a step used all of the stack on {} (at least {} bytes): the painted region was "
          "overwritten to its end",
          target.name, words[2]);
    }
  }
  write_file(dir / "generated.csv", out.trace);
  return "";
}

Budget budget_of(const CrossTarget& target, const VerifyResult& r, double h, int ratio, double cpu_hz, double cpi) {
  return schedule(*r.fast_job, r.slow_job, h, ratio, target.part, cpu_hz, cpi, target.exception_cycles);
}

namespace {

// Where a task program's count line goes in TaskRun, by its name.
using TaskCount =
    std::variant<std::optional<long> TaskRun::*, std::optional<int> TaskRun::*, std::optional<bool> TaskRun::*>;
const std::map<std::string, TaskCount>& task_counts() {
  static const std::map<std::string, TaskCount> counts = {
      {"ticks", &TaskRun::ticks},
      {"slow_jobs", &TaskRun::slow_jobs},
      {"slow_overruns", &TaskRun::slow_overruns},
      {"fast_overruns", &TaskRun::fast_overruns},
      {"preempted_ticks", &TaskRun::preempted_ticks},
      {"deferred_releases", &TaskRun::deferred_releases},
      {"longest_wait", &TaskRun::longest_wait},
      {"sched_fifo", &TaskRun::sched_fifo},
      {"tick_cycles", &TaskRun::tick_cycles},
      {"late_ticks", &TaskRun::late_ticks},
      {"shared_overruns", &TaskRun::shared_overruns},
      {"max_latency_ns", &TaskRun::max_latency_ns},
      {"fast_handler_instructions", &TaskRun::fast_handler_instructions},
      {"slow_handler_instructions", &TaskRun::slow_handler_instructions},
      {"slow_core", &TaskRun::slow_core},
      {"fast_core", &TaskRun::fast_core},
  };
  return counts;
}

}  // namespace

bool read_task_count(const std::vector<std::string>& words, TaskRun& t) {
  long value = 0;
  if (words.size() != 2 || !parse_number(words[1], value)) return false;
  const auto count = task_counts().find(words[0]);
  if (count == task_counts().end()) return false;
  std::visit(
      [&](auto member) {
        auto& field = t.*member;
        field = static_cast<typename std::decay_t<decltype(field)>::value_type>(value);
      },
      count->second);
  return true;
}

long task_trace_rows(long steps, int ratio, int every) { return std::min(steps / ratio + 1, steps / every + 2); }

namespace {

// The command that builds targets/linux/<main_source> into `exe` for `target` (aarch64, static)
// or, when null, for the host (with Eigen's heap check).
std::vector<std::string> linux_build(const CrossTarget* target, const std::vector<std::string>& flags,
                                     const std::vector<std::string>& defines, const std::string& main_source,
                                     const fs::path& exe) {
  std::vector<std::string> argv = target ? std::vector<std::string>{"aarch64-linux-gnu-g++"} : host_compiler();
  if (target)
    for (const auto& f : split(target->cpu_flags, ' ')) argv.push_back(f);
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), defines.begin(), defines.end());
  if (!target) argv.push_back("-DEIGEN_RUNTIME_NO_MALLOC");
  argv.insert(argv.end(), {"-pthread", (data_paths().targets / "linux" / main_source).string(),
                           portable_math_library(target ? target->name : "host", "libm"), "-o", exe.string()});
  if (target) argv.push_back("-static");
  return argv;
}

// Builds the task program for plan.target (host when null) into `exe`; returns why not, or empty.
std::string build_tasks(const TaskPlan& plan, const std::vector<std::string>& flags, const fs::path& exe,
                        std::string& script) {
  const std::vector<std::string> defines = {"-DDUALRATE_TRACE_HEX", fmt::format("-DDUALRATE_TRACE_ROWS={}", plan.rows)};
  std::vector<std::string> argv;
  const CrossTarget* t = plan.target;
  if (t && !t->linux_user) {
    std::vector<std::string> cortex_m = defines;
    cortex_m.push_back(fmt::format("-DDUALRATE_ICOUNT_SHIFT={}", plan.icount_shift));
    const char* main_source = plan.slow_core == 1 ? "dual_core_main.cpp" : "tasks_main.cpp";
    argv = cortex_m_build(*t, flags, cortex_m, (data_paths().targets / "cortex-m" / main_source).string(), exe);
  } else {
    argv = linux_build(t, flags, defines, "tasks_main.cpp", exe);
  }
  script += command_line(argv) + "\n";
  const ProcessResult built = build_program(argv, exe.parent_path());
  if (built.exit_code != 0)
    return fmt::format("the task program did not build for {}:\n{}", t ? t->name : "host", built.output);
  return t && !t->linux_user ? heap_function(exe) : "";
}

// Runs the task program `exe` in `mode` (single, multi); writes the trace to `csv` and, for
// multi, the executive's counts into r. Returns why it failed, or empty.
std::string run_tasks(const TaskPlan& plan, const fs::path& exe, const std::string& mode, const fs::path& csv,
                      VerifyResult& r, std::string& script) {
  const CrossTarget* t = plan.target;
  const std::string macro = std::to_string(plan.macro_steps), every = std::to_string(plan.every),
                    delay = std::to_string(plan.slow_delay_ticks);
  std::vector<std::string> run;
  if (t && !t->linux_user) {
    std::string args = mode + " " + macro + " " + every + " " + delay;
    if (plan.tick_cycles > 0) args += " " + std::to_string(plan.tick_cycles);
    run = qemu_system(*t, plan.icount_shift, exe, args);
  } else {
    if (t) run = {"timeout", "-k", "5", "900", "qemu-aarch64"};
    run.insert(run.end(), {exe.string(), mode, macro, every, csv.string(), delay});
  }
  script += command_line(run) + "\n";
  const ProcessResult ran = run_process(run);
  const std::string where = t ? t->name : "host";
  write_file(csv.string() + ".out", ran.output);
  const ProgramOutput out = split_output(ran.output);
  std::string failed =
      ran.exit_code == 0
          ? ""
          : fmt::format("the {} task program failed on {} (exit status {}{}):\n{}", mode, where, ran.exit_code,
                        ran.exit_code == 124 ? ", timed out" : "", out.messages.substr(0, 4000));
  for (const auto& words : out.counts) {
    const CountLine line = read_job_instructions(words, r);
    if (line == CountLine::kMalformed) return malformed_count(where, words);
    if (line == CountLine::kRead) continue;
    if (words.size() == 2 && words[1] == "unmeasured")
      return fmt::format("a job on {} ran through a whole SysTick period and could not be counted ({})", where,
                         words[0]);
    if (mode == "multi") read_task_count(words, *r.task_run);
  }
  if (!failed.empty()) return failed;
  if (t && !t->linux_user) write_file(csv, out.trace);
  TaskRun& counts = *r.task_run;
  if (mode == "multi" && counts.slow_overruns && counts.fast_overruns)
    counts.overruns = *counts.slow_overruns + *counts.fast_overruns;
  return "";
}

// cortex-a53-linux: the instructions of each job of a sequential run (the program in its count
// mode with `args`), counted from qemu-aarch64's log of every executed instruction
// (targets/linux/count_jobs.sh). `slow`: the program has slow jobs (dual-rate tasks).
std::string count_linux_jobs(const CrossTarget& target, const fs::path& exe, const std::vector<std::string>& args,
                             bool slow, VerifyResult& r, std::string& script) {
  std::vector<std::string> argv = {(data_paths().targets / "linux" / "count_jobs.sh").string(), exe.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  script += command_line(argv) + "\n";
  const ProcessResult counted = run_process(argv);
  if (counted.exit_code != 0)
    return fmt::format("counting the jobs' instructions on {} failed (exit status {}):\n{}", target.name,
                       counted.exit_code, counted.output.substr(0, 4000));
  for (const auto& words : split_output(counted.output).counts)
    if (read_job_instructions(words, r) == CountLine::kMalformed) return malformed_count(target.name, words);
  if (!r.fast_job || (slow && !r.slow_job))
    return "counting the jobs' instructions on " + std::string(target.name) + " found no jobs";
  return "";
}

// Runs the Linux trace program `exe` (qemu-aarch64) in `mode` writing `csv`; its count lines
// into t. Returns why it failed, or empty.
std::string run_linux_trace_mode(const CrossTarget& target, const fs::path& exe, const std::string& mode, long steps,
                                 int every, const fs::path& csv, TaskRun& t, std::string& script) {
  const std::vector<std::string> run = {
      "timeout",   "-k", "5", "900", "qemu-aarch64", exe.string(), mode, std::to_string(steps), std::to_string(every),
      csv.string()};
  script += command_line(run) + "\n";
  const ProcessResult ran = run_process(run);
  const ProgramOutput out = split_output(ran.output);
  if (ran.exit_code != 0)
    return fmt::format("the {} trace program failed on {} (exit status {}{}):\n{}", mode, target.name, ran.exit_code,
                       ran.exit_code == 124 ? ", timed out" : "", out.messages.substr(0, 4000));
  for (const auto& words : out.counts)
    if (!read_task_count(words, t)) return malformed_count(target.name, words);
  t.overruns = t.fast_overruns;
  return "";
}

}  // namespace

std::string run_linux_trace(const CrossTarget& target, const fs::path& dir, const std::vector<std::string>& flags,
                            long steps, int every, VerifyResult& r, std::string& script) {
  const fs::path exe = dir / "trace_target";
  const std::vector<std::string> argv = linux_build(&target, flags, {"-DDUALRATE_TRACE_HEX"}, "trace_main.cpp", exe);
  script += command_line(argv) + "\n";
  const ProcessResult built = build_program(argv, dir);
  if (built.exit_code != 0)
    return fmt::format("the trace program did not build for {}:\n{}", target.name, built.output);
  // The back-to-back run's counts are not the periodic task's: not kept.
  TaskRun back_to_back;
  std::string error =
      run_linux_trace_mode(target, exe, "single", steps, every, dir / "generated.csv", back_to_back, script);
  // Counted with rows only at the ends (formatting a row costs more than a step), over the
  // first kLinuxCountedSteps steps: qemu-aarch64 logs each instruction, about 660000 a second
  // (planar_vehicle's quasistatic step has 286787: its 2000 steps would take 15 minutes).
  const long counted = std::min(steps, kLinuxCountedSteps);
  if (error.empty())
    error = count_linux_jobs(target, exe, {"count", std::to_string(counted), std::to_string(counted), "/dev/null"},
                             false, r, script);
  TargetCost& cost = r.target_cost.emplace();
  cost.counted_steps = counted;
  if (!error.empty()) return error;
  cost.instructions = StepInstructions{r.fast_job->instructions_mean, std::nullopt, r.fast_job->instructions_max};
  TaskRun& periodic = r.task_run.emplace();
  periodic.tasks = Tasks::kPeriodic;
  error = retrying_noise(periodic, true, [&] {
    return run_linux_trace_mode(target, exe, "periodic", steps, every, dir / "periodic.csv", periodic, script);
  });
  if (!error.empty()) return error;
  periodic.bit_exact_vs_single = read_file(dir / "periodic.csv") == read_file(dir / "generated.csv");
  return "";
}

fs::path sequential_trace(const fs::path& dir, const CrossTarget* target) {
  return dir / (target ? "single.csv" : "host_single.csv");
}

std::string run_dual_rate(const TaskPlan& plan, Tasks tasks, const fs::path& dir, const std::vector<std::string>& flags,
                          VerifyResult& r, std::string& script) {
  TaskPlan host = plan;
  host.target = nullptr;
  std::string error = build_tasks(host, flags, dir / "tasks_host", script);
  if (error.empty()) error = run_tasks(host, dir / "tasks_host", "single", sequential_trace(dir, nullptr), r, script);
  if (!error.empty()) return error;
  fs::path single = sequential_trace(dir, nullptr);
  const fs::path exe = dir / (plan.target ? (plan.target->linux_user ? "tasks_target" : "tasks.elf") : "tasks_host");
  if (plan.target) {
    error = build_tasks(plan, flags, exe, script);
    if (error.empty()) error = run_tasks(plan, exe, "single", sequential_trace(dir, plan.target), r, script);
    if (!error.empty()) return error;
    single = sequential_trace(dir, plan.target);
    r.bit_exact_vs_host = read_file(single) == read_file(dir / "host_single.csv");
    if (!plan.target->linux_user) {
      r.budget = budget_of(plan, r);
      if (r.budget && !r.budget->schedulable) return not_schedulable(*r.budget);
    } else {
      // Reported, not enforced: the threads run on an emulated, non-real-time host.
      error = count_linux_jobs(
          *plan.target, exe, {"count", std::to_string(plan.macro_steps), std::to_string(plan.every), "/dev/null", "0"},
          true, r, script);
      if (!error.empty()) return error;
      r.budget = budget_of(plan, r);
    }
  }
  if (tasks == Tasks::kMulti) {
    error = retrying_noise(*r.task_run, !plan.target || plan.target->linux_user,
                           [&] { return run_tasks(plan, exe, "multi", dir / "generated.csv", r, script); });
    if (r.budget && !plan.target->linux_user) {  // again with the handlers' instructions measured in the preemptive run
      r.budget = budget_of(plan, r);
      if (r.budget && !r.budget->schedulable)
        return not_schedulable(*r.budget) + (error.empty() ? "" : "; the run: " + error);
    }
    if (!error.empty()) return error;
    if (plan.slow_core == 1 && (r.task_run->fast_core != 0 || r.task_run->slow_core != 1))
      return fmt::format("the task program on {} did not report the fast task on core 0 and the slow task on core 1",
                         plan.target->name);
    r.task_run->bit_exact_vs_single =
        read_file(dir / "generated.csv") == trace_text_without_local_columns(read_file(single));
  } else {
    fs::copy_file(single, dir / "generated.csv", fs::copy_options::overwrite_existing);
  }
  return "";
}

std::string run_tick_rows(const TaskPlan& plan, int every, const fs::path& dir, VerifyResult& r, std::string& script) {
  TaskPlan ticks = plan;
  ticks.every = every;
  return run_tasks(ticks, dir / (plan.target ? "tasks_target" : "tasks_host"), "ticks", dir / "ticks.csv", r, script);
}

std::vector<std::string> trace_flags(const fs::path& dir, const std::string& header, const Model& model,
                                     const std::vector<TraceCalibrationWrite>& writes) {
  std::vector<std::string> flags = program_flags({dir});
  flags.insert(flags.end(), {"-DDUALRATE_MODEL_HEADER=\"" + header + "\"", "-DDUALRATE_MODEL_NS=" + model.name});
  if (has_tunable(model)) {
    write_file(dir / "calibration_writes.hpp", calibration_writes_header(writes));
    flags.push_back("-DDUALRATE_TRACE_CALIBRATION=\"calibration_writes.hpp\"");
  }
  return flags;
}

}  // namespace dualrate
