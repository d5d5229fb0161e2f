#include "verify/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "analysis/stability.hpp"
#include "base/data_paths.hpp"
#include "model/evaluator.hpp"
#include "base/process.hpp"
#include "schemes/reference_core.hpp"
#include "ir/op_count.hpp"
#include "schemes/registry.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "targets/build.hpp"
#include "targets/cross_target.hpp"

namespace dualrate {

namespace fs = std::filesystem;


std::string VerifyResult::json() const {
  std::string s = "{";
  s += "\"model\":" + json_string(model);
  s += ",\"scheme\":" + json_string(scheme);
  s += ",\"target\":" + json_string(target);
  s += ",\"scalar\":" + json_string(scalar);
  s += fmt::format(",\"steps\":{}", steps);
  s += fmt::format(",\"t_end\":{:.15g}", t_end);
  s += fmt::format(",\"max_error\":{:.6e}", max_error);
  s += fmt::format(",\"tolerance\":{:.6e}", tolerance);
  s += ",\"tolerance_basis\":" + json_string(tolerance_basis);
  s += std::string(",\"pass\":") + (pass ? "true" : "false");
  s += ",\"worst_state\":" + json_string(worst_state);
  s += fmt::format(",\"worst_time\":{:.17g}", worst_time);
  if (!error.empty()) s += ",\"error\":" + json_string(error);
  if (!directory.empty()) s += ",\"directory\":" + json_string(directory);
  if (relinearized_error >= 0)
    s += fmt::format(",\"linearization\":\"frozen\",\"relinearized_max_error\":{:.6e}", relinearized_error);
  s += fmt::format(",\"ops_per_step\":{},\"ops_bound\":{}", ops_per_step, ops_bound);
  if (bit_exact_vs_host >= 0) s += std::string(",\"bit_exact_vs_host\":") + (bit_exact_vs_host ? "true" : "false");
  std::string functions;
  for (const auto& f : portable_math_functions) functions += (functions.empty() ? "" : ",") + json_string(f);
  s += ",\"portable_math_functions\":[" + functions + "]";
  if (instructions_per_step >= 0) {
    s += fmt::format(",\"instructions_per_step\":{:.1f},\"instructions_per_step_min\":{},"
                     "\"instructions_per_step_max\":{},\"instructions_per_op\":{:.2f}",
                     instructions_per_step, instructions_min, instructions_max, instructions_per_op());
  }
  if (text_bytes >= 0)
    s += fmt::format(",\"text_bytes\":{},\"data_bytes\":{},\"bss_bytes\":{}", text_bytes, data_bytes, bss_bytes);
  if (stack_bytes >= 0) s += fmt::format(",\"stack_bytes\":{}", stack_bytes);
  if (!tasks.empty()) {
    s += ",\"tasks\":" + json_string(tasks);
    if (bit_exact_vs_single >= 0)
      s += std::string(",\"bit_exact_vs_single\":") + (bit_exact_vs_single ? "true" : "false");
    if (overruns >= 0)
      s += fmt::format(",\"overruns\":{},\"slow_overruns\":{},\"fast_overruns\":{}", overruns, slow_overruns,
                       fast_overruns);
    if (ticks >= 0)
      s += fmt::format(",\"ticks\":{},\"slow_jobs\":{},\"preempted_ticks\":{}", ticks, slow_jobs, preempted_ticks);
    s += ",\"overrun_policy\":" + json_string(overrun_policy);
    if (deferred_releases >= 0)
      s += fmt::format(",\"deferred_releases\":{},\"longest_wait_ticks\":{}", deferred_releases, longest_wait);
    if (sched_fifo >= 0)
      s += std::string(",\"sched_fifo\":") + (sched_fifo ? "true" : "false") +
           fmt::format(",\"late_ticks\":{},\"max_latency_us\":{:.1f},\"noise_retries\":{}", late_ticks,
                       max_latency_ns / 1e3, noise_retries);
    if (icount_shift >= 0) s += fmt::format(",\"icount_shift\":{},\"tick_cycles\":{}", icount_shift, tick_cycles);
  }
  if (fast_job.instructions_max >= 0)
    s += fmt::format(",\"fast_job_instructions_max\":{},\"fast_job_instructions_mean\":{:.1f}", fast_job.instructions_max,
                     fast_job.instructions_mean);
  if (slow_job.instructions_max >= 0)
    s += fmt::format(",\"slow_job_instructions_max\":{},\"slow_job_instructions_mean\":{:.1f}", slow_job.instructions_max,
                     slow_job.instructions_mean);
  if (budget) s += budget->json();
  return s + "}";
}

double VerifyResult::instructions_per_op() const {
  return ops_per_step > 0 ? instructions_per_step / static_cast<double>(ops_per_step) : 0.0;
}

Comparison compare_traces(const Trace& a, const Trace& b, std::size_t states) {
  if (a.rows.size() != b.rows.size() || a.columns != b.columns || a.columns.size() < states + 1)
    throw std::runtime_error(fmt::format("traces differ in shape: {} rows x {} columns vs {} rows x {} columns",
                                         a.rows.size(), a.columns.size(), b.rows.size(), b.columns.size()));
  std::vector<double> scale(states, 1.0);
  for (const auto& row : b.rows)
    for (std::size_t j = 0; j < states; ++j) scale[j] = std::max(scale[j], std::fabs(row[1 + j]));
  Comparison c;
  for (std::size_t i = 0; i < b.rows.size(); ++i)
    for (std::size_t j = 0; j < states; ++j) {
      const double e = std::fabs(a.rows[i][1 + j] - b.rows[i][1 + j]) / scale[j];
      if (!(e <= c.max_error)) {
        c.max_error = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
        c.worst_column = 1 + j;
        c.worst_time = b.rows[i][0];
      }
    }
  return c;
}

// Tolerances.
// double: generated code and reference core run the same scheme in double and differ only
//   in rounding (operation order inside expressions: compiled emission vs tree
//   interpretation; for sp_ll also precomputed phi-functions vs per-step exponentials).
//   The acceptance bound is the scheme's (1e-12, 1e-10 for sp_ll; issues #2, #3). Per step each side commits
//   relative errors of a few units of u = 2^-53 per operation; in a stable run these add
//   up like a random walk, about sqrt(N)*c*u = 1e-14 for N = 1e4 steps and c = 100.
// float: the generated side rounds every operation to u_f = 2^-24 while the reference
//   stays in double. Per step, each of the (stages + 2) roundings of a stage input, the
//   update and the stored state perturbs the state by up to u_f relative to its scale, and
//   a perturbed stage input moves the step's result by up to h ||J|| times as much (J the
//   Jacobian of the right-hand side; its value at the initial state stands for the run).
//   A first-order bound for a stable, non-expansive step map adds these over the N steps:
//   (N + 1) * (stages + 2) * u_f * (1 + h ||J||_inf). It is a worst case (errors of
//   opposite sign do not cancel in it) and does not cover growth by unstable modes; such a
//   run fails and says so. It is used where there is no one-step map to carry the rounding
//   through (step_map_tolerance).
// float, from the step map: the generated state after N steps is off by
//   e_N = sum_k Phi^(N-k) delta_k, the roundings delta_k of step k carried through the
//   scheme's one-step map Phi (for the Jacobian at the initial state) instead of being added
//   up as if every step passed them on undamped. Two kinds of rounding, per state:
//   - the operations of a step: at most d = (stages + 2) u_f (X + |h J| X) componentwise (X_i
//     the largest |x_i| of the reference run; a stage's rounding is relative to the terms it
//     adds, each J_ij x_j at most, |h J| entrywise). Modelled, as in Higham and Mary's
//     probabilistic rounding error analysis (SIAM J. Sci. Comput. 41, 2019), as independent
//     and of mean zero from step to step and state to state, Hoeffding's inequality bounds
//     component i by lambda sqrt(sum_k (Phi^k o Phi^k) (d o d))_i except with probability
//     2 exp(-lambda^2 / 2) = 4.6e-11 for lambda = 7 (kRoundingLambda): errors of either sign
//     partly cancel over N steps, about sqrt(N) instead of N for an undamped mode;
//   - the constants, rounded to float once and so the same in every step (no cancellation;
//     summed in absolute value, sum_k |Phi^k| d_s): the step h and the scheme's own
//     coefficients move a step's increment (Phi - I) x by u_f each, twice 2 u_f |Phi - I| X,
//     and a parameter p_j moves the derivative by |df/dp_j p_j| u_f, over a step h u_f P with
//     P_i = max over the reference rows of sum_j |df_i/dp_j p_j|.
//   The inputs are no rounding of this kind: the reference samples them as the float build
//   does (RunOptions::float_time). The tolerance is max_i (bound_i / scale_i), scale_i the
//   comparison's (compare_traces). For mrabm4 and mrabm4_parallel Phi is the map of a macro
//   step on everything the tasks keep, derivative histories included, and d, d_s are those of
//   its r substeps (step_map_tolerance).
double verify_tolerance(ScalarType scalar, long steps, int stages, double h_norm_j, double double_tolerance) {
  if (scalar == ScalarType::kDouble) return double_tolerance;
  const double u = std::ldexp(1.0, -24);
  return static_cast<double>(steps + 1) * (stages + 2) * u * (1 + h_norm_j);
}

StepRounding step_rounding(const Eigen::MatrixXd& step_map, const Eigen::VectorXd& magnitude,
                           const Eigen::VectorXd& terms, const Eigen::VectorXd& parameter_step, int roundings) {
  const double u = std::ldexp(1.0, -24);
  const auto m = step_map.rows();
  const Eigen::MatrixXd increment = step_map - Eigen::MatrixXd::Identity(m, m);
  return {roundings * u * (magnitude + terms), u * (2 * increment.cwiseAbs() * magnitude + parameter_step)};
}

double map_float_tolerance(const Eigen::MatrixXd& step_map, const std::vector<Eigen::Index>& compared,
                           const StepRounding& rounding, const Eigen::VectorXd& scale, long steps) {
  const auto n = static_cast<Eigen::Index>(compared.size());
  Eigen::MatrixXd rows = Eigen::MatrixXd::Zero(n, step_map.cols());  // the compared rows of Phi^k
  for (Eigen::Index i = 0; i < n; ++i) rows(i, compared[static_cast<std::size_t>(i)]) = 1;
  const Eigen::VectorXd d_squared = rounding.operations.cwiseAbs2();
  Eigen::VectorXd random = Eigen::VectorXd::Zero(n), systematic = Eigen::VectorXd::Zero(n);
  for (long k = 0; k <= steps; ++k) {
    random += rows.cwiseAbs2() * d_squared;
    systematic += rows.cwiseAbs() * rounding.constants;
    rows = rows * step_map;
  }
  return (kRoundingLambda * random.cwiseSqrt() + systematic).cwiseQuotient(scale).maxCoeff();
}

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
  return fmt::format("the program on {} printed a malformed count line '#{}' (its output was cut short or mixed "
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

// Builds the host trace program into dir/<name> and runs it, writing dir/<csv> (hex floats
// with `hex`); empty on success, else why not.
std::string run_host_trace(const fs::path& dir, const std::vector<std::string>& flags, bool hex,
                           const std::string& name, const std::string& csv, long steps, int every,
                           std::string& script) {
  std::vector<std::string> argv = host_compiler();
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-DEIGEN_RUNTIME_NO_MALLOC");
  if (hex) argv.push_back("-DDUALRATE_TRACE_HEX");
  argv.insert(argv.end(), {(data_paths().targets / "host" / "trace_main.cpp").string(), portable_math_library("host", "libm"), "-o",
                           (dir / name).string()});
  script += command_line(argv) + "\n";
  const ProcessResult built = run_process(argv);
  if (built.exit_code != 0) return "the generated code did not compile:\n" + built.output;
  const std::vector<std::string> run = {(dir / name).string(), std::to_string(steps), std::to_string(every),
                                        (dir / csv).string()};
  script += command_line(run) + "\n";
  const ProcessResult ran = run_process(run);
  return ran.exit_code == 0 ? "" : "the generated code failed on the host: " + ran.output;
}

// Cross-builds, checks and runs the trace program on `target` under QEMU: writes
// dir/generated.csv and fills the cost figures. Returns why it failed, or empty.
std::string run_on_target(const CrossTarget& target, const fs::path& dir, const std::vector<std::string>& flags,
                          long steps, int every, VerifyResult& r, std::string& script) {
  const std::vector<std::string> argv =
      cortex_m_build(target, flags, {fmt::format("-DDUALRATE_ICOUNT_SHIFT={}", kIcountShift)},
                     (data_paths().targets / "cortex-m" / "trace_main.cpp").string(), dir / "trace.elf");
  script += command_line(argv) + "\n";
  const ProcessResult built = run_process(argv);
  if (built.exit_code != 0) return "the generated code did not cross-build for " + std::string(target.name) + ":\n" + built.output;

  std::string heap = heap_function(dir / "trace.elf");
  if (!heap.empty()) return heap;
  const ProcessResult size = run_process({"arm-none-eabi-size", (dir / "trace.elf").string()});
  const auto size_lines = split(size.output, '\n');
  if (size.exit_code != 0 || size_lines.size() < 2) return "arm-none-eabi-size failed: " + size.output;
  std::istringstream sizes(size_lines[1]);
  sizes >> r.text_bytes >> r.data_bytes >> r.bss_bytes;

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
      if (!parse_number(words[1], total) || !parse_number(words[2], r.instructions_min) ||
          !parse_number(words[3], r.instructions_max))
        return malformed_count(target.name, words);
      r.instructions_per_step = total / static_cast<double>(steps);
    } else if (words.size() == 2 && words[0] == "stack_bytes") {
      if (!parse_number(words[1], r.stack_bytes)) return malformed_count(target.name, words);
    } else if (words.size() == 3 && words[0] == "stack_bytes" && words[1] == "overflow") {
      return fmt::format("a step used all of the stack on {} (at least {} bytes): the painted region was "
                         "overwritten to its end",
                         target.name, words[2]);
    }
  }
  write_file(dir / "generated.csv", out.trace);
  return "";
}

// cortex-a53-linux runs the preemptive executive as SCHED_FIFO threads of qemu-user on a
// shared, non-real-time host. An overrun there while the fast thread also woke a whole period
// or more late (late_ticks) comes from the host's scheduling (another process, the kernel's
// real-time throttling), not from the code: such a run is repeated, kNoiseAttempts runs in all
// at most, and one that still overruns fails as noise, said so. An overrun with every tick on
// time is the code's and fails at once.
constexpr int kNoiseAttempts = 3;

bool host_scheduling_noise(const VerifyResult& r) { return r.overruns > 0 && r.late_ticks > 0; }

// Dual-rate schemes: the task programs (targets/linux/tasks_main.cpp for the host and
// cortex-a53-linux, targets/cortex-m/tasks_main.cpp for Cortex-M) in their two modes.
struct TaskPlan {
  const CrossTarget* target = nullptr;  // nullptr: the host
  long macro_steps = 0;
  int every = 1;
  long rows = 0;  // capacity for the rows the slow task records (tasks.hpp)
  long slow_delay_ticks = 0;
  int icount_shift = kIcountShift;
  long tick_cycles = 0;
  double h = 0;
  int ratio = 1;
  double cpu_hz = 0, cpi = 1;  // the part the budget is for
};

// The budget of the jobs measured in r on the target's part (slow_job absent for single-rate models).
Budget budget_of(const CrossTarget& target, const VerifyResult& r, double h, int ratio, double cpu_hz, double cpi) {
  return schedule(r.fast_job, r.slow_job, h, ratio, target.part, cpu_hz, cpi, target.exception_cycles);
}

Budget budget_of(const TaskPlan& plan, const VerifyResult& r) {
  return budget_of(*plan.target, r, plan.h, plan.ratio, plan.cpu_hz, plan.cpi);
}

std::string not_schedulable(const Budget& b) {
  return fmt::format("the tasks are not schedulable on {} at {:.6g} MHz (CPI {:.3g}, an estimate): {}; the smallest "
                     "clock that schedules them is {:.4g} MHz",
                     b.part, b.cpu_hz / 1e6, b.cpi, b.verdict, b.min_cpu_hz / 1e6);
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
  JobCost& c = words[0] == "fast_job_instructions" ? r.fast_job : r.slow_job;
  c.instructions_max = max;
  c.instructions_mean = total / jobs;
  return CountLine::kRead;
}

}  // namespace

bool read_task_count(const std::vector<std::string>& words, VerifyResult& r) {
  long value = 0;
  if (words.size() != 2) return false;
  const char* end = words[1].data() + words[1].size();
  const auto parsed = std::from_chars(words[1].data(), end, value);
  if (parsed.ec != std::errc() || parsed.ptr != end) return false;
  const std::string& name = words[0];
  if (name == "ticks") r.ticks = value;
  else if (name == "slow_jobs") r.slow_jobs = value;
  else if (name == "slow_overruns") r.slow_overruns = value;
  else if (name == "fast_overruns") r.fast_overruns = value;
  else if (name == "preempted_ticks") r.preempted_ticks = value;
  else if (name == "deferred_releases") r.deferred_releases = value;
  else if (name == "longest_wait") r.longest_wait = value;
  else if (name == "sched_fifo") r.sched_fifo = static_cast<int>(value);
  else if (name == "tick_cycles") r.tick_cycles = value;
  else if (name == "late_ticks") r.late_ticks = value;
  else if (name == "max_latency_ns") r.max_latency_ns = value;
  else if (name == "fast_handler_instructions") r.fast_job.handler_instructions_max = value;
  else if (name == "slow_handler_instructions") r.slow_job.handler_instructions_max = value;
  else return false;
  return true;
}

long task_trace_rows(long steps, int ratio, int every) { return std::min(steps / ratio + 1, steps / every + 2); }

namespace {

// Builds the task program for plan.target (host when null) into `exe`; returns why not, or empty.
std::string build_tasks(const TaskPlan& plan, const std::vector<std::string>& flags, const fs::path& exe,
                        std::string& script) {
  const std::vector<std::string> defines = {"-DDUALRATE_TRACE_HEX", fmt::format("-DDUALRATE_TRACE_ROWS={}", plan.rows)};
  std::vector<std::string> argv;
  const CrossTarget* t = plan.target;
  if (t && !t->linux_user) {
    std::vector<std::string> cortex_m = defines;
    cortex_m.push_back(fmt::format("-DDUALRATE_ICOUNT_SHIFT={}", plan.icount_shift));
    argv = cortex_m_build(*t, flags, cortex_m, (data_paths().targets / "cortex-m" / "tasks_main.cpp").string(), exe);
  } else {
    argv = t ? std::vector<std::string>{"aarch64-linux-gnu-g++"} : host_compiler();
    if (t)
      for (const auto& f : split(t->cpu_flags, ' ')) argv.push_back(f);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), defines.begin(), defines.end());
    if (!t) argv.push_back("-DEIGEN_RUNTIME_NO_MALLOC");
    argv.insert(argv.end(), {"-pthread", (data_paths().targets / "linux" / "tasks_main.cpp").string(),
                             portable_math_library(t ? t->name : "host", "libm"), "-o", exe.string()});
    if (t) argv.push_back("-static");
  }
  script += command_line(argv) + "\n";
  const ProcessResult built = run_process(argv);
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
      ran.exit_code == 0 ? ""
                         : fmt::format("the {} task program failed on {} (exit status {}{}):\n{}", mode, where,
                                       ran.exit_code, ran.exit_code == 124 ? ", timed out" : "",
                                       out.messages.substr(0, 4000));
  for (const auto& words : out.counts) {
    const CountLine line = read_job_instructions(words, r);
    if (line == CountLine::kMalformed) return malformed_count(where, words);
    if (line == CountLine::kRead) continue;
    if (words.size() == 2 && words[1] == "unmeasured")
      return fmt::format("a job on {} ran through a whole SysTick period and could not be counted ({})", where,
                         words[0]);
    if (mode == "multi") read_task_count(words, r);
  }
  if (!failed.empty()) return failed;
  if (t && !t->linux_user) write_file(csv, out.trace);
  if (mode == "multi") r.overruns = r.slow_overruns + r.fast_overruns;
  return "";
}

// cortex-a53-linux: the instructions of each job of the single run, counted from
// qemu-aarch64's log of every executed instruction (targets/linux/count_jobs.sh).
std::string count_linux_jobs(const TaskPlan& plan, const fs::path& exe, const fs::path& dir, VerifyResult& r,
                             std::string& script) {
  const std::vector<std::string> argv = {(data_paths().targets / "linux" / "count_jobs.sh").string(), exe.string(),
                                         std::to_string(plan.macro_steps), std::to_string(plan.every),
                                         (dir / "counted.csv").string()};
  script += command_line(argv) + "\n";
  const ProcessResult counted = run_process(argv);
  if (counted.exit_code != 0)
    return fmt::format("counting the jobs' instructions on {} failed (exit status {}):\n{}", plan.target->name,
                       counted.exit_code, counted.output.substr(0, 4000));
  for (const auto& words : split_output(counted.output).counts)
    if (read_job_instructions(words, r) == CountLine::kMalformed) return malformed_count(plan.target->name, words);
  if (r.fast_job.instructions_max < 0 || r.slow_job.instructions_max < 0)
    return "counting the jobs' instructions on " + std::string(plan.target->name) + " found no jobs";
  return "";
}

// Builds and runs the dual-rate task programs: on the host the sequential executive (and
// the threaded one for --tasks multi on the host); on a target both of its executives, and
// the host's sequential one for the bit-for-bit comparison. Leaves the trace to compare
// with the reference core in dir/generated.csv.
std::string run_dual_rate(const TaskPlan& plan, const std::string& tasks, const fs::path& dir,
                          const std::vector<std::string>& flags, VerifyResult& r, std::string& script) {
  TaskPlan host = plan;
  host.target = nullptr;
  std::string error = build_tasks(host, flags, dir / "tasks_host", script);
  if (error.empty()) error = run_tasks(host, dir / "tasks_host", "single", dir / "host_single.csv", r, script);
  if (!error.empty()) return error;
  fs::path single = dir / "host_single.csv";
  const fs::path exe = dir / (plan.target ? (plan.target->linux_user ? "tasks_target" : "tasks.elf") : "tasks_host");
  if (plan.target) {
    error = build_tasks(plan, flags, exe, script);
    if (error.empty()) error = run_tasks(plan, exe, "single", dir / "single.csv", r, script);
    if (!error.empty()) return error;
    single = dir / "single.csv";
    r.bit_exact_vs_host = read_file(single) == read_file(dir / "host_single.csv") ? 1 : 0;
    if (!plan.target->linux_user) {
      r.budget = budget_of(plan, r);
      if (!r.budget->schedulable) return not_schedulable(*r.budget);
    } else {
      // Reported, not enforced: the threads run on an emulated, non-real-time host.
      error = count_linux_jobs(plan, exe, dir, r, script);
      if (!error.empty()) return error;
      r.budget = budget_of(plan, r);
    }
  }
  if (tasks == "multi") {
    error = run_tasks(plan, exe, "multi", dir / "generated.csv", r, script);
    while (plan.target && plan.target->linux_user && error.empty() && host_scheduling_noise(r) &&
           r.noise_retries + 1 < kNoiseAttempts) {
      ++r.noise_retries;
      error = run_tasks(plan, exe, "multi", dir / "generated.csv", r, script);
    }
    if (r.budget && !plan.target->linux_user) {  // again with the handlers' instructions measured in the preemptive run
      r.budget = budget_of(plan, r);
      if (!r.budget->schedulable) return not_schedulable(*r.budget) + (error.empty() ? "" : "; the run: " + error);
    }
    if (!error.empty()) return error;
    r.bit_exact_vs_single = read_file(dir / "generated.csv") == read_file(single) ? 1 : 0;
  } else {
    fs::copy_file(single, dir / "generated.csv", fs::copy_options::overwrite_existing);
  }
  return "";
}

}  // namespace

namespace {

// P_i = max over the rows of `reference` of sum_j |df_i/dp_j p_j|: how much the rounding of
// the parameters to float moves state i's derivative, per unit u_f.
Eigen::VectorXd parameter_rate(const Model& model, const ReferenceCore& core, const Trace& reference) {
  const auto n = static_cast<Eigen::Index>(model.states.size());
  Eigen::VectorXd result = Eigen::VectorXd::Zero(n);
  for (const auto& row : reference.rows) {
    const std::vector<double> x(row.begin() + 1, row.begin() + 1 + n);
    const std::vector<double> rates = core.parameter_rates(row[0], x, core.inputs_at(row[0], true));
    result = result.cwiseMax(Eigen::Map<const Eigen::VectorXd>(rates.data(), n));
  }
  return result;
}

// map_float_tolerance for a float run of `steps` steps of h against `reference`, from the
// scheme's one-step map for J on the entries step_map_layout names: the states (single-rate
// schemes), or a macro step H = r h on everything mrabm4's
// tasks keep (states, end points, derivative histories). An entry of state i has the
// magnitude X_i (a value) or (|J| X)_i (a derivative); per step its operations round
// (stages + 2) u_f relative to it and to the terms |H J| X a step adds to a value (r substeps
// of (stages + 2) roundings per macro step); the parameters move a value by H P_i u_f, a
// derivative by P_i u_f. Empty when there is no map (smfe without a design at h).
std::optional<double> step_map_tolerance(const Model& model, const ReferenceCore& core, const GenerateOptions& generate,
                                         const Eigen::MatrixXd& j, const Trace& reference, long steps, int evaluations) {
  const auto n = static_cast<Eigen::Index>(model.states.size());
  if (j.rows() != n || reference.rows.empty()) return std::nullopt;
  Eigen::MatrixXd map;
  try {
    map = one_step_map(generate.scheme, j, generate.step, model.slow_count, generate.ratio, generate.inner_step);
  } catch (const SmfeDesignError&) {
    return std::nullopt;
  }
  Eigen::VectorXd magnitude = Eigen::VectorXd::Zero(n);
  for (const auto& row : reference.rows)
    for (Eigen::Index i = 0; i < n; ++i)
      magnitude[i] = std::max(magnitude[i], std::fabs(row[static_cast<std::size_t>(i) + 1]));
  const Eigen::VectorXd rate = parameter_rate(model, core, reference);
  const Eigen::VectorXd scale = magnitude.cwiseMax(1.0);
  const Eigen::VectorXd derivative = j.cwiseAbs() * magnitude;
  const StepMapLayout layout = step_map_layout(generate.scheme, j, generate.step, model.slow_count, generate.ratio);
  const int substeps = layout.substeps;
  const auto m = static_cast<Eigen::Index>(layout.entries.size());
  if (map.rows() != m || steps % substeps != 0) return std::nullopt;
  const double big = generate.step * substeps;
  Eigen::VectorXd entry(m), terms(m), parameter_step(m);
  std::vector<Eigen::Index> compared(static_cast<std::size_t>(n), -1);
  for (Eigen::Index e = 0; e < m; ++e) {
    const auto& kept = layout.entries[static_cast<std::size_t>(e)];
    const auto i = static_cast<Eigen::Index>(kept.state);
    entry[e] = kept.derivative ? derivative[i] : magnitude[i];
    terms[e] = kept.derivative ? 0.0 : big * derivative[i];
    parameter_step[e] = kept.derivative ? rate[i] : big * rate[i];
    if (kept.compared) compared[kept.state] = e;
  }
  if (std::find(compared.begin(), compared.end(), -1) != compared.end()) return std::nullopt;
  return map_float_tolerance(map, compared,
                             step_rounding(map, entry, terms, parameter_step, substeps * (evaluations + 2)), scale,
                             steps / substeps);
}

// A trace or task program for one model: its header in dir, its namespace.
std::vector<std::string> trace_flags(const fs::path& dir, const std::string& header, const Model& model) {
  std::vector<std::string> flags = program_flags({dir});
  flags.insert(flags.end(), {"-DDUALRATE_MODEL_HEADER=\"" + header + "\"", "-DDUALRATE_MODEL_NS=" + model.name});
  return flags;
}

}  // namespace

namespace {
VerifyResult verify_or_throw(const Model& model, const VerifyOptions& o);
}  // namespace

VerifyResult verify(const Model& model, const VerifyOptions& o) {
  try {
    return verify_or_throw(model, o);
  } catch (const ModelError&) {
    throw;  // reported at its place in the model file, exit status 1
  } catch (const std::exception& e) {
    VerifyResult r;
    r.model = model.name;
    r.scheme = o.generate.scheme;
    r.target = o.target;
    r.scalar = to_string(o.generate.scalar);
    r.error = std::string("verify stopped: ") + e.what();
    return r;
  }
}

namespace {

VerifyResult verify_or_throw(const Model& model, const VerifyOptions& o) {
  VerifyResult r;
  r.model = model.name;
  r.scheme = o.generate.scheme;
  r.target = o.target;
  r.scalar = to_string(o.generate.scalar);
  r.steps = step_count(o.t_end, o.generate.step);
  r.t_end = static_cast<double>(r.steps) * o.generate.step;
  const SchemeInfo* info = find_scheme(r.scheme);
  if (!info) {
    r.error = "unknown scheme '" + r.scheme + "'";
    return r;
  }
  const CrossTarget* cross = find_cross_target(o.target);
  // The part a cross target's budget is for: its default, or --cpu-hz and --cpi.
  const double cpu_hz = cross ? (o.cpu_hz > 0 ? o.cpu_hz : cross->part_hz) : 0;
  const double cpi = cross ? (o.cpi > 0 ? o.cpi : cross->cpi) : 1;
  if (o.target != "host" && !cross) {
    r.error = unknown_target_message(o.target);
    return r;
  }
  const bool frozen = o.frozen && r.scheme == "sp_ll";
  GenerateOptions generate = o.generate;
  precompute_scheme(model, frozen, generate);
  if (!info->dual_rate) {
    const StepCost cost = step_cost(model, generate);
    r.ops_per_step = cost.ops.total();
    r.ops_bound = cost.bound.total();
  }
  const ReferenceCore core(model);
  // The error amplification per step is that of what the scheme integrates (quasistatic: its
  // reduced form, without the eliminated fast modes).
  const Eigen::MatrixXd j = info->analysed_jacobian ? info->analysed_jacobian(model)
                                                    : core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const int evaluations = generate.inner_steps > 0 ? generate.inner_steps + 1 : info->evaluations;
  r.tolerance = verify_tolerance(o.generate.scalar, r.steps, evaluations,
                                 o.generate.step * j.cwiseAbs().rowwise().sum().maxCoeff(), info->double_tolerance);
  r.tolerance_basis = o.generate.scalar == ScalarType::kDouble ? "scheme" : "first order";
  const bool keep = !o.keep_dir.empty();
  const fs::path dir = keep ? fs::path(o.keep_dir) : fs::path(make_temp_dir("dualrate-verify"));
  fs::create_directories(dir);
  if (keep) r.directory = fs::absolute(dir).string();

  const auto stage = [&o](const std::string& what) {
    if (o.progress) o.progress(what);
  };
  const std::string header = model.name + ".hpp";
  stage(o.header_file.empty() ? "generating " + header : "reading " + o.header_file);
  write_file(dir / header, o.header_file.empty() ? generate_header(model, generate) : read_file(o.header_file));
  const std::vector<std::string> flags = trace_flags(dir, header, model);
  std::string script = "#!/bin/sh\n# How the trace program" + std::string(cross ? "s were" : " was") +
                       " built and run (" + std::to_string(r.steps) + " steps, a row every " +
                       std::to_string(o.every) + ")\n";
  for (const auto& f : portable_math_functions(called_functions(model))) r.portable_math_functions.push_back(f);
  if (info->dual_rate) {
    TaskPlan plan;
    plan.target = cross;
    plan.macro_steps = r.steps / o.generate.ratio;
    plan.every = o.every;
    plan.rows = task_trace_rows(r.steps, o.generate.ratio, o.every);
    plan.slow_delay_ticks = o.slow_delay_ticks;
    if (o.icount_shift >= 0) plan.icount_shift = o.icount_shift;
    plan.tick_cycles = o.tick_cycles;
    plan.h = o.generate.step;
    plan.ratio = o.generate.ratio;
    plan.cpu_hz = cpu_hz;
    plan.cpi = cpi;
    // The emulated tick is h at the part's instruction rate.
    if (cross && !cross->linux_user && plan.tick_cycles == 0)
      plan.tick_cycles = emulated_tick_cycles(*cross, plan.h, plan.cpu_hz, plan.cpi, plan.icount_shift, o.icount_shift >= 0);
    r.tasks = o.tasks;
    r.overrun_policy = o.generate.defer_overruns ? "defer" : "skip";
    if (cross && !cross->linux_user) r.icount_shift = plan.icount_shift;
    stage(fmt::format("building and running the {} tasks{}", o.tasks, cross ? std::string(" on ") + cross->name : std::string()));
    if (r.steps % o.generate.ratio != 0)
      r.error = fmt::format("{} steps of h are not a whole number of slow steps H = {} h: choose t_end accordingly",
                            r.steps, o.generate.ratio);
    else
      r.error = run_dual_rate(plan, o.tasks, dir, flags, r, script);
  } else if (cross && cross->linux_user) {
    r.error = "cortex-a53-linux runs the dual-rate schemes only (mrabm4, mrabm4_parallel)";
  } else if (!cross) {
    stage("building and running the trace program");
    r.error = run_host_trace(dir, flags, false, "trace", "generated.csv", r.steps, o.every, script);
  } else {
    stage("building and running the trace program on the host");
    r.error = run_host_trace(dir, flags, true, "trace_host", "host.csv", r.steps, o.every, script);
    stage(fmt::format("building the trace program for {} and running it under QEMU", cross->name));
    if (r.error.empty()) r.error = run_on_target(*cross, dir, flags, r.steps, o.every, r, script);
    if (r.error.empty() && r.instructions_max >= 0) {
      // Steps run back to back here, not in real time: the budget is reported, not enforced.
      r.fast_job = {r.instructions_max, r.instructions_per_step};
      r.budget = budget_of(*cross, r, o.generate.step, 1, cpu_hz, cpi);
    }
    if (r.error.empty()) r.bit_exact_vs_host = read_file(dir / "generated.csv") == read_file(dir / "host.csv") ? 1 : 0;
  }
  write_file(dir / "build.sh", script);
  Trace reference;
  try {
    RunOptions run{o.generate.scheme, o.generate.step, o.t_end, o.every};
    run.inner_step = o.generate.inner_step;
    run.frozen_linearization = frozen;
    run.ratio = o.generate.ratio;
    run.float_time = o.generate.scalar == ScalarType::kFloat;
    stage("the reference core");
    reference = core.simulate(run);
    write_csv(reference, (dir / "reference.csv").string());
    if (o.generate.scalar == ScalarType::kFloat) {
      const std::optional<double> bound = step_map_tolerance(model, core, generate, j, reference, r.steps, evaluations);
      if (bound) {
        r.tolerance = *bound;
        r.tolerance_basis = "step map";
      }
    }
    if (frozen && r.error.empty()) {
      run.frozen_linearization = false;
      const Trace relinearized = core.simulate(run);
      write_csv(relinearized, (dir / "reference_relinearized.csv").string());
      r.relinearized_error =
          compare_traces(read_csv((dir / "generated.csv").string()), relinearized, model.states.size()).max_error;
    }
  } catch (const SimulationError& e) {
    r.error += (r.error.empty() ? "" : "\n") + std::string("reference core: ") + e.what();
  }
  if (r.error.empty() && r.overruns > 0 && cross && cross->linux_user && host_scheduling_noise(r))
    r.error = fmt::format("host scheduling noise, not the code: {} overruns ({} slow, {} fast) in each of {} runs, "
                          "with the fast thread waking a period or more late on {} ticks (up to {:.1f} ms); run it "
                          "on a quieter host",
                          r.overruns, r.slow_overruns, r.fast_overruns, r.noise_retries + 1, r.late_ticks,
                          static_cast<double>(r.max_latency_ns) / 1e6);
  else if (r.error.empty() && r.overruns > 0)
    r.error = fmt::format("{} overruns ({} slow, {} fast): {} (dualrate/dual_rate.hpp's {} policy), so the trace is "
                          "not the scheme's result and is not compared",
                          r.overruns, r.slow_overruns, r.fast_overruns,
                          o.generate.defer_overruns ? "a late slow job did not end within the next macro step and the "
                                                      "fast task stopped waiting for it"
                                                    : "slow releases were skipped",
                          r.overrun_policy);
  if (r.error.empty()) {
    try {
      const Comparison c = compare_traces(read_csv((dir / "generated.csv").string()), reference, model.states.size());
      r.max_error = c.max_error;
      if (c.worst_column > 0) r.worst_state = model.states[c.worst_column - 1].name;
      r.worst_time = c.worst_time;
      r.pass = r.max_error <= r.tolerance && r.bit_exact_vs_host != 0 && r.bit_exact_vs_single != 0 &&
               r.overruns <= 0;
    } catch (const std::runtime_error& e) {
      r.error = e.what();
    }
  }
  if (!keep) fs::remove_all(dir);
  return r;
}

}  // namespace

}  // namespace dualrate
