// The reference core's runs with calibration writes (RunOptions::calibration): up to the step a
// write applies at, the run is the one without it; from there on it is, bit for bit, the
// scheme's steps on a model loaded with the new value (--param), from the state reached, its
// constants computed at that value (sp_ll's linearization, quasistatic's Newton design, smfe's
// inner step); a refused write changes nothing; the high-accuracy run integrates the
// piecewise-constant value.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "model/calibration.hpp"
#include "model/functions.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

constexpr double kNewR = 1.6;

Model motor(const std::vector<ParameterOverride>& overrides = {}) {
  init_symbolic();
  return load_model_file(test::kCalibrationMotor, overrides);
}

CalibrationWrite set_r(double at, double r) { return {at, {}, {{"R", {r}, {}, false}}}; }

// The states of a trace row (t, states..., outputs...).
std::vector<double> states_of(const std::vector<double>& row, const Model& m) {
  return {row.begin() + 1, row.begin() + 1 + static_cast<long>(m.states.size())};
}

struct Case {
  std::string scheme;
  double h, t_end, at;
};

class CalibratedRun : public ::testing::TestWithParam<Case> {};

TEST_P(CalibratedRun, ContinuesAsAFreshRunAtTheNewValueFromTheStateReached) {
  const Case c = GetParam();
  const Model base = motor();
  RunOptions plain{c.scheme, c.h, c.t_end, 1};
  RunOptions written = plain;
  written.calibration = {set_r(c.at, kNewR)};
  const Trace without = ReferenceCore(base).simulate(plain);
  const Trace with = ReferenceCore(base).simulate(written);
  const long n = first_step_at(c.at, c.h);
  ASSERT_EQ(with.rows.size(), without.rows.size());
  ASSERT_LT(n + 1, static_cast<long>(with.rows.size()));
  for (long i = 0; i <= n; ++i) EXPECT_EQ(states_of(with.rows[i], base), states_of(without.rows[i], base)) << i;

  const Model fresh = motor({{"R", kNewR}});
  const ReferenceCore fresh_core(fresh);
  const auto step = fresh_core.single_step(plain);
  std::vector<double> x = states_of(with.rows[n], base);
  for (long i = n; i + 1 < static_cast<long>(with.rows.size()); ++i) {
    x = step(i, x);
    ASSERT_EQ(states_of(with.rows[i + 1], base), x) << c.scheme << " step " << i;
  }
  EXPECT_NE(states_of(with.rows.back(), base), states_of(without.rows.back(), base));
  // Outputs from the write's step on are at the new value: time_constant = tau = L/R.
  EXPECT_EQ(with.rows[n].back(), 1.0e-4 / kNewR);
  EXPECT_EQ(with.rows[n - 1].back(), 1.0e-4);
}

INSTANTIATE_TEST_SUITE_P(Schemes, CalibratedRun,
                         ::testing::Values(Case{"rk4", 1e-5, 0.004, 0.002}, Case{"euler", 1e-5, 0.004, 0.0025},
                                           Case{"sp_ll", 1e-5, 0.004, 0.002}, Case{"quasistatic", 1e-5, 0.004, 0.002},
                                           Case{"smfe", 1e-3, 0.02, 0.01}),
                         [](const auto& info) { return info.param.scheme; });

TEST(CalibratedRunRefused, ARefusedWriteChangesNothing) {
  const Model base = motor();
  RunOptions plain{"rk4", 1e-5, 0.002, 1};
  RunOptions written = plain;
  written.calibration = {set_r(0.001, 3.0)};  // above its max 2
  const ReferenceCore core(base);
  const Trace without = core.simulate(plain), with = core.simulate(written);
  EXPECT_EQ(with.rows, without.rows);
  // Half of a write refused is all of it refused.
  written.calibration = {{0.001, {}, {{"R", {kNewR}, {}, false}, {"Kt", {0.1}, {}, false}}}};
  EXPECT_EQ(core.simulate(written).rows, without.rows);
}

// A write at t = 0 is a run of the model at the new value (its initial values do not use R),
// for the grid-tied schemes and the high-accuracy run as for the others.
TEST(CalibratedRunAtZero, IsTheRunAtTheNewValue) {
  const Model base = motor();
  const Model fresh = motor({{"R", kNewR}});
  for (const std::string scheme : {"rk4", "abm4", "mrabm4", kHighAccuracy.c_str()}) {
    RunOptions plain{scheme, 1e-5, 0.002, 1};
    plain.ratio = 4;
    RunOptions written = plain;
    written.calibration = {set_r(0, kNewR)};
    EXPECT_EQ(ReferenceCore(base).simulate(written).rows, ReferenceCore(fresh).simulate(plain).rows) << scheme;
  }
}

// The index of the row at step n of size h (a dual-rate run writes one per macro step).
std::size_t row_of_step(const Trace& trace, long n, double h) {
  for (std::size_t r = 0; r < trace.rows.size(); ++r)
    if (std::fabs(trace.rows[r][0] - static_cast<double>(n) * h) <= 1e-9 * h) return r;
  ADD_FAILURE() << "no row at step " << n;
  return 0;
}

// A grid-tied scheme's run keeps its history across the write: up to the write's step it is the
// run without it, from there on it differs.
TEST(CalibratedRunGridTied, SwitchesAtTheWritesStep) {
  const Model base = motor();
  for (const std::string scheme : {"abm4", "mrabm4"}) {
    RunOptions plain{scheme, 1e-5, 0.004, 1};
    plain.ratio = 4;
    RunOptions written = plain;
    written.calibration = {set_r(0.00101, kNewR)};  // step 101; mrabm4: its macro step from 104
    const Trace without = ReferenceCore(base).simulate(plain), with = ReferenceCore(base).simulate(written);
    const std::size_t n = row_of_step(with, scheme == "abm4" ? 101 : 104, 1e-5);
    for (std::size_t i = 0; i <= n; ++i) EXPECT_EQ(states_of(with.rows[i], base), states_of(without.rows[i], base));
    EXPECT_NE(states_of(with.rows[n + 1], base), states_of(without.rows[n + 1], base)) << scheme;
    EXPECT_EQ(with.rows[n].back(), 1.0e-4 / kNewR) << scheme;
    EXPECT_EQ(with.rows[n - 1].back(), 1.0e-4) << scheme;
  }
}

// The model file with its states starting at x and R at r.
std::string motor_text_from(const std::vector<double>& x, double r) {
  std::string text = read_file(test::kCalibrationMotor);
  const auto replace = [&text](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("R: {value: 1.0,", fmt::format("R: {{value: {:.17g},", r));
  replace("    omega: 0\n", fmt::format("    omega: {:.17g}\n", x[0]));
  replace("    I: 0\n", fmt::format("    I: {:.17g}\n", x[1]));
  return text;
}

// The high-accuracy run integrates each segment between grid times on the model in effect at
// its start: across a write it is the run of the model at the new value started from the state
// the write's step reached (the motor is autonomous: the same integration, shifted in time).
TEST(CalibratedRunHighAccuracy, ContinuesFromTheStateAtTheWrite) {
  const Model base = motor();
  const double h = 1e-4, at = 0.005;
  RunOptions written{kHighAccuracy, h, 0.01, 1};
  written.calibration = {set_r(at, kNewR)};
  const Trace with = ReferenceCore(base).simulate(written);
  const long n = first_step_at(at, h);
  const std::vector<double> x = states_of(with.rows[n], base);
  init_symbolic();
  const Model fresh = load_model_text(motor_text_from(x, kNewR), test::kCalibrationMotor);
  const Trace after = ReferenceCore(fresh).simulate({kHighAccuracy, h, 0.01 - at, 1});
  ASSERT_EQ(static_cast<long>(after.rows.size()) + n, static_cast<long>(with.rows.size()));
  for (std::size_t j = 0; j < after.rows.size(); ++j)
    for (std::size_t k = 1; k < after.rows[j].size(); ++k)
      EXPECT_NEAR(with.rows[n + j][k], after.rows[j][k], 1e-12 * (1 + std::fabs(after.rows[j][k]))) << j << " " << k;
  const Trace without = ReferenceCore(base).simulate({kHighAccuracy, h, 0.01, 1});
  EXPECT_GT(std::fabs(with.rows.back()[2] - without.rows.back()[2]), 1.0);  // I: 12/R, 12 to 7.5 A
}

// simulate --calibration: a line per write on stderr, and the trace the reference core gives
// with the file's writes; an error in the file is positioned in it, exit status 1.
TEST(CalibrationCli, SimulateTakesAScenarioFile) {
  const std::string scenario = "tests/models/calibration/motor_scenario.yaml";
  const std::string dir = make_temp_dir("dualrate-calibration");
  const ProcessResult r = run_process({test::cli(), "simulate", test::kCalibrationMotor, "--calibration", scenario,
                                       "--every", "100", "-o", dir + "/trace.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("calibration: at 0.005 (step 500): R = 1.6 applied\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("calibration: at 0.01 (step 1000): Kt = 0.07, friction = [0.1, 0.12, 0.16, 0.25] applied"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("calibration: at 0.015 (step 1500): R = 3 refused: R = 3 is above its max 2"),
            std::string::npos)
      << r.output;
  const Model base = motor();
  RunOptions o{"rk4", 1e-5, 0.02, 100};
  o.exact_end = true;
  o.calibration = load_calibration_file(base, scenario);
  const ReferenceCore core(base);
  const Trace expected = core.with_inputs(core.simulate(o), o);
  const std::string csv = read_file(dir + "/trace.csv");
  EXPECT_NE(csv.find(fmt::format("{:.17g},{:.17g}", expected.rows.back()[0], expected.rows.back()[1])),
            std::string::npos);

  write_file(dir + "/bad.yaml", "- at: 0.005\n  set: {Rr: 1.6}\n");
  const ProcessResult bad =
      run_process({test::cli(), "simulate", test::kCalibrationMotor, "--calibration", dir + "/bad.yaml"});
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_EQ(bad.output.rfind(dir + "/bad.yaml:2:9: error: model 'motor' has no parameter or table 'Rr'", 0), 0U)
      << bad.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dualrate
