#include "verify/system.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>

#include "emit/generation.hpp"
#include "base/data_paths.hpp"
#include "base/process.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "targets/build.hpp"
#include "targets/cross_target.hpp"
#include "verify/local_check.hpp"
#include "verify/programs.hpp"
#include "verify/setup.hpp"

namespace dualrate {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxModels = 4;  // eight task interrupts (targets/cortex-m/system_main.cpp)

SourceLoc at(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line < 0 ? SourceLoc{file, 1, 1} : SourceLoc{file, m.line + 1, m.column + 1};
}

void check_keys(const std::string& file, const YAML::Node& map, const std::vector<std::string>& allowed,
                const std::string& where) {
  for (const auto& kv : map) {
    const std::string key = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw ModelError(at(file, kv.first), fmt::format("unknown key '{}' in {}", key, where),
                       did_you_mean(key, allowed, fmt::format("allowed: {}", fmt::join(allowed, ", "))));
  }
}

double positive_number(const std::string& file, const YAML::Node& n, const std::string& what) {
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v) || v <= 0)
    throw ModelError(at(file, n), what + " must be a positive number");
  return v;
}

// The step h in whole nanoseconds (the base tick is their greatest common divisor).
long long nanoseconds(double h, const SourceLoc& loc) {
  const double ns = h * 1e9;
  const long long whole = std::llround(ns);
  if (whole < 1 || std::fabs(ns - static_cast<double>(whole)) > 1e-6 * ns)
    throw ModelError(loc, fmt::format("the step {:.17g} s is not a whole number of nanoseconds", h),
                     "the models' steps must be multiples of a common base tick");
  return whole;
}

}  // namespace

SystemSpec load_system_file(const std::string& path) {
  SystemSpec spec;
  spec.file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ModelError({path, 1, 1}, "cannot read the system file");
  } catch (const YAML::ParserException& e) {
    throw ModelError({path, e.mark.line + 1, e.mark.column + 1}, "YAML syntax: " + e.msg);
  }
  if (!root.IsMap())
    throw ModelError(at(path, root), "a system file must be a YAML mapping", "keys: name, t_end, models");
  check_keys(path, root, {"name", "t_end", "models"}, "the system file");
  for (const char* key : {"name", "t_end", "models"})
    if (!root[key]) throw ModelError(at(path, root), fmt::format("the system file has no '{}'", key));
  spec.name = root["name"].as<std::string>();
  spec.t_end = positive_number(path, root["t_end"], "t_end");
  const YAML::Node models = root["models"];
  if (!models.IsSequence() || models.size() < 1 || models.size() > kMaxModels)
    throw ModelError(at(path, models), fmt::format("models must be a list of 1 to {} entries", kMaxModels),
                     "each entry: file, scheme and optionally step, ratio, overrun, scalar");
  const fs::path base = fs::path(path).parent_path();
  for (const auto& entry : models) {
    if (!entry.IsMap())
      throw ModelError(at(path, entry), "a model entry must be a mapping",
                       "keys: file, scheme, step, ratio, overrun, scalar");
    check_keys(path, entry, {"file", "scheme", "step", "ratio", "overrun", "scalar"}, "a model entry");
    SystemModel m;
    m.loc = at(path, entry);
    for (const char* key : {"file", "scheme"})
      if (!entry[key]) throw ModelError(m.loc, fmt::format("the model entry has no '{}'", key));
    m.file = (base / entry["file"].as<std::string>()).lexically_normal().string();
    if (!fs::exists(m.file)) throw ModelError(at(path, entry["file"]), "no model file " + m.file);
    m.scheme = entry["scheme"].as<std::string>();
    m.scheme_loc = at(path, entry["scheme"]);
    const SchemeInfo* info = find_scheme(m.scheme);
    if (!info || !info->traits.dual_rate)
      throw ModelError(m.scheme_loc, fmt::format("'{}' is not a dual-rate scheme", m.scheme),
                       fmt::format("a system runs dual-rate tasks: {}",
                                   fmt::join(scheme_names_with(&SchemeTraits::dual_rate), " or ")));
    if (entry["step"]) m.step = positive_number(path, entry["step"], "step");
    if (entry["ratio"]) {
      int r = 0;
      if (!YAML::convert<int>::decode(entry["ratio"], r) || r < 1)
        throw ModelError(at(path, entry["ratio"]), "ratio must be a positive integer");
      m.ratio = r;
    }
    if (entry["overrun"]) {
      const std::optional<OverrunHandling> o = named(kOverrunHandlings, entry["overrun"].as<std::string>());
      if (!o)
        throw ModelError(at(path, entry["overrun"]),
                         fmt::format("overrun must be {}", fmt::join(names(kOverrunHandlings), " or ")));
      m.overrun_handling = *o;
    }
    if (entry["scalar"]) {
      m.scalar = entry["scalar"].as<std::string>();
      if (m.scalar != "float" && m.scalar != "double")
        throw ModelError(at(path, entry["scalar"]), "scalar must be float or double");
    }
    spec.models.push_back(m);
  }
  return spec;
}

namespace {

// The models of a system, in its file's order, with their rates.
struct SystemModels {
  std::vector<Model> models;
  std::vector<double> steps;           // h
  std::vector<int> ratios;             // H = ratio h
  std::vector<long long> step_ns;      // h in whole nanoseconds
  std::vector<SchemeOptions> options;  // the file's scheme options that the system's scheme takes
  long long base_ns = 0;               // the base tick: the greatest common divisor of the steps
};

// Loads the system's models and finds their rates and the base tick. A model whose name another
// has, or whose scheme is not stable at its rate, is a ModelError at its entry.
SystemModels load_models(const SystemSpec& spec) {
  SystemModels s;
  for (const SystemModel& m : spec.models) {
    s.models.push_back(load_model_file(m.file));
    check_model_scheme(s.models.back());
    const Model& model = s.models.back();
    for (std::size_t j = 0; j + 1 < s.models.size(); ++j)
      if (s.models[j].name == model.name)
        throw ModelError(m.loc, fmt::format("a second model named '{}'", model.name),
                         "each model's name is its namespace in the system program: give each a different name");
    if (!m.step && !model.simulation.step) throw ModelError(m.loc, "no step: give step here or in " + m.file);
    s.steps.push_back(m.step ? *m.step : *model.simulation.step);
    s.ratios.push_back(m.ratio.value_or(model.simulation.ratio));
    s.step_ns.push_back(nanoseconds(s.steps.back(), m.loc));
    const SchemeInfo* scheme = find_scheme(m.scheme);
    s.options.push_back(scheme ? scheme_options_for(model, *scheme) : SchemeOptions{});
    // Judged as generate judges it (emit/generation.hpp), the refusal at the model's entry here;
    // the header is not kept (verify makes the one it builds).
    GenerationRequest judged{{m.scheme, s.steps.back(), s.ratios.back(),
                              m.scalar.empty() ? ScalarType::kDouble : scalar_type(m.scalar), ""}};
    judged.request.t_end = spec.t_end;
    judged.request.scheme_options = s.options.back();
    judged.unstable_hint = "";
    try {
      generate_code(model, judged);
    } catch (const ModelError& e) {
      throw ModelError(m.scheme_loc, e.what(), e.hint());
    }
  }
  for (long long ns : s.step_ns) s.base_ns = std::gcd(s.base_ns, ns);
  return s;
}

// What the system program records of each model's run: its macro steps, a row every `every`
// steps, and the rows the largest of them needs.
struct Recording {
  std::vector<long> macro_steps, every;
  long rows = 1;
};

// Each model alone (into r.models): its sequential run on the target, against the reference
// core and the host, kept in dir/<model>.
Recording verify_each_alone(const SystemSpec& spec, const SystemOptions& o, const SystemModels& s,
                            const TargetPart& target, const fs::path& dir, SystemResult& r) {
  Recording recording;
  for (std::size_t i = 0; i < s.models.size(); ++i) {
    VerifyOptions v;
    v.generate = {spec.models[i].scheme, s.steps[i], s.ratios[i],
                  scalar_type(spec.models[i].scalar.empty() ? target.cross->default_scalar : spec.models[i].scalar),
                  o.generator_version};
    v.generate.overrun_handling = spec.models[i].overrun_handling;
    v.generate.scheme_options = s.options[i];
    v.t_end = spec.t_end;
    const long n = step_count(spec.t_end, s.steps[i]);
    v.every = static_cast<int>(std::max(1L, n / 100));  // about a hundred rows each
    v.target = o.target;
    v.keep_dir = (dir / s.models[i].name).string();
    v.tasks = Tasks::kSingle;
    v.cpu_hz = target.part.cpu_hz;
    v.cpi = target.part.cpi;
    r.models.push_back(verify(s.models[i], v));
    recording.macro_steps.push_back(n / s.ratios[i]);
    recording.every.push_back(v.every);
    recording.rows = std::max(recording.rows, task_trace_rows(n, s.ratios[i], v.every));
  }
  return recording;
}

// The system's tasks, each model's fast and slow one, under rate-monotonic priorities: one
// level per distinct period, shortest first, below SysTick.
class TaskSet {
 public:
  // The jobs' instructions as each model's sequential run counted them (`alone`).
  TaskSet(const SystemModels& s, const std::vector<VerifyResult>& alone) {
    for (std::size_t i = 0; i < s.models.size(); ++i) {
      tasks_.push_back(
          {s.models[i].name + ".fast", s.steps[i], s.step_ns[i], i, true, alone[i].fast_job.value_or(JobCost())});
      tasks_.push_back({s.models[i].name + ".slow", s.steps[i] * s.ratios[i], s.step_ns[i] * s.ratios[i], i, false,
                        alone[i].slow_job.value_or(JobCost())});
    }
    for (const auto& t : tasks_) periods_.push_back(t.period_ns);
    std::sort(periods_.begin(), periods_.end());
    periods_.erase(std::unique(periods_.begin(), periods_.end()), periods_.end());
  }

  std::size_t levels() const { return periods_.size(); }
  // The priority level (1: the highest below SysTick) of the tasks with this period.
  int level(long long period_ns) const {
    return static_cast<int>(std::lower_bound(periods_.begin(), periods_.end(), period_ns) - periods_.begin()) + 1;
  }

  // The response-time analysis of the tasks and the dispatcher every base tick, with the
  // dispatcher's instructions and each task's handler's (in `runs`, per model) as the system's
  // run counted them; before it (-1, none) without.
  TaskSetBudget budget(double base_tick, long dispatcher, const std::vector<TaskRun>& runs, const CrossTarget& cross,
                       const PartRate& part) const {
    const double exception_cycles = static_cast<double>(cross.exception_cycles);
    std::vector<PeriodicTask> tasks;
    tasks.push_back(
        {"dispatcher", base_tick, 0, static_cast<double>(std::max(0L, dispatcher)) * part.cpi, exception_cycles, 0});
    for (const Task& t : tasks_) {
      const long handler =
          runs.empty() ? 0
                       : (t.fast ? runs[t.model].fast_handler_instructions : runs[t.model].slow_handler_instructions)
                             .value_or(0);
      tasks.push_back({t.name, t.period, level(t.period_ns), static_cast<double>(t.cost.instructions_max) * part.cpi,
                       exception_cycles + static_cast<double>(handler) * part.cpi, 0});
    }
    return schedule_task_set(tasks, cross.part, part.cpu_hz, part.cpi);
  }

 private:
  struct Task {
    std::string name;
    double period;
    long long period_ns;
    std::size_t model;
    bool fast;
    JobCost cost;
  };
  std::vector<Task> tasks_;
  std::vector<long long> periods_;
};

std::string not_schedulable(const TaskSetBudget& b, const PartRate& part) {
  return not_schedulable_message("the system is", "it", b.part, part.cpu_hz, part.cpi, b.verdict, b.min_cpu_hz);
}

// The system program's header (dir/system.hpp, for targets/cortex-m/system_main.cpp): every
// model's header, the list of models with their rates and priorities, the base tick in cycles
// of the emulated board.
void write_system_header(const SystemSpec& spec, const SystemModels& s, const Recording& recording,
                         const TaskSet& tasks, long tick_cycles, const fs::path& dir) {
  std::string header = "// The system " + spec.name + " (" + spec.file + "), for targets/cortex-m/system_main.cpp.\n";
  for (const auto& m : s.models) header += fmt::format("#include \"{}.hpp\"\n", m.name);
  header += "// X(namespace, fast_every, macro_steps, every, fast_irq_priority, slow_irq_priority)\n";
  header += "#define DUALRATE_SYSTEM_MODELS(X)";
  for (std::size_t i = 0; i < s.models.size(); ++i)
    header += fmt::format(" \\\n  X({}, {}, {}, {}, 0x{:02X}, 0x{:02X})", s.models[i].name, s.step_ns[i] / s.base_ns,
                          recording.macro_steps[i], recording.every[i], tasks.level(s.step_ns[i]) << 5,
                          tasks.level(s.step_ns[i] * s.ratios[i]) << 5);
  header += fmt::format("\n#define DUALRATE_SYSTEM_TICK_CYCLES {}\n", tick_cycles);
  write_file(dir / "system.hpp", header);
}

// Builds the system program in dir and runs it under QEMU (the commands in dir/build.sh, its
// output in dir/system.out): why it did not build or has a heap function, else empty and its
// run in `ran`.
std::string build_and_run(const SystemSpec& spec, const SystemModels& s, const Recording& recording,
                          const TaskSet& tasks, const CrossTarget& cross, const PartRate& part, double base_tick,
                          const fs::path& dir, ProcessResult& ran) {
  int shift = kIcountShift;
  const long tick_cycles = emulated_tick_cycles(cross, base_tick, part.cpu_hz, part.cpi, shift, false);
  write_system_header(spec, s, recording, tasks, tick_cycles, dir);
  std::vector<fs::path> includes = {dir};
  for (const auto& m : s.models) includes.push_back(dir / m.name);
  std::vector<std::string> flags = program_flags(includes);
  flags.push_back("-DDUALRATE_SYSTEM_HEADER=\"system.hpp\"");
  const std::vector<std::string> defines = {fmt::format("-DDUALRATE_TRACE_ROWS={}", recording.rows),
                                            fmt::format("-DDUALRATE_ICOUNT_SHIFT={}", shift)};
  const fs::path elf = dir / "system.elf";
  const std::vector<std::string> build =
      cortex_m_build(cross, flags, defines, (data_paths().targets / "cortex-m" / "system_main.cpp").string(), elf);
  std::string script = "#!/bin/sh\n" + command_line(build) + "\n";
  const ProcessResult built = build_program(build, dir);
  if (built.exit_code != 0) {
    write_file(dir / "build.sh", script);
    return "the system program did not build:\n" + built.output;
  }
  std::string heap = heap_function(elf);
  if (!heap.empty()) return heap;
  const std::vector<std::string> run = qemu_system(cross, shift, elf, "system");
  script += command_line(run) + "\n";
  write_file(dir / "build.sh", script);
  ran = run_process(run);
  write_file(dir / "system.out", ran.output);
  return "";
}

// The system program's output per model (into r.runs, its trace in dir/<model>_system.csv):
// '# model NAME' opens the model's section of '#' count lines and trace rows. Each model's
// trace there is compared with its own sequential run's (bit_exact_vs_single).
void read_system_run(const std::string& output, const SystemModels& s, const fs::path& dir, SystemResult& r) {
  std::map<std::string, std::string> traces;
  std::map<std::string, TaskRun> runs_by_name;
  std::string current;
  for (const auto& line : split(output, '\n')) {
    const ProgramOutput out = split_output(line + "\n");
    if (out.counts.empty()) {
      if (!current.empty()) traces[current] += out.trace;
      continue;
    }
    const auto& w = out.counts[0];
    if (w.size() == 2 && w[0] == "model")
      current = w[1];
    else if (w.size() == 2 && w[0] == "dispatcher_instructions")
      r.dispatcher_instructions = std::stol(w[1]);
    else if (!current.empty())
      read_task_count(w, runs_by_name[current]);
  }
  for (const auto& m : s.models) {
    TaskRun run = runs_by_name[m.name];
    write_file(dir / (m.name + "_system.csv"), traces[m.name]);
    run.bit_exact_vs_single =
        traces[m.name] == trace_text_without_local_columns(read_file(dir / m.name / "single.csv"));
    r.runs.push_back(run);
  }
}

// Why the system's run fails, or empty when it passes.
std::string system_run_error(const SystemResult& r, const ProcessResult& ran, const CrossTarget& cross,
                             const PartRate& part) {
  bool exact = true, overran = false;
  for (const TaskRun& run : r.runs) {
    exact = exact && run.bit_exact_vs_single == true;
    overran = overran || run.slow_overruns != 0 || run.fast_overruns != 0;
  }
  if (!r.budget->schedulable) return not_schedulable(*r.budget, part);
  if (ran.exit_code != 0)
    return fmt::format("the system program failed on {} (exit status {}):\n{}", cross.name, ran.exit_code,
                       split_output(ran.output).messages.substr(0, 4000));
  if (overran) return "a task overran in the system run (see the per-model counts), so its trace is not compared";
  if (!exact) return "a model's trace in the system run differs from its own sequential run";
  return "";
}

}  // namespace

SystemResult verify_system(const SystemSpec& spec, const SystemOptions& o) {
  SystemResult r;
  r.name = spec.name;
  r.target = o.target;
  const TargetPart target = target_part(o.target, o.cpu_hz, o.cpi);
  if (!target.cross || target.cross->linux_user) {
    r.error =
        fmt::format("verify-system runs on the Cortex-M targets ({}), not '{}'", target_names(true, ", "), o.target);
    return r;
  }
  const CrossTarget& cross = *target.cross;
  const WorkDirectory dir(o.keep_dir, "dualrate-system");
  r.directory = dir.kept();
  const SystemModels s = load_models(spec);
  r.base_tick = static_cast<double>(s.base_ns) * 1e-9;
  const Recording recording = verify_each_alone(spec, o, s, target, dir.path(), r);
  if (!std::all_of(r.models.begin(), r.models.end(), [](const VerifyResult& m) { return m.pass; })) {
    r.error = "a model failed on its own (see its result)";
    return r;
  }
  const TaskSet tasks(s, r.models);
  if (tasks.levels() > 7) {
    r.error = "more than 7 distinct task periods: the system program has 7 interrupt priority levels below SysTick";
    return r;
  }
  r.budget = tasks.budget(r.base_tick, -1, {}, cross, target.part);
  if (!r.budget->schedulable) {
    r.error = not_schedulable(*r.budget, target.part);
    return r;
  }
  ProcessResult ran;
  r.error = build_and_run(spec, s, recording, tasks, cross, target.part, r.base_tick, dir.path(), ran);
  if (!r.error.empty()) return r;
  read_system_run(ran.output, s, dir.path(), r);
  r.budget = tasks.budget(r.base_tick, r.dispatcher_instructions, r.runs, cross, target.part);
  r.error = system_run_error(r, ran, cross, target.part);
  r.pass = r.error.empty();
  return r;
}

std::optional<bool> SystemResult::accurate() const {
  std::optional<bool> all;
  for (const VerifyResult& m : models)
    if (m.accuracy && m.accuracy->judged()) all = all.value_or(true) && m.accuracy->pass();
  return all;
}

std::string SystemResult::text() const {
  std::string s =
      fmt::format("system {} on {}, base tick {:.6g} s: {}\n", name, target, base_tick, pass ? "PASS" : "FAIL");
  for (std::size_t i = 0; i < models.size(); ++i) {
    const VerifyResult& m = models[i];
    s += fmt::format("  {} {}: alone max_error {:.3e} (tolerance {:.3e}) {}", m.model, m.scheme, m.max_error,
                     m.tolerance, m.pass ? "pass" : "FAIL");
    if (i < runs.size())  // a count the system program did not report: -1, as in the JSON
      s += fmt::format(
          "; in the system {} its own sequential run, {} ticks preempted a slow job, overruns {} slow {} fast",
          runs[i].bit_exact_vs_single == true ? "equals bit for bit" : "DIFFERS from",
          runs[i].preempted_ticks.value_or(-1), runs[i].slow_overruns.value_or(-1), runs[i].fast_overruns.value_or(-1));
    s += "\n";
    if (m.accuracy) {
      const std::string lines = accuracy_text(*m.accuracy, "");
      s += "    " + lines.substr(0, lines.find('\n') + 1);
    }
  }
  if (budget) {
    s += fmt::format("  budget on {} at {:.6g} MHz, CPI {:.3g} (an estimate), rate-monotonic:\n", budget->part,
                     budget->cpu_hz / 1e6, budget->cpi);
    for (const auto& t : budget->tasks)
      s += fmt::format("    {:<28} period {:<9.6g} s priority {} job {:>7.0f} + {:>4.0f} cycles, response {:.4g} us\n",
                       t.name, t.period, t.priority, t.cycles, t.overhead, t.response * 1e6);
    s += fmt::format("  utilization {:.3g}; {} (margin {:.3g}; smallest clock {:.4g} MHz)\n", budget->utilization,
                     budget->schedulable ? "schedulable" : "NOT schedulable", budget->margin, budget->min_cpu_hz / 1e6);
  }
  return s;
}

}  // namespace dualrate
