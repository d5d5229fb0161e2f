// Scheduled constants (simulation: linearization: scheduled, constant_schedule/constant_schedule.hpp): the
// interpolation, the design's grid and proof, sp_ll on jet_acceleration against the
// high-accuracy solution, the re-linearizing reference core and the frozen linearization, and
// smfe's scheduled inner step.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <utility>

#include "base/diagnostics.hpp"
#include "base/process.hpp"
#include "reference_core/reference_core.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "registry/registry.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

NamedMatrix scalar_matrix(double v) { return {"m", Eigen::MatrixXd::Constant(1, 1, v), "m"}; }

// f(s) = 2 s + 1 at the grid points 0, 1, 3: linear between them, held beyond.
TEST(Schedule, InterpolatesLinearlyAndClampsAtTheEnds) {
  ConstantSchedule c;
  c.grid = {{0, 1, 3}};
  for (double s : c.grid[0]) c.constants.push_back({scalar_matrix(2 * s + 1)});
  const auto at = [&](double s) { return interpolate(c, {s}).front().value(0, 0); };
  EXPECT_EQ(at(0), 1);
  EXPECT_EQ(at(1), 3);
  EXPECT_EQ(at(3), 7);
  EXPECT_DOUBLE_EQ(at(0.5), 2);
  EXPECT_DOUBLE_EQ(at(2), 5);
  EXPECT_EQ(at(-1), 1);
  EXPECT_EQ(at(4), 7);
}

// f(s, r) = s + 10 r + s r on a 3 x 2 grid: bilinear, so exact inside every cell.
TEST(Schedule, InterpolatesBilinearlyOverTwoValues) {
  ConstantSchedule c;
  c.grid = {{0, 1, 2}, {0, 4}};
  const auto f = [](double s, double r) { return s + 10 * r + s * r; };
  for (double s : c.grid[0])
    for (double r : c.grid[1]) c.constants.push_back({scalar_matrix(f(s, r))});
  for (double s : {0.0, 0.25, 1.0, 1.5, 2.0})
    for (double r : {0.0, 1.0, 3.5, 4.0}) EXPECT_NEAR(interpolate(c, {s, r}).front().value(0, 0), f(s, r), 1e-12);
}

struct Runs {
  double scheduled, relinearized, frozen;
};

// Largest error of each run against the high-accuracy solution, relative to each state's
// largest magnitude along it.
double max_error(const Trace& run, const Trace& reference, std::size_t states) {
  double worst = 0;
  for (std::size_t i = 1; i <= states; ++i) {
    double scale = 0, error = 0;
    for (std::size_t k = 0; k < reference.rows.size(); ++k) {
      scale = std::max(scale, std::fabs(reference.rows[k][i]));
      error = std::max(error, std::fabs(run.rows.at(k)[i] - reference.rows[k][i]));
    }
    worst = std::max(worst, error / scale);
  }
  return worst;
}

SchemeDesign scheduled(const Model& m, double step, double t_end, const std::string& scheme = "sp_ll") {
  GenerateRequest g{scheme, step, 1, ScalarType::kDouble, "test"};
  g.t_end = t_end;
  return precompute_scheme(m, g);
}

Model jet() { return test::load(test::source_path("models/jet_acceleration.yaml")); }

class ScheduledModel : public ::testing::TestWithParam<std::string> {};

// jet_acceleration (100 to 245 m/s: g_z scales with the dynamic pressure) and
// tire_lag_vehicle (10 to 37 m/s: the tire lag with 1 / V): the scheduled constants
// (points: auto) do as well as sp_ll's per-step re-linearization, the ideal they interpolate,
// against the high-accuracy solution; the linearization frozen at the initial state does not.
TEST_P(ScheduledModel, IsCloseToRelinearizedAndFarBetterThanFrozen) {
  const Model m = test::load(test::source_path(GetParam()));
  const double h = *m.simulation.step, t_end = m.simulation.t_end;
  const std::size_t n = m.states.size();
  const SchemeDesign g = scheduled(m, h, t_end);
  ASSERT_TRUE(g.schedule);
  const ReferenceCore core(m);
  const Trace reference = core.simulate({kHighAccuracy, h, t_end, 1});
  RunOptions run{"sp_ll", h, t_end, 1};
  run.schedule = g.schedule;
  const double scheduled_error = max_error(core.simulate(run), reference, n);
  run.schedule = nullptr;
  const double relinearized_error = max_error(core.simulate(run), reference, n);
  run.linearization = Linearization::kFrozen;
  const double frozen_error = max_error(core.simulate(run), reference, n);
  std::cout << fmt::format("grid {} points; errors: scheduled {:.3e}, re-linearized {:.3e}, frozen {:.3e}\n",
                           g.schedule->points(), scheduled_error, relinearized_error, frozen_error);
  EXPECT_LE(scheduled_error, 2 * relinearized_error);
  EXPECT_GE(frozen_error, 10 * scheduled_error);
}

INSTANTIATE_TEST_SUITE_P(Models, ScheduledModel,
                         ::testing::Values("models/jet_acceleration.yaml", "models/tire_lag_vehicle.yaml"),
                         [](const auto& info) { return test::stem(info.param); });

// More grid points converge to the re-linearized result. The constants' interpolation error
// (the midpoint criterion of points: auto) is that of linear interpolation of smooth functions,
// O(spacing^2): halving the spacing divides it by about 4 (at least 3 asserted, for the
// higher-order terms at 3 and 5 points). The run's difference from the re-linearized run falls
// with it until it meets what the schedule cannot remove: its operating points lie on the
// reference trajectory, the re-linearization's on the run's own states.
TEST(Schedule, MorePointsConvergeToTheRelinearizedResult) {
  Model m = jet();
  const double h = *m.simulation.step, t_end = 40;
  const std::size_t n = m.states.size();
  const ReferenceCore core(m);
  RunOptions run{"sp_ll", h, t_end, 1};
  const Trace relinearized = core.simulate(run);
  std::vector<double> interpolation, difference;
  for (int points : {3, 5, 9, 17}) {
    m.simulation.schedule->counts = {points};
    run.schedule = scheduled(m, h, t_end).schedule;
    interpolation.push_back(run.schedule->interpolation_error);
    difference.push_back(max_error(core.simulate(run), relinearized, n));
  }
  for (std::size_t i = 1; i < difference.size(); ++i) {
    std::cout << fmt::format(
        "{} -> {} points: interpolation error {:.3e} -> {:.3e} (ratio {:.2f}), run's difference "
        "{:.3e} -> {:.3e} (ratio {:.2f})\n",
        (1 << i) + 1, (1 << (i + 1)) + 1, interpolation[i - 1], interpolation[i],
        interpolation[i - 1] / interpolation[i], difference[i - 1], difference[i], difference[i - 1] / difference[i]);
    EXPECT_GE(interpolation[i - 1] / interpolation[i], 3);
    EXPECT_LT(difference[i], difference[i - 1]);
  }
  EXPECT_GE(difference.front() / difference.back(), 10);
}

// scheduled_stiffness's fast rate grows a hundredfold over its range: two grid points are not
// enough (the proof refuses them, naming where), points: auto is.
TEST(Schedule, TheProofRefusesAGridTooCoarseAndAutoRefinesIt) {
  Model m = test::load(test::source_path("tests/models/schemes/scheduled_stiffness.yaml"));
  try {
    scheduled(m, *m.simulation.step, m.simulation.t_end);
    ADD_FAILURE() << "a 2-point schedule was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("unstable at x ="), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the growth is the scheme's"), std::string::npos) << e.what();
    std::cout << e.format() << "\n";
  }
  m.simulation.schedule->counts = {0};
  const SchemeDesign g = scheduled(m, *m.simulation.step, m.simulation.t_end);
  std::cout << schedule_summary(*g.schedule);
  EXPECT_GT(g.schedule->points(), 2u);
  EXPECT_LE(g.schedule->worst_relative, 1 + kStabilityMargin);
}

// A plant that grows (x' = 0.5 x on the slow manifold): sp_ll's map grows with it, radius
// about e^(0.5 h) > 1 at every point. The proof judges it against the model's own growth there
// (docs/schemes.md#growing-models) and accepts it; before, any radius above 1 was refused.
TEST(Schedule, TheProofAcceptsAMapThatFollowsTheModelsGrowth) {
  const Model m = test::load(test::source_path("tests/models/schemes/scheduled_growth.yaml"));
  const SchemeDesign g = scheduled(m, *m.simulation.step, m.simulation.t_end);
  EXPECT_GT(g.schedule->worst_radius, 1.0);
  EXPECT_GT(g.schedule->worst_model_growth, 1.0);
  EXPECT_LE(g.schedule->worst_relative, 1 + kStabilityMargin);
  EXPECT_NE(schedule_json(*g.schedule).find("\"stable\":true"), std::string::npos) << schedule_json(*g.schedule);
}

// A slow oscillator that grows slowly (+0.01 +- 10i 1/s) and a fast state: over h = 0.05 the
// model grows by e^0.0005 while a neutral map (radius 1) falls short of that by 5e-4, far less
// than a first-order scheme's own error on the mode, (h |lambda|)^2 / 2 = 0.125. The proof
// accepts that map from a scheme of order 1 (scheme_accuracy, as analyze judges a map) and
// refuses it where the scheme's order is not given (no accuracy to relax by).
TEST(Schedule, TheProofRelaxesTheModelsGrowthByTheSchemesAccuracy) {
  init_symbolic();
  const Model m = load_model_text(
      "name: growing_oscillator\nparameters: {s: 0.01, w: 10, a: 50}\n"
      "states:\n  slow: {x: 1, v: 0}\n  fast: {z: 0}\n"
      "equations:\n  x: v\n  v: -w^2*x + 2*s*v\n  z: -a*(1 + x^2)*(z - x)\n"
      "simulation:\n  t_end: 1\n  step: 0.05\n  scheme: sp_ll\n  linearization: scheduled\n"
      "  schedule: {by: [x], points: 3}\n",
      "inline.yaml");
  SchedulableScheme neutral;
  neutral.step = 0.05;
  neutral.constants = [](const OperatingPoint& op, const Eigen::MatrixXd&) {
    return std::vector<NamedMatrix>{{"s", Eigen::MatrixXd::Constant(1, 1, op.s[0]), "s"}};
  };
  neutral.step_map = [](const std::vector<NamedMatrix>&, const OperatingPoint&, const Eigen::MatrixXd& j) {
    return Eigen::MatrixXd(Eigen::MatrixXd::Identity(j.rows(), j.cols()));
  };
  neutral.order = 1;
  const ConstantSchedule accepted = design_schedule(m, 1, neutral, false);
  EXPECT_NEAR(accepted.worst_radius, 1, 1e-12);
  EXPECT_LE(accepted.worst_relative, 1 + kStabilityMargin);
  neutral.order = 0;
  EXPECT_THROW(design_schedule(m, 1, neutral, false), ModelError);
}

// smfe schedules its inner step h_s (from g_z's fastest eigenvalue at each grid point, N fixed
// for the grid) on jet_acceleration at D = 0.3 s and tire_lag_vehicle at D = 0.05 s, where
// smfe's design at the initial state alone is unstable further along the trajectory (eq. 14's
// largest factor 2.08 at t = 80 and 3.76 at t = 10: generate's note). The schedule's proof
// holds, N h_s < D at every grid point, and against the high-accuracy solution the scheduled
// run is within 2x of the run that re-designs h_s at every macro step (the ideal it
// interpolates) and at least 10x better than the initial state's design.
class ScheduledSmfe : public ::testing::TestWithParam<std::pair<std::string, double>> {};

TEST_P(ScheduledSmfe, SchedulesTheInnerStepAndBeatsTheInitialDesign) {
  const Model m = test::load(test::source_path(GetParam().first));
  const double d = GetParam().second, t_end = m.simulation.t_end;
  const SchemeDesign g = scheduled(m, d, t_end, "smfe");
  ASSERT_TRUE(g.schedule);
  EXPECT_LE(g.schedule->worst_relative, 1 + kStabilityMargin);
  ASSERT_EQ(g.reals.size(), 1u);
  const std::vector<double>& hs = g.reals.front().scheduled;
  ASSERT_EQ(hs.size(), g.schedule->points());
  ASSERT_EQ(g.integers.size(), 1u);
  const int inner_steps = static_cast<int>(g.integers.front().value);  // N
  for (double h : hs) EXPECT_LT(inner_steps * h, d);
  EXPECT_LT(*std::min_element(hs.begin(), hs.end()), *std::max_element(hs.begin(), hs.end()));
  const ReferenceCore core(m);
  const Trace reference = core.simulate({kHighAccuracy, d, t_end, 1});
  const std::size_t n = m.states.size();
  RunOptions run{"smfe", d, t_end, 1};
  run.schedule = g.schedule;
  const double scheduled_error = max_error(core.simulate(run), reference, n);
  run.schedule = nullptr;
  run.iterations = inner_steps;
  const double redesigned_error = max_error(core.simulate(run), reference, n);
  run.iterations = 0;
  double initial_error = std::numeric_limits<double>::infinity();
  try {
    initial_error = max_error(core.simulate(run), reference, n);
  } catch (const SimulationError&) {  // a non-finite state: the initial design diverges
  }
  std::cout << fmt::format(
      "grid {} points, N = {}, h_s {:.4g}..{:.4g}; errors: scheduled {:.3e}, re-designed "
      "{:.3e}, initial design {:.3e}\n",
      g.schedule->points(), inner_steps, *std::min_element(hs.begin(), hs.end()),
      *std::max_element(hs.begin(), hs.end()), scheduled_error, redesigned_error, initial_error);
  EXPECT_LE(scheduled_error, 2 * redesigned_error);
  EXPECT_GE(initial_error, 10 * scheduled_error);
}

INSTANTIATE_TEST_SUITE_P(Models, ScheduledSmfe,
                         ::testing::Values(std::pair<std::string, double>{"models/jet_acceleration.yaml", 0.3},
                                           std::pair<std::string, double>{"models/tire_lag_vehicle.yaml", 0.05}),
                         [](const auto& info) { return test::stem(info.param.first); });

// quasistatic schedules the Newton steps' G_z^-1 and the boundary layer's E = e^{h A_zz} on
// jet_acceleration and tire_lag_vehicle at their steps: the proof's radius and contraction
// hold, and against the high-accuracy solution the scheduled run is within 2x of the run that
// computes both at every step's start (the ideal it interpolates).
class ScheduledQuasistatic : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(ScheduledQuasistatic, IsCloseToTheStepByStepDesign) {
  const Model m = test::load(test::source_path(GetParam().first));
  const std::string scheme = GetParam().second;
  const double h = *m.simulation.step, t_end = m.simulation.t_end;
  const SchemeDesign g = scheduled(m, h, t_end, scheme);
  ASSERT_TRUE(g.schedule);
  EXPECT_LE(g.schedule->worst_relative, 1 + kStabilityMargin);
  EXPECT_LT(g.schedule->worst_contraction, 1);
  const ReferenceCore core(m);
  const Trace reference = core.simulate({kHighAccuracy, h, t_end, 1});
  const std::size_t n = m.states.size();
  RunOptions run{scheme, h, t_end, 1};
  run.schedule = g.schedule;
  const double scheduled_error = max_error(core.simulate(run), reference, n);
  run.schedule = nullptr;
  run.iterations = g.schedule->iterations;
  const double redesigned_error = max_error(core.simulate(run), reference, n);
  run.iterations = 0;
  const double design_point_error = max_error(core.simulate(run), reference, n);
  std::cout << fmt::format(
      "{}: grid {} points, {} Newton steps (contraction {:.3g}); errors: scheduled {:.3e}, every "
      "step {:.3e}, design point {:.3e}\n",
      scheme, g.schedule->points(), g.schedule->iterations, g.schedule->worst_contraction, scheduled_error,
      redesigned_error, design_point_error);
  EXPECT_LE(scheduled_error, 2 * redesigned_error);
}

INSTANTIATE_TEST_SUITE_P(
    Models, ScheduledQuasistatic,
    ::testing::Values(std::pair<std::string, std::string>{"models/jet_acceleration.yaml", "quasistatic"},
                      std::pair<std::string, std::string>{"models/jet_acceleration.yaml", "quasistatic_outer"},
                      std::pair<std::string, std::string>{"models/tire_lag_vehicle.yaml", "quasistatic"},
                      std::pair<std::string, std::string>{"models/tire_lag_vehicle.yaml", "quasistatic_outer"}),
    [](const auto& info) { return test::stem(info.param.first) + "_" + info.param.second; });

// quasistatic on scheduled_stiffness: over 2 points the interpolated G_z^-1 is far from the
// true inverse inside the cell (its rate grows a hundredfold), so the Newton steps with it do
// not contract; the proof refuses, naming where. points: auto refines until they do.
TEST(Schedule, QuasistaticRefusesNewtonStepsThatDoNotContract) {
  Model m = test::load(test::source_path("tests/models/schemes/scheduled_stiffness.yaml"));
  try {
    scheduled(m, *m.simulation.step, m.simulation.t_end, "quasistatic");
    ADD_FAILURE() << "a 2-point schedule was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("do not contract at x ="), std::string::npos) << e.what();
    std::cout << e.format() << "\n";
  }
  m.simulation.schedule->counts = {0};
  const SchemeDesign g = scheduled(m, *m.simulation.step, m.simulation.t_end, "quasistatic");
  std::cout << schedule_summary(*g.schedule);
  EXPECT_LE(g.schedule->worst_contraction, kQuasistaticScheduledContraction);
}

// verify on the host over the first 20 s (of sp_ll at the model's step in double, by default).
VerifyResult verify_on_host(const Model& m, const std::string& scheme = "sp_ll", double step = 0,
                            ScalarType scalar = ScalarType::kDouble) {
  VerifyOptions o;
  o.generate = {scheme, step > 0 ? step : *m.simulation.step, 1, scalar, "test"};
  o.t_end = 20;
  o.every = 10;
  return verify(m, o);
}

// Generated code (host, double) against the reference core running the same scheduled
// constants: rounding apart, the same (sp_ll's bound, 1e-10); and the scheduled run's error
// against the re-linearizing reference core is reported as schedule_error.
TEST(Schedule, GeneratedCodeMatchesTheReferenceCoreOnTheHost) {
  const VerifyResult r = verify_on_host(jet());
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.pass) << r.json();
  ASSERT_TRUE(r.relinearized) << r.json();
  EXPECT_EQ(r.relinearized->linearization, Linearization::kScheduled);
  EXPECT_GT(r.relinearized->max_error, 0);
  EXPECT_NE(r.json().find("\"schedule_error\""), std::string::npos);
  std::cout << r.text();
}

// smfe's scheduled h_s in float: generated code (Schedule::inner_step) against the reference
// core interpolating the same grid, within verify's float tolerance.
TEST(Schedule, SmfeGeneratedCodeMatchesTheReferenceCoreInFloat) {
  const VerifyResult r = verify_on_host(jet(), "smfe", 0.25, ScalarType::kFloat);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.pass) << r.json();
  ASSERT_TRUE(r.relinearized) << r.json();
  EXPECT_EQ(r.relinearized->linearization, Linearization::kScheduled);
  EXPECT_GT(r.relinearized->max_error, 0);
  std::cout << r.text();
}

// Two scheduling values (V and alpha, 5 x 3 points): generated code interpolates bilinearly
// with lookup::combine (the first value outermost) and the reference core by its own loop over
// the cell's corners; they agree to rounding.
TEST(Schedule, TwoScheduledValuesAgreeOnTheHost) {
  Model m = jet();
  m.simulation.schedule->by = {m.states[0].symbol, m.states[3].symbol};
  m.simulation.schedule->by_text = {"V", "alpha"};
  m.simulation.schedule->by_loc.push_back(m.simulation.schedule->by_loc.front());
  m.simulation.schedule->counts = {5, 3};
  m.simulation.schedule->points = {{}, {}};
  const VerifyResult r = verify_on_host(m);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.pass) << r.json();
  ASSERT_TRUE(r.relinearized) << r.json();
  EXPECT_EQ(r.relinearized->linearization, Linearization::kScheduled);
  std::cout << r.text();
}

// Found by fuzz.fuzz_pipeline: a scenario whose reference trajectory fails (scheduled_stiffness
// with its slow state driven 200 times faster, too stiff for the explicit high-accuracy
// integrator from t = 5.7 on) is a positioned model error, not an escaped SimulationError.
TEST(Schedule, AFailingReferenceTrajectoryIsAModelError) {
  init_symbolic();
  const Model m = load_model_file(test::source_path("tests/models/schemes/scheduled_stiffness.yaml"), {{"v", 20}});
  try {
    scheduled(m, *m.simulation.step, m.simulation.t_end);
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("the scenario's reference trajectory to t = 10, which fails"),
              std::string::npos)
        << e.format();
  }
}

TEST(Schedule, AnalyzeReportsTheGridTheRangeAndTheProof) {
  const ProcessResult r =
      run_process({test::cli(), "analyze", test::source_path("models/jet_acceleration.yaml"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* part : {"\"schedule\":{\"by\":[\"V\"]", "\"grid\":[[", "\"covered\":[[100,",
                           "\"interpolation_error\":", "\"worst_radius\":", "\"stable\":true"})
    EXPECT_NE(r.output.find(part), std::string::npos) << part << " in " << r.output;
}

// The scheduled constants are for the step h alone: simulate takes whole steps past an end
// between two and says so (jet_acceleration: h = 0.1).
TEST(Schedule, SimulateTakesWholeStepsPastAnEndOffTheGrid) {
  const ProcessResult r =
      run_process({test::cli(), "simulate", test::source_path("models/jet_acceleration.yaml"), "--t-end", "1.05"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the run takes whole steps and ends at 1.1"), std::string::npos) << r.output;
  const std::size_t last = r.output.rfind("\n", r.output.size() - 2) + 1;
  EXPECT_NEAR(std::stod(r.output.substr(last)), 1.1, 1e-12) << r.output.substr(last);  // 11 h, to rounding
}

// The command line's schedule: for the scheme asked for, and only with scheduling values.
TEST(Schedule, TheCommandLineRefusesAScheduleWithoutConstantsOrValues) {
  const std::string vehicle = test::source_path("models/tire_lag_vehicle.yaml");
  const std::string out = make_temp_dir("dualrate-schedule");
  ProcessResult r = run_process({test::cli(), "generate", vehicle, "--scheme", "rk4", "--schedule-by", "V", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("rk4 precomputes no constants to schedule"), std::string::npos) << r.output;
  r = run_process({test::cli(), "generate", test::source_path("models/dc_motor.yaml"), "--scheme", "sp_ll",
                   "--linearization", "scheduled", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("needs the scheduling values"), std::string::npos) << r.output;
  r = run_process({test::cli(), "generate", vehicle, "--schedule-by", "Vx", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("--schedule-by:1:1: error: undefined name 'Vx'"), std::string::npos) << r.output;
  // The file's schedule does not apply to a scheme asked for that has no constants.
  r = run_process({test::cli(), "generate", vehicle, "--scheme", "rk4", "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // smfe schedules h_s, which --inner-step would fix.
  r = run_process(
      {test::cli(), "generate", vehicle, "--scheme", "smfe", "--step", "0.05", "--inner-step", "0.01", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("tire_lag_vehicle.yaml:54:3: error: smfe's scheduled constant is its inner step h_s, but "
                          "its option inner_step fixes it"),
            std::string::npos)
      << r.output;
}

// A file that runs rk4 gets scheduled sp_ll from the command line alone.
// `generate --scheme sp_ll --linearization scheduled --schedule-by x` on a model file that runs
// rk4, whose fast state z follows x at the rate `rate`.
ProcessResult generate_scheduled_by_x(const std::string& dir, const std::string& rate) {
  const std::string model = dir + "/follower.yaml";
  std::ofstream(model) << "name: follower\nparameters: {v: 0.1, c: 0.01}\nstates: {slow: {x: 0}, fast: {z: 0}}\n"
                          "equations:\n  x: v - c*(z - x)\n  z: -("
                       << rate
                       << ")*(z - x)\n"
                          "simulation: {t_end: 10, step: 0.05, scheme: rk4}\n";
  return run_process({test::cli(), "generate", model, "--scheme", "sp_ll", "--linearization", "scheduled",
                      "--schedule-by", "x", "-o", dir});
}

TEST(Schedule, TheCommandLineSchedulesTheSchemeItAsksFor) {
  const std::string dir = make_temp_dir("dualrate-schedule");
  const ProcessResult r = generate_scheduled_by_x(dir, "1 + 100*x^2");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Scheduled over x:"), std::string::npos) << r.output;
  // A rate that jumps at x = 0.5: no grid brings the interpolation within the tolerance in the
  // cell of the jump; the refusal says where, at the command line's option.
  const ProcessResult refused = generate_scheduled_by_x(dir, "1 + 100*step(x - 0.5)");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--schedule-by:1:1: error: the constants jump at x = 0.5"), std::string::npos)
      << refused.output;
}

}  // namespace
}  // namespace dualrate
