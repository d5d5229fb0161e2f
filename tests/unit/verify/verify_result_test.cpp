// verify's result as JSON (verify/result_json.hpp): what `dualrate verify --json` prints reads
// back into the same result, each part only where it was measured, and the numbers keep the
// precision verify reports them to.
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "verify/result_json.hpp"

namespace dualrate {
namespace {

using Json = nlohmann::ordered_json;

LocalCheckResult local_part() {
  LocalCheckResult l;
  l.ratio = 0.25;
  l.max_error = 1.5e-7;
  l.tolerance = 6e-7;
  l.tolerance_basis = ToleranceBasis::kStepMap;
  l.worst_state = "theta";
  l.worst_time = 1.5;
  l.bias_ratio = 0.125;
  l.bias_sum = -2.5e-6;
  l.bias_bound = 2e-5;
  l.bias_state = "alpha";
  return l;
}

OutputCheck outputs_part() {
  OutputCheck o;
  o.ratio = 0.5;
  o.max_error = 1.5e-7;
  o.tolerance = 3e-7;
  o.worst_output = "rpm";
  o.worst_time = 0.125;
  o.samples = 101;
  o.differing = 2;
  o.differing_time = 0.25;
  o.differing_output = "power";
  o.generated = 1.0009765625;
  o.expected = 1.0;
  return o;
}

AccuracyCheck accuracy_part() {
  AccuracyCheck a;
  a.max_error = 2.5e-3;
  a.worst_state = "alpha";
  a.worst_time = 0.75;
  a.worst_scale = 1.25;
  a.columns = {{"alpha", 2.5e-3, false, false}, {"q", 1.5e-5, true, false}, {"n_z", 4e-2, false, true}};
  a.relinearized_error = 1.5e-4;
  a.hold_error = 2e-4;
  a.integration_error = 2.25e-3;
  a.tolerance.relative = 1e-3;
  a.tolerance.absolute = {{"q", 1e-4}};
  a.tolerance_source = "simulation.tolerance";
  return a;
}

TargetCost target_cost_part() {
  TargetCost c;
  c.instructions = StepInstructions{1500.5, 1400, 1600};
  c.counted_steps = 200;
  c.sections = SectionSizes{4096, 128, 2048};
  c.stack_bytes = 512;
  return c;
}

TaskRun task_run_part() {
  TaskRun t;
  t.tasks = Tasks::kMulti;
  t.overrun_handling = OverrunHandling::kDefer;
  t.bit_exact_vs_single = false;
  t.overruns = 3;
  t.slow_overruns = 2;
  t.fast_overruns = 1;
  t.ticks = 2001;
  t.slow_jobs = 200;
  t.preempted_ticks = 150;
  t.deferred_releases = 1;
  t.longest_wait = 4;
  t.fast_core = 0;
  t.slow_core = 1;
  t.shared_overruns = 0;
  t.sched_fifo = true;
  t.late_ticks = 2;
  t.max_latency_ns = 123400;
  t.noise_retries = 1;
  t.icount_shift = 3;
  t.tick_cycles = 16800;
  return t;
}

Budget budget_part() {
  Budget b;
  b.part = "STM32H573";
  b.cpu_hz = 250e6;
  b.cpi = 1.25;
  b.overhead_cycles = 24;
  b.fast_overhead = 30.5;
  b.slow_overhead = 40.25;
  b.fast_cycles_max = 2000;
  b.slow_cycles_max = 11250;
  b.fast_response = 8.122e-6;
  b.slow_response = 4.5e-5;
  b.utilization = 0.123457;
  b.schedulable = true;
  b.margin = 0.5;
  b.min_cpu_hz = 3.08642e7;
  b.slow_core = 1;
  b.fast_core_utilization = 0.0812;
  b.slow_core_utilization = 0.045;
  return b;
}

// Every part present, as a dual-rate run on two cores with calibration writes would report
// them, with numbers at the precision they are written to. exact_step_skipped is left out: the
// JSON holds it only without an exact step check.
VerifyResult every_part_result() {
  VerifyResult r;
  r.model = "aircraft_pitch";
  r.scheme = "mrabm4";
  r.target = "cortex-m33-dual";
  r.scalar = "float";
  r.steps = 20000;
  r.t_end = 2;
  r.max_error = 1.234567e-5;
  r.tolerance = 4.5e-4;
  r.tolerance_basis = ToleranceBasis::kStepMap;
  r.worst_state = "q";
  r.worst_time = 0.1234;
  r.local = local_part();
  r.exact_step = ExactStepCheck{100, 3, 0.25, "q", 1.0000001, 1.0000002};
  r.outputs = outputs_part();
  r.tick_check = TickCheck{2001, 1, 1, 0.5};
  r.error = "3 overruns (2 slow, 1 fast): \"quoted\"\nsecond line";
  r.directory = "/tmp/kept";
  r.relinearized = RelinearizedComparison{Linearization::kFrozen, 3.5e-9};
  r.accuracy = accuracy_part();
  r.ops_per_step = 120;
  r.ops_bound = 100;
  r.bit_exact_vs_host = true;
  r.portable_math_functions = {"sin", "cos"};
  r.target_cost = target_cost_part();
  r.task_run = task_run_part();
  r.fast_job = JobCost{1600, 1500.5};
  r.slow_job = JobCost{9000, 8800.5};
  r.budget = budget_part();
  r.calibrations = {{0.5, 5000, {{"gain", {2.5}, {}, false}, {"map", {1, 2}, {}, true}}, true, ""},
                    {1.0, 10000, {{"gain", {-1}, {}, false}}, false, "below its range"}};
  r.calibration_cost = CalibrationCost{2500, 256};
  return r;
}

TEST(VerifyResultJson, EveryPartReadsBackEqual) {
  const VerifyResult r = every_part_result();
  const Json j = r;
  const VerifyResult back = j.get<VerifyResult>();
  EXPECT_EQ(Json(back), j);
  EXPECT_EQ(back.json(), r.json());
  EXPECT_EQ(back.text(), r.text());
  EXPECT_EQ(back.error, r.error);
  EXPECT_EQ(back.max_error, r.max_error);
  EXPECT_EQ(back.worst_time, r.worst_time);
  ASSERT_TRUE(back.local);
  EXPECT_EQ(back.local->bias_state, "alpha");
  EXPECT_EQ(back.local->tolerance_basis, ToleranceBasis::kStepMap);
  ASSERT_TRUE(back.exact_step);
  EXPECT_EQ(back.exact_step->expected, 1.0000002);
  EXPECT_EQ(back.exact_step->state, "q");
  ASSERT_TRUE(back.outputs);
  EXPECT_EQ(back.outputs->differing, 2);
  EXPECT_EQ(back.outputs->differing_output, "power");
  EXPECT_EQ(back.outputs->generated, 1.0009765625);
  EXPECT_EQ(back.outputs->worst_output, "rpm");
  ASSERT_TRUE(back.tick_check);
  EXPECT_EQ(back.tick_check->first_differing_time, 0.5);
  ASSERT_TRUE(back.relinearized);
  EXPECT_EQ(back.relinearized->linearization, Linearization::kFrozen);
  EXPECT_EQ(back.relinearized->max_error, 3.5e-9);
  ASSERT_TRUE(back.accuracy);
  EXPECT_EQ(back.accuracy->max_error, 2.5e-3);
  EXPECT_EQ(back.accuracy->worst_scale, 1.25);
  EXPECT_EQ(back.accuracy->columns, r.accuracy->columns);
  EXPECT_EQ(back.accuracy->relinearized_error, 1.5e-4);
  EXPECT_EQ(back.accuracy->hold_error, 2e-4);
  EXPECT_EQ(back.accuracy->tolerance.relative, 1e-3);
  EXPECT_EQ(back.accuracy->tolerance.absolute, r.accuracy->tolerance.absolute);
  EXPECT_EQ(back.accuracy->worst_tolerance(), 1e-3);
  EXPECT_FALSE(back.accuracy->pass());
  EXPECT_EQ(j.at("accuracy").at("accurate"), false);
  EXPECT_FALSE(back.pass_all());
  EXPECT_EQ(back.bit_exact_vs_host, true);
  ASSERT_TRUE(back.target_cost && back.target_cost->instructions);
  EXPECT_EQ(back.target_cost->instructions->min, 1400);
  // Derived from the step's instructions and operations (1500.5 / 120), written to two decimals.
  EXPECT_EQ(j.at("instructions_per_op"), 12.5);
  EXPECT_EQ(back.target_cost->instructions->per_op(back.ops_per_step), 1500.5 / 120);
  ASSERT_TRUE(back.task_run);
  EXPECT_EQ(back.task_run->bit_exact_vs_single, false);
  EXPECT_EQ(back.task_run->max_latency_ns, 123400);
  EXPECT_EQ(back.task_run->tick_cycles, 16800);
  ASSERT_TRUE(back.slow_job);
  EXPECT_EQ(back.slow_job->instructions_mean, 8800.5);
  ASSERT_TRUE(back.budget);
  EXPECT_EQ(back.budget->slow_core, 1);
  EXPECT_EQ(back.budget->slow_core_utilization, 0.045);
  EXPECT_EQ(back.budget->slow_response, 4.5e-5);
  ASSERT_EQ(back.calibrations.size(), 2u);
  EXPECT_EQ(back.calibrations[0].set[1].values, (std::vector<double>{1, 2}));
  EXPECT_EQ(back.calibrations[1].reason, "below its range");
  ASSERT_TRUE(back.calibration_cost);
  EXPECT_EQ(back.calibration_cost->stack_bytes, 256);
}

// A result without any part writes none of their keys, reads back without them and writes
// back as it was, key for key in order.
TEST(VerifyResultJson, NoPartWritesNoKeys) {
  const std::string text =
      R"({"model":"dc_motor","scheme":"rk4","target":"host","scalar":"double","steps":100,"t_end":0.1,)"
      R"("max_error":1.5e-14,"tolerance":1e-12,"tolerance_basis":"scheme","pass":true,"worst_state":"i",)"
      R"("worst_time":0.05,"ops_per_step":42,"ops_bound":40,"portable_math_functions":[]})";
  const VerifyResult r = Json::parse(text).get<VerifyResult>();
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.steps, 100);
  EXPECT_FALSE(r.local);
  EXPECT_FALSE(r.exact_step);
  EXPECT_TRUE(r.exact_step_skipped.empty());
  EXPECT_FALSE(r.outputs);
  EXPECT_FALSE(r.tick_check);
  EXPECT_FALSE(r.relinearized);
  EXPECT_FALSE(r.accuracy);
  EXPECT_FALSE(r.bit_exact_vs_host);
  EXPECT_FALSE(r.target_cost);
  EXPECT_FALSE(r.task_run);
  EXPECT_FALSE(r.fast_job);
  EXPECT_FALSE(r.slow_job);
  EXPECT_FALSE(r.budget);
  EXPECT_TRUE(r.calibrations.empty());
  EXPECT_FALSE(r.calibration_cost);
  EXPECT_EQ(r.json(), text);
  EXPECT_EQ(Json(Json::parse(r.json()).get<VerifyResult>()).dump(), text);
}

// The names verify writes for its enums read back; another name is an error that says which,
// not a silent default; no tolerance basis is "".
TEST(VerifyResultJson, AnUnknownNameIsAnError) {
  for (const auto& [key, text] : std::vector<std::pair<std::string, std::string>>{
           {"tolerance_basis", R"({"model":"m","tolerance_basis":"guess"})"},
           {"tasks", R"({"model":"m","tasks":"dual"})"},
           {"linearization", R"({"model":"m","linearization":"sideways","relinearized_max_error":1})"}}) {
    try {
      Json::parse(text).get<VerifyResult>();
      ADD_FAILURE() << text << " read without error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("unknown " + key + " '"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(Json::parse(R"({"tasks":"periodic"})").get<TaskRun>().tasks, Tasks::kPeriodic);
  // A run that stopped before its checks derived no tolerance: "" both ways.
  const VerifyResult stopped = Json::parse(R"({"model":"m","tolerance_basis":""})").get<VerifyResult>();
  EXPECT_FALSE(stopped.tolerance_basis);
  EXPECT_NE(stopped.json().find(R"("tolerance_basis":"")"), std::string::npos) << stopped.json();
}

// Each part absent from the every-part result takes its keys out and no other's.
TEST(VerifyResultJson, AnAbsentPartWritesNoKeys) {
  const VerifyResult full = every_part_result();
  const Json all = full;
  const auto without = [&](auto clear, std::initializer_list<const char*> keys) {
    VerifyResult r = full;
    clear(r);
    const Json j = r;
    for (const char* key : keys) EXPECT_FALSE(j.contains(key)) << key;
    EXPECT_EQ(j.size() + keys.size(), all.size()) << j.dump();
    EXPECT_EQ(Json(j.get<VerifyResult>()), j);
  };
  without([](VerifyResult& r) { r.local.reset(); },
          {"local_max_error", "local_tolerance", "local_ratio", "local_tolerance_basis", "local_worst_state",
           "local_worst_time", "local_bias_ratio", "local_bias_sum", "local_bias_bound", "local_bias_state"});
  without([](VerifyResult& r) { r.relinearized.reset(); }, {"linearization", "relinearized_max_error"});
  without([](VerifyResult& r) { r.bit_exact_vs_host.reset(); }, {"bit_exact_vs_host"});
  without([](VerifyResult& r) { r.target_cost.reset(); },
          {"instructions_per_step", "instructions_per_step_min", "instructions_per_step_max", "instructions_per_op",
           "instructions_counted_steps", "text_bytes", "data_bytes", "bss_bytes", "stack_bytes"});
  without([](VerifyResult& r) { r.task_run.reset(); },
          {"tasks",          "bit_exact_vs_single", "overruns",          "slow_overruns",      "fast_overruns",
           "ticks",          "slow_jobs",           "preempted_ticks",   "overrun_policy",     "fast_task_core",
           "slow_task_core", "shared_overruns",     "deferred_releases", "longest_wait_ticks", "sched_fifo",
           "late_ticks",     "max_latency_us",      "noise_retries",     "icount_shift",       "tick_cycles"});
  without([](VerifyResult& r) { r.fast_job.reset(); }, {"fast_job_instructions_max", "fast_job_instructions_mean"});
  without([](VerifyResult& r) { r.calibration_cost.reset(); }, {"calibration_instructions", "calibration_stack_bytes"});
  without([](VerifyResult& r) { r.tick_check.reset(); },
          {"tick_samples", "tick_every", "tick_differing", "tick_first_differing_time"});
}

// A single-rate run as one periodic task on cortex-a53-linux, its exact step check not made, a
// scheduled linearization, the budget of the fast task alone.
TEST(VerifyResultJson, PeriodicTaskReadsBackEqual) {
  VerifyResult r;
  r.model = "dc_motor";
  r.scheme = "sp_ll";
  r.target = "cortex-a53-linux";
  r.scalar = "double";
  r.steps = 1000;
  r.t_end = 0.1;
  r.exact_step_skipped = "why not";
  OutputCheck o;
  o.ratio = 0.25;
  o.worst_output = "y";
  o.samples = 11;
  o.exact_skipped = "an output reads a table";
  o.local_ratio = 0.0625;
  o.local_error = 1e-8;
  o.local_tolerance = 1.6e-7;
  r.outputs = o;
  r.relinearized = RelinearizedComparison{Linearization::kScheduled, 2e-11};
  TargetCost cost;
  cost.instructions = StepInstructions{159, std::nullopt, 160};
  cost.counted_steps = 200;
  r.target_cost = cost;
  TaskRun t;
  t.tasks = Tasks::kPeriodic;
  t.bit_exact_vs_single = true;
  t.overruns = 0;
  t.fast_overruns = 0;
  t.ticks = 1000;
  t.sched_fifo = false;
  t.late_ticks = 0;
  t.max_latency_ns = 56700;
  r.task_run = t;
  Budget b;
  b.part = "Cortex-A53";
  b.fast_cycles_max = 300;
  r.budget = b;
  const Json j = r;
  EXPECT_EQ(j.at("schedule_error"), 2e-11);
  EXPECT_FALSE(j.contains("slow_overruns"));
  EXPECT_FALSE(j.contains("overrun_policy"));
  // Not counted on cortex-a53-linux: the minimum is written as -1, and reads back absent.
  EXPECT_EQ(j.at("instructions_per_step_min"), -1);
  EXPECT_EQ(j.at("cores"), Json::parse(R"([{"core":0,"tasks":["fast"],"utilization":0.0}])"));
  const VerifyResult back = j.get<VerifyResult>();
  EXPECT_EQ(Json(back), j);
  EXPECT_EQ(back.exact_step_skipped, "why not");
  ASSERT_TRUE(back.outputs);
  EXPECT_EQ(back.outputs->exact_skipped, "an output reads a table");
  EXPECT_EQ(back.outputs->local_ratio, 0.0625);
  EXPECT_FALSE(j.contains("output_differing"));
  ASSERT_TRUE(back.relinearized);
  EXPECT_EQ(back.relinearized->linearization, Linearization::kScheduled);
  EXPECT_EQ(back.relinearized->max_error, 2e-11);
  EXPECT_FALSE(back.target_cost->instructions->min);
  EXPECT_FALSE(back.task_run->slow_overruns);
  EXPECT_FALSE(back.budget->slow_cycles_max);
}

// Errors and tolerances to 7 significant digits, instruction means to 0.1, times exactly; an
// infinite error (a trace with NaN) is null, which reads as infinity.
TEST(VerifyResultJson, NumbersKeepTheirPrecision) {
  VerifyResult r;
  r.max_error = 1.23456789e-5;
  r.tolerance = std::numeric_limits<double>::infinity();
  r.worst_time = 0.1 + 0.2;
  r.fast_job = JobCost{10, 12.345};
  const Json j = Json::parse(r.json());
  EXPECT_EQ(j.at("max_error"), 1.234568e-5);
  EXPECT_TRUE(j.at("tolerance").is_null());
  EXPECT_EQ(j.at("worst_time"), 0.1 + 0.2);
  EXPECT_EQ(j.at("fast_job_instructions_mean"), 12.3);
  const VerifyResult back = j.get<VerifyResult>();
  EXPECT_EQ(back.tolerance, std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace dualrate
