// verify --report's page (report.hpp) without a browser: its sections, one plot per state and
// one of the error, escaping of the model's text, and the error curve whose maximum is
// verify's max_error.
#include <gtest/gtest.h>

#include "verify/report.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// A passing double result of `model` with `scheme` on `target`, the fields each test sets on it.
VerifyResult passed_result(const std::string& model, const std::string& scheme, const std::string& target) {
  VerifyResult r;
  r.model = model;
  r.scheme = scheme;
  r.target = target;
  r.scalar = "double";
  r.pass = true;
  return r;
}

TEST(Report, ErrorOverTimeIsWhatMaxErrorMaximizes) {
  const Trace reference{{"t", "a", "b"}, {{0, 1, -4}, {1, 2, 0}, {2, 0.5, 1}}};
  const Trace generated{{"t", "a", "b"}, {{0, 1, -4}, {1, 2.5, 0.1}, {2, 0.5, 1.8}}};
  // Scales: max(1, |a|) = 2, max(1, |b|) = 4.
  const std::vector<double> e = error_over_time(generated, reference, 2);
  ASSERT_EQ(e.size(), 3U);
  EXPECT_EQ(e[0], 0.0);
  EXPECT_DOUBLE_EQ(e[1], 0.25);
  EXPECT_DOUBLE_EQ(e[2], 0.2);
  EXPECT_DOUBLE_EQ(*std::max_element(e.begin(), e.end()), compare_traces(generated, reference, 2).max_error);
}

// A single-rate scheme run as one periodic task (cortex-a53-linux) reports its steps and
// overruns without the dual-rate fields (slow jobs, slow overruns, overrun policy), and a
// Linux program's cost without the sizes and stack it does not measure.
TEST(VerifyResultText, PeriodicTaskHasNoDualRateFields) {
  VerifyResult r = passed_result("quarter_car", "rk4", "cortex-a53-linux");
  TaskRun& t = r.task_run.emplace();
  t.tasks = Tasks::kPeriodic;
  t.bit_exact_vs_single = true;
  t.overruns = 0;
  t.fast_overruns = 0;
  t.ticks = 3000;
  t.sched_fifo = true;
  t.late_ticks = 2;
  t.max_latency_ns = 3000;
  r.ops_per_step = 101;
  r.target_cost.emplace().instructions = StepInstructions{159, std::nullopt, 159};
  const std::string json = r.json(), text = r.text();
  for (const char* field : {"\"tasks\":\"periodic\"", "\"bit_exact_vs_single\":true", "\"overruns\":0",
                            "\"fast_overruns\":0", "\"ticks\":3000", "\"late_ticks\":2"})
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
  for (const char* field : {"slow_overruns", "slow_jobs", "preempted_ticks", "overrun_policy", "text_bytes"})
    EXPECT_EQ(json.find(field), std::string::npos) << field << " in " << json;
  EXPECT_NE(text.find("periodic task: its run equals bit for bit the back-to-back one; 3000 steps, overruns 0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("159.0 instructions per step (max 159)"), std::string::npos) << text;
  EXPECT_EQ(text.find("-1"), std::string::npos) << text;
}

TEST(Report, PageHasEverySectionAndEscapesTheModel) {
  init_symbolic();
  const Model m = load_model_text(
      "name: decay\ndescription: x < 1 & falls\nstates: {slow: {x: 1}, fast: {z: 0}}\nequations: {x: -x, z: -100*(z - "
      "x)}\n",
      "d.yaml");
  VerifyOptions o;
  o.generate.step = 0.01;
  o.t_end = 0.02;
  o.target = "host";
  VerifyResult r = passed_result("decay", "rk4", "host");
  r.tolerance = 1e-12;
  AccuracyCheck a;
  a.max_error = 2e-2;
  a.worst_state = "z";
  a.tolerance.relative = 1e-2;
  a.tolerance_source = "--tolerance";
  r.accuracy = a;
  ReportData d;
  d.model = &m;
  d.model_source = "name: decay # <b>not bold</b>\n";
  d.options = &o;
  d.result = &r;
  d.stability_error = "no analysis here";
  d.reference = {{"t", "x", "z"}, {{0, 1, 0}, {0.01, 0.99, 0.5}, {0.02, 0.98, 0.7}}};
  d.generated = d.reference;
  d.accurate = d.reference;
  int plots = 0;
  const std::string html = report_html(d, [&plots](const std::string& script) {
    EXPECT_NE(script.find("set terminal svg"), std::string::npos);
    return "<svg id=\"plot" + std::to_string(++plots) + "\"></svg>";
  });
  EXPECT_EQ(plots, 3);  // x, z and the error
  const Trace data = report_traces(d);
  EXPECT_EQ(data.columns, (std::vector<std::string>{"t", "generated_x", "generated_z", "reference_x", "reference_z",
                                                    "accurate_x", "accurate_z"}));
  ASSERT_EQ(data.rows.size(), 3U);
  EXPECT_EQ(data.rows[1], (std::vector<double>{0.01, 0.99, 0.5, 0.99, 0.5, 0.99, 0.5}));
  for (const char* section : {"<h2>Model</h2>", "<h2>Scheme and options</h2>", "<h2>Analysis at the initial state</h2>",
                              "<h2>Results on host</h2>", "<h2>Error over time</h2>", "<h2>States over time</h2>",
                              "<h2>Model source</h2>", "class=\"verdict pass\">PASS",
                              "class=\"verdict fail\">NOT ACCURATE: max error 2.000e-02 against the high-accuracy "
                              "solution at z"})
    EXPECT_NE(html.find(section), std::string::npos) << section;
  EXPECT_NE(html.find("x &lt; 1 &amp; falls"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;not bold&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>not bold</b>"), std::string::npos);
  EXPECT_NE(html.find("no analysis here"), std::string::npos);
  r.pass = false;
  r.error = "the build failed";
  EXPECT_NE(report_html(d, [](const std::string&) { return std::string("<svg></svg>"); })
                .find("class=\"verdict fail\">FAIL: the build failed"),
            std::string::npos);
}

}  // namespace
}  // namespace dualrate
