// verify's result as JSON (verify/result_json.hpp): what `dualrate verify --json` prints reads
// back into the same result, a document without the optional groups reads as not measured, and
// the numbers keep the precision verify reports them to.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "verify/result_json.hpp"

namespace dualrate {
namespace {

using Json = nlohmann::ordered_json;

// Every field the JSON holds set, as a dual-rate run on two cores reports them, with numbers
// at the precision they are written to. exact_step_skipped is left out: the JSON holds it only
// without an exact step check.
VerifyResult dual_rate_result() {
  VerifyResult r;
  r.model = "aircraft_pitch";
  r.scheme = "mrabm4";
  r.target = "cortex-m33-dual";
  r.scalar = "float";
  r.steps = 20000;
  r.t_end = 2;
  r.max_error = 1.234567e-5;
  r.tolerance = 4.5e-4;
  r.tolerance_basis = "step map";
  r.worst_state = "q";
  r.worst_time = 0.1234;
  r.local_ratio = 0.25;
  r.local_max_error = 1.5e-7;
  r.local_tolerance = 6e-7;
  r.local_tolerance_basis = "step map";
  r.local_worst_state = "theta";
  r.local_worst_time = 1.5;
  r.local_bias_ratio = 0.125;
  r.local_bias_sum = -2.5e-6;
  r.local_bias_bound = 2e-5;
  r.local_bias_state = "alpha";
  r.exact_step = ExactStepCheck{100, 3, 0.25, "q", 1.0000001, 1.0000002};
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
  r.outputs = o;
  r.error = "3 overruns (2 slow, 1 fast): \"quoted\"\nsecond line";
  r.directory = "/tmp/kept";
  r.relinearized_error = 3.5e-9;
  r.linearization = "frozen";
  AccuracyCheck a;
  a.max_error = 2.5e-3;
  a.worst_state = "alpha";
  a.worst_time = 0.75;
  a.worst_scale = 1.25;
  a.columns = {{"alpha", 2.5e-3, false, false}, {"q", 1.5e-5, true, false}, {"n_z", 4e-2, false, true}};
  a.relinearized_error = 1.5e-4;
  a.tolerance.relative = 1e-3;
  a.tolerance.absolute = {{"q", 1e-4}};
  a.tolerance_source = "simulation.tolerance";
  r.accuracy = a;
  r.ops_per_step = 120;
  r.ops_bound = 100;
  r.bit_exact_vs_host = 1;
  r.portable_math_functions = {"sin", "cos"};
  r.instructions_per_step = 1500.5;
  r.instructions_min = 1400;
  r.instructions_max = 1600;
  r.instructions_counted_steps = 200;
  r.text_bytes = 4096;
  r.data_bytes = 128;
  r.bss_bytes = 2048;
  r.stack_bytes = 512;
  r.tasks = "multi";
  r.bit_exact_vs_single = 0;
  r.overruns = 3;
  r.slow_overruns = 2;
  r.fast_overruns = 1;
  r.ticks = 2001;
  r.slow_jobs = 200;
  r.preempted_ticks = 150;
  r.overrun_policy = "defer";
  r.deferred_releases = 1;
  r.longest_wait = 4;
  r.fast_core = 0;
  r.slow_core = 1;
  r.shared_overruns = 0;
  r.sched_fifo = 1;
  r.late_ticks = 2;
  r.max_latency_ns = 123400;
  r.noise_retries = 1;
  r.icount_shift = 3;
  r.tick_cycles = 16800;
  r.fast_job = {1600, 1500.5, -1};
  r.slow_job = {9000, 8800.5, -1};
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
  r.budget = b;
  return r;
}

TEST(VerifyResultJson, EveryFieldReadsBackEqual) {
  const VerifyResult r = dual_rate_result();
  const Json j = r;
  const VerifyResult back = j.get<VerifyResult>();
  EXPECT_EQ(Json(back), j);
  EXPECT_EQ(back.json(), r.json());
  EXPECT_EQ(back.error, r.error);
  EXPECT_EQ(back.max_error, r.max_error);
  EXPECT_EQ(back.worst_time, r.worst_time);
  ASSERT_TRUE(back.exact_step);
  EXPECT_EQ(back.exact_step->expected, 1.0000002);
  EXPECT_EQ(back.exact_step->state, "q");
  ASSERT_TRUE(back.outputs);
  EXPECT_EQ(back.outputs->differing, 2);
  EXPECT_EQ(back.outputs->differing_output, "power");
  EXPECT_EQ(back.outputs->generated, 1.0009765625);
  EXPECT_EQ(back.outputs->worst_output, "rpm");
  EXPECT_EQ(back.relinearized_error, 3.5e-9);
  ASSERT_TRUE(back.accuracy);
  EXPECT_EQ(back.accuracy->max_error, 2.5e-3);
  EXPECT_EQ(back.accuracy->worst_scale, 1.25);
  EXPECT_EQ(back.accuracy->columns, r.accuracy->columns);
  EXPECT_EQ(back.accuracy->relinearized_error, 1.5e-4);
  EXPECT_EQ(back.accuracy->tolerance.relative, 1e-3);
  EXPECT_EQ(back.accuracy->tolerance.absolute, r.accuracy->tolerance.absolute);
  EXPECT_EQ(back.accuracy->worst_tolerance(), 1e-3);
  EXPECT_FALSE(back.accuracy->pass());
  EXPECT_EQ(j.at("accuracy").at("accurate"), false);
  EXPECT_FALSE(back.pass_all());
  EXPECT_EQ(back.bit_exact_vs_host, 1);
  EXPECT_EQ(back.bit_exact_vs_single, 0);
  EXPECT_EQ(back.max_latency_ns, 123400);
  EXPECT_EQ(back.slow_job.instructions_mean, 8800.5);
  ASSERT_TRUE(back.budget);
  EXPECT_EQ(back.budget->slow_core, 1);
  EXPECT_EQ(back.budget->slow_core_utilization, 0.045);
  EXPECT_EQ(back.budget->slow_response, 4.5e-5);
  // Derived, not read: instructions per op from the instructions and the operations.
  EXPECT_EQ(j.at("instructions_per_op"), 12.5);
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
  r.relinearized_error = 2e-11;
  r.linearization = "scheduled";
  r.tasks = kPeriodicTask;
  r.bit_exact_vs_single = 1;
  r.overruns = 0;
  r.fast_overruns = 0;
  r.ticks = 1000;
  r.sched_fifo = 0;
  r.late_ticks = 0;
  r.max_latency_ns = 56700;
  Budget b;
  b.part = "Cortex-A53";
  b.fast_cycles_max = 300;
  r.budget = b;
  const Json j = r;
  EXPECT_EQ(j.at("schedule_error"), 2e-11);
  EXPECT_FALSE(j.contains("slow_overruns"));
  EXPECT_FALSE(j.contains("overrun_policy"));
  EXPECT_EQ(j.at("cores"), Json::parse(R"([{"core":0,"tasks":["fast"],"utilization":0.0}])"));
  const VerifyResult back = j.get<VerifyResult>();
  EXPECT_EQ(Json(back), j);
  EXPECT_EQ(back.exact_step_skipped, "why not");
  ASSERT_TRUE(back.outputs);
  EXPECT_EQ(back.outputs->exact_skipped, "an output reads a table");
  EXPECT_EQ(back.outputs->local_ratio, 0.0625);
  EXPECT_FALSE(j.contains("output_differing"));
  EXPECT_EQ(back.linearization, "scheduled");
  EXPECT_EQ(back.relinearized_error, 2e-11);
  EXPECT_EQ(back.budget->slow_cycles_max, -1);
}

// A host run prints no optional group: what is absent reads as not measured, and the document
// writes back as it was, key for key in order.
TEST(VerifyResultJson, AbsentGroupsReadAsNotMeasured) {
  const std::string text =
      R"({"model":"dc_motor","scheme":"rk4","target":"host","scalar":"double","steps":100,"t_end":0.1,)"
      R"("max_error":1.5e-14,"tolerance":1e-12,"tolerance_basis":"scheme","pass":true,"worst_state":"i",)"
      R"("worst_time":0.05,"ops_per_step":42,"ops_bound":40,"portable_math_functions":[]})";
  const VerifyResult r = Json::parse(text).get<VerifyResult>();
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.steps, 100);
  EXPECT_EQ(r.local_ratio, -1);
  EXPECT_EQ(r.local_bias_ratio, -1);
  EXPECT_FALSE(r.exact_step);
  EXPECT_TRUE(r.exact_step_skipped.empty());
  EXPECT_EQ(r.relinearized_error, -1);
  EXPECT_EQ(r.bit_exact_vs_host, -1);
  EXPECT_EQ(r.instructions_per_step, -1);
  EXPECT_TRUE(r.tasks.empty());
  EXPECT_EQ(r.overruns, -1);
  EXPECT_EQ(r.fast_job.instructions_max, -1);
  EXPECT_FALSE(r.budget);
  EXPECT_FALSE(r.accuracy);
  EXPECT_EQ(r.json(), text);
}

// Errors and tolerances to 7 significant digits, instruction means to 0.1, times exactly; an
// infinite error (a trace with NaN) is null, which reads as infinity.
TEST(VerifyResultJson, NumbersKeepTheirPrecision) {
  VerifyResult r;
  r.max_error = 1.23456789e-5;
  r.tolerance = std::numeric_limits<double>::infinity();
  r.worst_time = 0.1 + 0.2;
  r.fast_job = {10, 12.345, -1};
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
