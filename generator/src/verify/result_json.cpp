// Size: every part of VerifyResult written and read back in one place, until the result is made
// of parts that each carry their own (issue 72).
// verify's results as JSON (result_json.hpp): one verify run's, its budget, and verify-system's.
#include "verify/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "verify/system.hpp"

namespace dualrate {

using Json = nlohmann::ordered_json;

namespace {

// The value a number printed with `format` reads back as: the precision verify reports it to.
double printed(double x, const char* format) {
  if (!std::isfinite(x)) return x;
  const std::string text = fmt::format(fmt::runtime(format), x);
  double value = x;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}
double significant7(double x) { return printed(x, "{:.6e}"); }
double significant6(double x) { return printed(x, "{:.5e}"); }
double tenths(double x) { return printed(x, "{:.1f}"); }

double number(const Json& j, const char* key, double absent) {
  if (!j.contains(key)) return absent;
  const Json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
}
template <typename T>
void read(const Json& j, const char* key, T& value) {
  if (j.contains(key)) j.at(key).get_to(value);
}
void read(const Json& j, const char* key, double& value) { value = number(j, key, value); }
// A flag the JSON holds as a boolean and VerifyResult as 1, 0 or -1 (not measured).
void read_flag(const Json& j, const char* key, int& value) {
  if (j.contains(key)) value = j.at(key).get<bool>() ? 1 : 0;
}

// The budget's fields, appended to the result's object.
void write_budget(Json& j, const Budget& b) {
  j["part"] = b.part;
  j["cpu_hz"] = b.cpu_hz;
  j["cpi"] = b.cpi;
  j["interrupt_entry_exit_cycles"] = b.overhead_cycles;
  j["fast_job_cycles_max"] = b.fast_cycles_max;
  j["fast_overhead_cycles"] = b.fast_overhead;
  j["fast_response_time"] = b.fast_response;
  const bool dual = b.slow_cycles_max >= 0;
  if (dual) {
    j["slow_job_cycles_max"] = b.slow_cycles_max;
    j["slow_overhead_cycles"] = b.slow_overhead;
    j["slow_response_time"] = b.slow_response;
  }
  j["utilization"] = significant6(b.utilization);
  j["schedulable"] = b.schedulable;
  j["margin"] = significant6(b.margin);
  j["min_cpu_hz"] = significant6(b.min_cpu_hz);
  Json cores = Json::array();
  if (b.slow_core == 0) {
    cores.push_back({{"core", 0},
                     {"tasks", dual ? Json::array({"fast", "slow"}) : Json::array({"fast"})},
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

Budget read_budget(const Json& j) {
  Budget b;
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
  return b;
}

// The outputs' check (OutputCheck), its fields prefixed output_.
void write_outputs(Json& j, const OutputCheck& o) {
  j["output_ratio"] = significant7(o.ratio);
  j["output_max_error"] = significant7(o.max_error);
  j["output_tolerance"] = significant7(o.tolerance);
  j["worst_output"] = o.worst_output;
  j["worst_output_time"] = o.worst_time;
  j["output_samples"] = o.samples;
  if (!o.exact_skipped.empty()) {
    j["output_exact_skipped"] = o.exact_skipped;
    j["output_local_ratio"] = significant7(o.local_ratio);
    j["output_local_error"] = significant7(o.local_error);
    j["output_local_tolerance"] = significant7(o.local_tolerance);
    return;
  }
  j["output_differing"] = o.differing;
  if (o.differing == 0) return;
  j["output_differing_time"] = o.differing_time;
  j["output_differing_output"] = o.differing_output;
  j["output_generated"] = o.generated;
  j["output_expected"] = o.expected;
}

void read_outputs(const Json& j, VerifyResult& r) {
  if (!j.contains("output_ratio")) return;
  OutputCheck o;
  read(j, "output_ratio", o.ratio);
  read(j, "output_max_error", o.max_error);
  read(j, "output_tolerance", o.tolerance);
  read(j, "worst_output", o.worst_output);
  read(j, "worst_output_time", o.worst_time);
  read(j, "output_samples", o.samples);
  read(j, "output_exact_skipped", o.exact_skipped);
  read(j, "output_local_ratio", o.local_ratio);
  read(j, "output_local_error", o.local_error);
  read(j, "output_local_tolerance", o.local_tolerance);
  read(j, "output_differing", o.differing);
  read(j, "output_differing_time", o.differing_time);
  read(j, "output_differing_output", o.differing_output);
  read(j, "output_generated", o.generated);
  read(j, "output_expected", o.expected);
  r.outputs = o;
}

// What was compared: the accumulated check, the local one, the exact step check and the outputs'.
void write_checks(Json& j, const VerifyResult& r) {
  j["steps"] = r.steps;
  j["t_end"] = printed(r.t_end, "{:.14e}");
  j["max_error"] = significant7(r.max_error);
  j["tolerance"] = significant7(r.tolerance);
  j["tolerance_basis"] = r.tolerance_basis;
  j["pass"] = r.pass;
  j["worst_state"] = r.worst_state;
  j["worst_time"] = r.worst_time;
  if (r.local_ratio >= 0) {
    j["local_max_error"] = significant7(r.local_max_error);
    j["local_tolerance"] = significant7(r.local_tolerance);
    j["local_ratio"] = significant7(r.local_ratio);
    j["local_tolerance_basis"] = r.local_tolerance_basis;
    j["local_worst_state"] = r.local_worst_state;
    j["local_worst_time"] = r.local_worst_time;
  }
  if (r.local_bias_ratio >= 0) {
    j["local_bias_ratio"] = significant7(r.local_bias_ratio);
    j["local_bias_sum"] = significant7(r.local_bias_sum);
    j["local_bias_bound"] = significant7(r.local_bias_bound);
    j["local_bias_state"] = r.local_bias_state;
  }
  if (r.exact_step) {
    j["exact_step_samples"] = r.exact_step->samples;
    j["exact_step_differing"] = r.exact_step->differing;
    if (r.exact_step->differing > 0) {
      j["exact_step_state"] = r.exact_step->state;
      j["exact_step_time"] = r.exact_step->time;
      j["exact_step_generated"] = r.exact_step->generated;
      j["exact_step_expected"] = r.exact_step->expected;
    }
  } else if (!r.exact_step_skipped.empty()) {
    j["exact_step_skipped"] = r.exact_step_skipped;
  }
  if (r.outputs) write_outputs(j, *r.outputs);
  if (r.tick_check) {
    j["tick_samples"] = r.tick_check->samples;
    j["tick_every"] = r.tick_check->every;
    j["tick_differing"] = r.tick_check->differing;
    if (r.tick_check->differing > 0) j["tick_first_differing_time"] = r.tick_check->first_differing_time;
  }
}

void read_checks(const Json& j, VerifyResult& r) {
  read(j, "steps", r.steps);
  read(j, "t_end", r.t_end);
  read(j, "max_error", r.max_error);
  read(j, "tolerance", r.tolerance);
  read(j, "tolerance_basis", r.tolerance_basis);
  read(j, "pass", r.pass);
  read(j, "worst_state", r.worst_state);
  read(j, "worst_time", r.worst_time);
  read(j, "local_max_error", r.local_max_error);
  read(j, "local_tolerance", r.local_tolerance);
  read(j, "local_ratio", r.local_ratio);
  read(j, "local_tolerance_basis", r.local_tolerance_basis);
  read(j, "local_worst_state", r.local_worst_state);
  read(j, "local_worst_time", r.local_worst_time);
  read(j, "local_bias_ratio", r.local_bias_ratio);
  read(j, "local_bias_sum", r.local_bias_sum);
  read(j, "local_bias_bound", r.local_bias_bound);
  read(j, "local_bias_state", r.local_bias_state);
  if (j.contains("exact_step_samples")) {
    ExactStepCheck e;
    read(j, "exact_step_samples", e.samples);
    read(j, "exact_step_differing", e.differing);
    read(j, "exact_step_state", e.state);
    read(j, "exact_step_time", e.time);
    read(j, "exact_step_generated", e.generated);
    read(j, "exact_step_expected", e.expected);
    r.exact_step = e;
  }
  read(j, "exact_step_skipped", r.exact_step_skipped);
  read_outputs(j, r);
  if (j.contains("tick_samples")) {
    TickCheck t;
    read(j, "tick_samples", t.samples);
    read(j, "tick_every", t.every);
    read(j, "tick_differing", t.differing);
    read(j, "tick_first_differing_time", t.first_differing_time);
    r.tick_check = t;
  }
}

// The generated code's cost: operations, instructions and sizes.
void write_cost(Json& j, const VerifyResult& r) {
  j["ops_per_step"] = r.ops_per_step;
  j["ops_bound"] = r.ops_bound;
  if (r.bit_exact_vs_host >= 0) j["bit_exact_vs_host"] = r.bit_exact_vs_host == 1;
  j["portable_math_functions"] = r.portable_math_functions;
  if (r.instructions_per_step >= 0) {
    j["instructions_per_step"] = tenths(r.instructions_per_step);
    j["instructions_per_step_min"] = r.instructions_min;
    j["instructions_per_step_max"] = r.instructions_max;
    j["instructions_per_op"] = printed(r.instructions_per_op(), "{:.2f}");
  }
  if (r.instructions_counted_steps >= 0) j["instructions_counted_steps"] = r.instructions_counted_steps;
  if (r.text_bytes >= 0) {
    j["text_bytes"] = r.text_bytes;
    j["data_bytes"] = r.data_bytes;
    j["bss_bytes"] = r.bss_bytes;
  }
  if (r.stack_bytes >= 0) j["stack_bytes"] = r.stack_bytes;
}

void read_cost(const Json& j, VerifyResult& r) {
  read(j, "ops_per_step", r.ops_per_step);
  read(j, "ops_bound", r.ops_bound);
  read_flag(j, "bit_exact_vs_host", r.bit_exact_vs_host);
  read(j, "portable_math_functions", r.portable_math_functions);
  read(j, "instructions_per_step", r.instructions_per_step);
  read(j, "instructions_per_step_min", r.instructions_min);
  read(j, "instructions_per_step_max", r.instructions_max);
  read(j, "instructions_counted_steps", r.instructions_counted_steps);
  read(j, "text_bytes", r.text_bytes);
  read(j, "data_bytes", r.data_bytes);
  read(j, "bss_bytes", r.bss_bytes);
  read(j, "stack_bytes", r.stack_bytes);
}

// The tasks' runs: their executives' counts (a single-rate periodic task has no slow one).
void write_tasks(Json& j, const VerifyResult& r) {
  j["tasks"] = r.tasks;
  if (r.bit_exact_vs_single >= 0) j["bit_exact_vs_single"] = r.bit_exact_vs_single == 1;
  const bool dual_rate = r.tasks != kPeriodicTask;
  if (r.overruns >= 0) {
    j["overruns"] = r.overruns;
    if (dual_rate) j["slow_overruns"] = r.slow_overruns;
    j["fast_overruns"] = r.fast_overruns;
  }
  if (r.ticks >= 0) {
    j["ticks"] = r.ticks;
    if (dual_rate) {
      j["slow_jobs"] = r.slow_jobs;
      j["preempted_ticks"] = r.preempted_ticks;
    }
  }
  if (dual_rate) j["overrun_policy"] = r.overrun_policy;
  if (r.fast_core >= 0 && r.slow_core >= 0) {
    j["fast_task_core"] = r.fast_core;
    j["slow_task_core"] = r.slow_core;
    j["shared_overruns"] = r.shared_overruns;
  }
  if (r.deferred_releases >= 0) {
    j["deferred_releases"] = r.deferred_releases;
    j["longest_wait_ticks"] = r.longest_wait;
  }
  if (r.sched_fifo >= 0) {
    j["sched_fifo"] = r.sched_fifo == 1;
    j["late_ticks"] = r.late_ticks;
    j["max_latency_us"] = tenths(static_cast<double>(r.max_latency_ns) / 1e3);
    j["noise_retries"] = r.noise_retries;
  }
  if (r.icount_shift >= 0) {
    j["icount_shift"] = r.icount_shift;
    j["tick_cycles"] = r.tick_cycles;
  }
}

void read_tasks(const Json& j, VerifyResult& r) {
  read(j, "tasks", r.tasks);
  read_flag(j, "bit_exact_vs_single", r.bit_exact_vs_single);
  read(j, "overruns", r.overruns);
  read(j, "slow_overruns", r.slow_overruns);
  read(j, "fast_overruns", r.fast_overruns);
  read(j, "ticks", r.ticks);
  read(j, "slow_jobs", r.slow_jobs);
  read(j, "preempted_ticks", r.preempted_ticks);
  read(j, "overrun_policy", r.overrun_policy);
  read(j, "fast_task_core", r.fast_core);
  read(j, "slow_task_core", r.slow_core);
  read(j, "shared_overruns", r.shared_overruns);
  read(j, "deferred_releases", r.deferred_releases);
  read(j, "longest_wait_ticks", r.longest_wait);
  read_flag(j, "sched_fifo", r.sched_fifo);
  read(j, "late_ticks", r.late_ticks);
  if (j.contains("max_latency_us")) r.max_latency_ns = std::llround(number(j, "max_latency_us", 0) * 1e3);
  read(j, "noise_retries", r.noise_retries);
  read(j, "icount_shift", r.icount_shift);
  read(j, "tick_cycles", r.tick_cycles);
}

void write_job(Json& j, const char* task, const JobCost& job) {
  if (job.instructions_max < 0) return;
  j[fmt::format("{}_job_instructions_max", task)] = job.instructions_max;
  j[fmt::format("{}_job_instructions_mean", task)] = tenths(job.instructions_mean);
}

void read_job(const Json& j, const char* task, JobCost& job) {
  read(j, fmt::format("{}_job_instructions_max", task).c_str(), job.instructions_max);
  read(j, fmt::format("{}_job_instructions_mean", task).c_str(), job.instructions_mean);
}

void write_calibrations(Json& j, const VerifyResult& r) {
  if (r.calibrations.empty()) return;
  Json list = Json::array();
  for (const auto& c : r.calibrations) {
    Json set = Json::object();
    for (const auto& v : c.set) set[v.name] = v.table ? Json(v.values) : Json(v.values.at(0));
    Json one = {{"at", c.at}, {"step", c.step}, {"set", set}, {"applied", c.applied}};
    if (!c.applied) one["reason"] = c.reason;
    list.push_back(one);
  }
  j["calibrations"] = list;
  if (r.calibration_instructions >= 0) {
    j["calibration_instructions"] = r.calibration_instructions;
    j["calibration_stack_bytes"] = r.calibration_stack_bytes;
  }
}

void read_calibrations(const Json& j, VerifyResult& r) {
  if (!j.contains("calibrations")) return;
  for (const auto& one : j.at("calibrations")) {
    CalibrationRecord c;
    c.at = one.value("at", 0.0);
    c.step = one.value("step", 0L);
    c.applied = one.value("applied", false);
    c.reason = one.value("reason", std::string());
    for (const auto& [name, v] : one.at("set").items()) {
      CalibrationValue value;
      value.name = name;
      value.table = v.is_array();
      value.values = v.is_array() ? v.get<std::vector<double>>() : std::vector<double>{v.get<double>()};
      c.set.push_back(value);
    }
    r.calibrations.push_back(c);
  }
  read(j, "calibration_instructions", r.calibration_instructions);
  read(j, "calibration_stack_bytes", r.calibration_stack_bytes);
}

}  // namespace

// The accuracy check (verify/accuracy.hpp) as one object.
Json accuracy_json(const AccuracyCheck& a) {
  if (!a.error.empty()) return {{"error", a.error}};
  Json j = {{"max_error", significant7(a.max_error)},
            {"worst_state", a.worst_state},
            {"worst_time", a.worst_time},
            {"relative_to", significant7(a.worst_scale)},
            {"worst_tolerance", a.judged() ? Json(significant7(a.worst_tolerance())) : Json(nullptr)},
            {"worst_absolute", a.worst_absolute()},
            {"tolerance", a.tolerance.relative ? Json(significant7(*a.tolerance.relative)) : Json(nullptr)},
            {"tolerance_source", a.tolerance_source},
            {"accurate", a.judged() ? Json(a.pass()) : Json(nullptr)}};
  Json absolute = Json::object(), states = Json::object(), outputs = Json::object();
  for (const auto& [name, value] : a.tolerance.absolute) absolute[name] = significant7(value);
  j["absolute_tolerance"] = absolute;
  for (const auto& c : a.columns) (c.output ? outputs : states)[c.name] = significant7(c.error);
  j["states"] = states;
  j["outputs"] = outputs;
  if (a.relinearized_error >= 0) j["relinearized_error"] = significant7(a.relinearized_error);
  if (a.hold_error >= 0) j["hold_error"] = significant7(a.hold_error);
  if (a.integration_error >= 0) j["integration_error"] = significant7(a.integration_error);
  return j;
}

AccuracyCheck read_accuracy(const Json& j) {
  AccuracyCheck a;
  read(j, "error", a.error);
  read(j, "max_error", a.max_error);
  read(j, "worst_state", a.worst_state);
  read(j, "worst_time", a.worst_time);
  read(j, "relative_to", a.worst_scale);
  if (j.contains("tolerance") && !j.at("tolerance").is_null()) a.tolerance.relative = j.at("tolerance").get<double>();
  read(j, "tolerance_source", a.tolerance_source);
  if (j.contains("absolute_tolerance"))
    for (const auto& item : j.at("absolute_tolerance").items())
      a.tolerance.absolute.emplace_back(item.key(), item.value().get<double>());
  for (const char* key : {"states", "outputs"})
    if (j.contains(key))
      for (const auto& item : j.at(key).items())
        a.columns.push_back({item.key(), item.value().get<double>(), has_absolute(a.tolerance, item.key()),
                             std::string(key) == "outputs"});
  read(j, "relinearized_error", a.relinearized_error);
  read(j, "hold_error", a.hold_error);
  read(j, "integration_error", a.integration_error);
  return a;
}

void to_json(Json& j, const VerifyResult& r) {
  j = Json::object();
  j["model"] = r.model;
  j["scheme"] = r.scheme;
  j["target"] = r.target;
  j["scalar"] = r.scalar;
  write_checks(j, r);
  if (r.accuracy) j["accuracy"] = accuracy_json(*r.accuracy);
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.directory.empty()) j["directory"] = r.directory;
  if (r.relinearized_error >= 0) {
    j["linearization"] = r.linearization;
    j[r.linearization == "scheduled" ? "schedule_error" : "relinearized_max_error"] =
        significant7(r.relinearized_error);
  }
  write_cost(j, r);
  if (!r.tasks.empty()) write_tasks(j, r);
  write_job(j, "fast", r.fast_job);
  write_job(j, "slow", r.slow_job);
  if (r.budget) write_budget(j, *r.budget);
  write_calibrations(j, r);
}

void from_json(const Json& j, VerifyResult& r) {
  r = VerifyResult();
  read(j, "model", r.model);
  read(j, "scheme", r.scheme);
  read(j, "target", r.target);
  read(j, "scalar", r.scalar);
  read_checks(j, r);
  if (j.contains("accuracy")) r.accuracy = read_accuracy(j.at("accuracy"));
  read(j, "error", r.error);
  read(j, "directory", r.directory);
  read(j, "linearization", r.linearization);
  read(j, "schedule_error", r.relinearized_error);
  read(j, "relinearized_max_error", r.relinearized_error);
  read_cost(j, r);
  read_tasks(j, r);
  read_job(j, "fast", r.fast_job);
  read_job(j, "slow", r.slow_job);
  if (j.contains("part")) r.budget = read_budget(j);
  read_calibrations(j, r);
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
      const VerifyResult& run = runs[i];
      m["system_run"] = {{"bit_exact_vs_own", run.bit_exact_vs_single == 1},
                         {"ticks", run.ticks},
                         {"slow_jobs", run.slow_jobs},
                         {"slow_overruns", run.slow_overruns},
                         {"fast_overruns", run.fast_overruns},
                         {"preempted_ticks", run.preempted_ticks},
                         {"deferred_releases", run.deferred_releases},
                         {"fast_handler_instructions", run.fast_job.handler_instructions_max},
                         {"slow_handler_instructions", run.slow_job.handler_instructions_max}};
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
