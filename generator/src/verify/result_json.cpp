// verify's results as JSON (result_json.hpp): one verify run's, the parts of what its target ran,
// and verify-system's. The checks' parts: check_json.cpp.
#include "verify/result_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "verify/json_fields.hpp"
#include "verify/system.hpp"

namespace dualrate {

namespace {

// The part whose keys include one of `keys`, or absent.
template <typename Part>
std::optional<Part> read_part(const Json& j, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (j.contains(key)) return j.get<Part>();
  return std::nullopt;
}

// A part's keys appended to the result's object, each after `prefix`.
void merge(Json& j, const Json& part, const std::string& prefix = "") {
  for (const auto& [key, value] : part.items()) j[prefix + key] = value;
}
// The keys of j that begin with `prefix`, without it.
Json unprefixed(const Json& j, const std::string& prefix) {
  Json part = Json::object();
  for (const auto& [key, value] : j.items())
    if (key.compare(0, prefix.size(), prefix) == 0) part[key.substr(prefix.size())] = value;
  return part;
}

// The accumulated check's fields, then each check's part.
void write_checks(Json& j, const VerifyResult& r) {
  j["steps"] = r.steps;
  j["t_end"] = printed(r.t_end, "{:.14e}");
  j["max_error"] = significant7(r.max_error);
  j["tolerance"] = significant7(r.tolerance);
  j["tolerance_basis"] = to_string(r.tolerance_basis);
  j["pass"] = r.pass;
  j["worst_state"] = r.worst_state;
  j["worst_time"] = r.worst_time;
  if (r.local) merge(j, *r.local);
  if (r.exact_step)
    merge(j, *r.exact_step);
  else if (!r.exact_step_skipped.empty())
    j["exact_step_skipped"] = r.exact_step_skipped;
  if (r.outputs) merge(j, *r.outputs);
  if (r.tick_check) merge(j, *r.tick_check);
}

void read_checks(const Json& j, VerifyResult& r) {
  read(j, "steps", r.steps);
  read(j, "t_end", r.t_end);
  read(j, "max_error", r.max_error);
  read(j, "tolerance", r.tolerance);
  read_named(j, "tolerance_basis", kToleranceBases, r.tolerance_basis);
  read(j, "pass", r.pass);
  read(j, "worst_state", r.worst_state);
  read(j, "worst_time", r.worst_time);
  r.local = read_part<LocalCheckResult>(j, {"local_max_error"});
  r.exact_step = read_part<ExactStepCheck>(j, {"exact_step_samples"});
  read(j, "exact_step_skipped", r.exact_step_skipped);
  r.outputs = read_part<OutputCheck>(j, {"output_ratio"});
  r.tick_check = read_part<TickCheck>(j, {"tick_samples"});
}

// What the target ran: the code's cost and tasks, the jobs, the budget and the calibration writes.
void write_runs(Json& j, const VerifyResult& r) {
  j["ops_per_step"] = r.ops_per_step;
  j["ops_bound"] = r.ops_bound;
  if (r.target_cost && r.target_cost->instructions)
    j["instructions_per_op"] = printed(r.target_cost->instructions->per_op(r.ops_per_step), "{:.2f}");
  if (r.bit_exact_vs_host) j["bit_exact_vs_host"] = *r.bit_exact_vs_host;
  j["portable_math_functions"] = r.portable_math_functions;
  if (r.target_cost) merge(j, *r.target_cost);
  if (r.task_run) merge(j, *r.task_run);
  if (r.fast_job) merge(j, *r.fast_job, "fast_job_");
  if (r.slow_job) merge(j, *r.slow_job, "slow_job_");
  if (r.budget) merge(j, *r.budget);
  if (r.calibrations.empty()) return;
  j["calibrations"] = r.calibrations;
  if (r.calibration_cost) merge(j, *r.calibration_cost);
}

void read_runs(const Json& j, VerifyResult& r) {
  read(j, "ops_per_step", r.ops_per_step);
  read(j, "ops_bound", r.ops_bound);
  read(j, "bit_exact_vs_host", r.bit_exact_vs_host);
  read(j, "portable_math_functions", r.portable_math_functions);
  r.target_cost =
      read_part<TargetCost>(j, {"instructions_per_step", "instructions_counted_steps", "text_bytes", "stack_bytes"});
  r.task_run = read_part<TaskRun>(j, {"tasks"});
  if (j.contains("fast_job_instructions_max")) r.fast_job = unprefixed(j, "fast_job_").get<JobCost>();
  if (j.contains("slow_job_instructions_max")) r.slow_job = unprefixed(j, "slow_job_").get<JobCost>();
  r.budget = read_part<Budget>(j, {"part"});
  read(j, "calibrations", r.calibrations);
  r.calibration_cost = read_part<CalibrationCost>(j, {"calibration_instructions"});
}

// The tasks' counts in groups, each group after its first count: a single-rate periodic task
// has no slow task's.
void write_task_counts(Json& j, const TaskRun& t, bool dual_rate) {
  if (t.overruns) {
    j["overruns"] = *t.overruns;
    if (dual_rate) j["slow_overruns"] = reported(t.slow_overruns);
    j["fast_overruns"] = reported(t.fast_overruns);
  }
  if (t.ticks) {
    j["ticks"] = *t.ticks;
    if (dual_rate) {
      j["slow_jobs"] = reported(t.slow_jobs);
      j["preempted_ticks"] = reported(t.preempted_ticks);
    }
  }
  if (t.overrun_handling) j["overrun_policy"] = to_string(*t.overrun_handling);
  if (t.fast_core && t.slow_core) {
    j["fast_task_core"] = *t.fast_core;
    j["slow_task_core"] = *t.slow_core;
    j["shared_overruns"] = reported(t.shared_overruns);
  }
  if (t.deferred_releases) {
    j["deferred_releases"] = *t.deferred_releases;
    j["longest_wait_ticks"] = reported(t.longest_wait);
  }
}

}  // namespace

void to_json(Json& j, const TargetCost& c) {
  j = Json::object();
  if (c.instructions) {
    j["instructions_per_step"] = tenths(c.instructions->mean);
    j["instructions_per_step_min"] = reported(c.instructions->min);
    j["instructions_per_step_max"] = c.instructions->max;
  }
  if (c.counted_steps) j["instructions_counted_steps"] = *c.counted_steps;
  if (c.sections) {
    j["text_bytes"] = c.sections->text;
    j["data_bytes"] = c.sections->data;
    j["bss_bytes"] = c.sections->bss;
  }
  if (c.stack_bytes) j["stack_bytes"] = *c.stack_bytes;
}

void from_json(const Json& j, TargetCost& c) {
  if (j.contains("instructions_per_step")) {
    StepInstructions i;
    read(j, "instructions_per_step", i.mean);
    read_reported(j, "instructions_per_step_min", i.min);
    read(j, "instructions_per_step_max", i.max);
    c.instructions = i;
  }
  read(j, "instructions_counted_steps", c.counted_steps);
  if (j.contains("text_bytes")) {
    SectionSizes s;
    read(j, "text_bytes", s.text);
    read(j, "data_bytes", s.data);
    read(j, "bss_bytes", s.bss);
    c.sections = s;
  }
  read(j, "stack_bytes", c.stack_bytes);
}

void to_json(Json& j, const TaskRun& t) {
  j = {{"tasks", to_string(t.tasks)}};
  if (t.bit_exact_vs_single) j["bit_exact_vs_single"] = *t.bit_exact_vs_single;
  write_task_counts(j, t, t.tasks != Tasks::kPeriodic);
  if (t.sched_fifo) {
    j["sched_fifo"] = *t.sched_fifo;
    j["late_ticks"] = reported(t.late_ticks);
    if (t.max_latency_ns) j["max_latency_us"] = tenths(static_cast<double>(*t.max_latency_ns) / 1e3);
    j["noise_retries"] = t.noise_retries;
  }
  if (t.icount_shift) {
    j["icount_shift"] = *t.icount_shift;
    j["tick_cycles"] = reported(t.tick_cycles);
  }
}

void from_json(const Json& j, TaskRun& t) {
  read_named(j, "tasks", kTaskKinds, t.tasks);
  read(j, "bit_exact_vs_single", t.bit_exact_vs_single);
  read(j, "overruns", t.overruns);
  read_reported(j, "slow_overruns", t.slow_overruns);
  read_reported(j, "fast_overruns", t.fast_overruns);
  read(j, "ticks", t.ticks);
  read_reported(j, "slow_jobs", t.slow_jobs);
  read_reported(j, "preempted_ticks", t.preempted_ticks);
  read_named(j, "overrun_policy", kOverrunHandlings, t.overrun_handling);
  read(j, "fast_task_core", t.fast_core);
  read(j, "slow_task_core", t.slow_core);
  read_reported(j, "shared_overruns", t.shared_overruns);
  read(j, "deferred_releases", t.deferred_releases);
  read_reported(j, "longest_wait_ticks", t.longest_wait);
  read(j, "sched_fifo", t.sched_fifo);
  read_reported(j, "late_ticks", t.late_ticks);
  if (j.contains("max_latency_us")) t.max_latency_ns = std::llround(number(j, "max_latency_us", 0) * 1e3);
  read(j, "noise_retries", t.noise_retries);
  read(j, "icount_shift", t.icount_shift);
  read_reported(j, "tick_cycles", t.tick_cycles);
}

void to_json(Json& j, const JobCost& c) {
  j = {{"instructions_max", c.instructions_max}, {"instructions_mean", tenths(c.instructions_mean)}};
}

void from_json(const Json& j, JobCost& c) {
  read(j, "instructions_max", c.instructions_max);
  read(j, "instructions_mean", c.instructions_mean);
}

void to_json(Json& j, const Budget& b) {
  j = {{"part", b.part},
       {"cpu_hz", b.cpu_hz},
       {"cpi", b.cpi},
       {"interrupt_entry_exit_cycles", b.overhead_cycles},
       {"fast_job_cycles_max", b.fast_cycles_max},
       {"fast_overhead_cycles", b.fast_overhead},
       {"fast_response_time", b.fast_response}};
  if (b.slow_cycles_max) {
    j["slow_job_cycles_max"] = *b.slow_cycles_max;
    j["slow_overhead_cycles"] = b.slow_overhead;
    j["slow_response_time"] = *b.slow_response;
  }
  j["utilization"] = significant6(b.utilization);
  j["schedulable"] = b.schedulable;
  j["margin"] = significant6(b.margin);
  j["min_cpu_hz"] = significant6(b.min_cpu_hz);
  Json cores = Json::array();
  if (b.slow_core == 0) {
    cores.push_back({{"core", 0},
                     {"tasks", b.slow_cycles_max ? Json::array({"fast", "slow"}) : Json::array({"fast"})},
                     {"utilization", significant6(b.fast_core_utilization)}});
  } else {
    cores.push_back(
        {{"core", 0}, {"tasks", Json::array({"fast"})}, {"utilization", significant6(b.fast_core_utilization)}});
    cores.push_back({{"core", b.slow_core},
                     {"tasks", Json::array({"slow"})},
                     {"utilization", significant6(b.slow_core_utilization)}});
  }
  j["cores"] = cores;
}

void from_json(const Json& j, Budget& b) {
  read(j, "part", b.part);
  read(j, "cpu_hz", b.cpu_hz);
  read(j, "cpi", b.cpi);
  read(j, "interrupt_entry_exit_cycles", b.overhead_cycles);
  read(j, "fast_job_cycles_max", b.fast_cycles_max);
  read(j, "fast_overhead_cycles", b.fast_overhead);
  read(j, "fast_response_time", b.fast_response);
  read(j, "slow_job_cycles_max", b.slow_cycles_max);
  read(j, "slow_overhead_cycles", b.slow_overhead);
  read(j, "slow_response_time", b.slow_response);
  read(j, "utilization", b.utilization);
  read(j, "schedulable", b.schedulable);
  read(j, "margin", b.margin);
  read(j, "min_cpu_hz", b.min_cpu_hz);
  const Json cores = j.value("cores", Json::array());
  if (!cores.empty()) read(cores[0], "utilization", b.fast_core_utilization);
  if (cores.size() > 1) {
    read(cores[1], "core", b.slow_core);
    read(cores[1], "utilization", b.slow_core_utilization);
  }
}

void to_json(Json& j, const CalibrationRecord& c) {
  Json set = Json::object();
  for (const auto& v : c.set) set[v.name] = v.table ? Json(v.values) : Json(v.values.at(0));
  j = {{"at", c.at}, {"step", c.step}, {"set", set}, {"applied", c.applied}};
  if (!c.applied) j["reason"] = c.reason;
}

void from_json(const Json& j, CalibrationRecord& c) {
  c.at = j.value("at", 0.0);
  c.step = j.value("step", 0L);
  c.applied = j.value("applied", false);
  c.reason = j.value("reason", std::string());
  for (const auto& [name, v] : j.at("set").items()) {
    CalibrationValue value;
    value.name = name;
    value.table = v.is_array();
    value.values = v.is_array() ? v.get<std::vector<double>>() : std::vector<double>{v.get<double>()};
    c.set.push_back(value);
  }
}

void to_json(Json& j, const CalibrationCost& c) {
  j = {{"calibration_instructions", c.instructions}, {"calibration_stack_bytes", c.stack_bytes}};
}

void from_json(const Json& j, CalibrationCost& c) {
  read(j, "calibration_instructions", c.instructions);
  read(j, "calibration_stack_bytes", c.stack_bytes);
}

void to_json(Json& j, const VerifyResult& r) {
  j = {{"model", r.model}, {"scheme", r.scheme}, {"target", r.target}, {"scalar", r.scalar}};
  write_checks(j, r);
  if (r.accuracy) j["accuracy"] = *r.accuracy;
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.directory.empty()) j["directory"] = r.directory;
  if (r.relinearized) merge(j, *r.relinearized);
  write_runs(j, r);
}

void from_json(const Json& j, VerifyResult& r) {
  r = VerifyResult();
  read(j, "model", r.model);
  read(j, "scheme", r.scheme);
  read(j, "target", r.target);
  read(j, "scalar", r.scalar);
  read_checks(j, r);
  if (j.contains("accuracy")) r.accuracy = j.at("accuracy").get<AccuracyCheck>();
  read(j, "error", r.error);
  read(j, "directory", r.directory);
  r.relinearized = read_part<RelinearizedComparison>(j, {"schedule_error", "relinearized_max_error"});
  read_runs(j, r);
}

std::string VerifyResult::json() const {
  // Messages carry programs' output: bytes that are not UTF-8 become U+FFFD, not an exception.
  return Json(*this).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string SystemResult::json() const {
  const std::optional<bool> all_accurate = accurate();
  Json j = {{"system", name},
            {"target", target},
            {"pass", pass},
            {"accurate", all_accurate ? Json(*all_accurate) : Json(nullptr)},
            {"base_tick", base_tick}};
  if (!error.empty()) j["error"] = error;
  if (!directory.empty()) j["directory"] = directory;
  Json list = Json::array();
  for (std::size_t i = 0; i < models.size(); ++i) {
    Json m = models[i];
    if (i < runs.size()) {
      const TaskRun& run = runs[i];
      m["system_run"] = {{"bit_exact_vs_own", run.bit_exact_vs_single.value_or(false)},
                         {"ticks", reported(run.ticks)},
                         {"slow_jobs", reported(run.slow_jobs)},
                         {"slow_overruns", reported(run.slow_overruns)},
                         {"fast_overruns", reported(run.fast_overruns)},
                         {"preempted_ticks", reported(run.preempted_ticks)},
                         {"deferred_releases", reported(run.deferred_releases)},
                         {"fast_handler_instructions", reported(run.fast_handler_instructions)},
                         {"slow_handler_instructions", reported(run.slow_handler_instructions)}};
    }
    list.push_back(m);
  }
  j["models"] = list;
  if (dispatcher_instructions >= 0) j["dispatcher_instructions"] = dispatcher_instructions;
  if (budget) {
    j["part"] = budget->part;
    j["cpu_hz"] = budget->cpu_hz;
    j["cpi"] = budget->cpi;
    Json tasks = Json::array();
    for (const auto& t : budget->tasks)
      tasks.push_back({{"name", t.name},
                       {"period", t.period},
                       {"priority", t.priority},
                       {"job_cycles_max", t.cycles},
                       {"overhead_cycles", t.overhead},
                       {"response_time", t.response}});
    j["task_set"] = tasks;
    j["utilization"] = significant6(budget->utilization);
    j["schedulable"] = budget->schedulable;
    j["margin"] = significant6(budget->margin);
    j["min_cpu_hz"] = significant6(budget->min_cpu_hz);
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace dualrate
