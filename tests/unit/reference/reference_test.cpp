// The reference core on its own: convergence orders of its schemes against its
// high-accuracy mode, and fault reporting.
#include <gtest/gtest.h>

#include <cmath>

#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// Least-squares slope of log(error) over log(h).
double fitted_order(const std::vector<double>& h, const std::vector<double>& e) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < h.size(); ++i) mx += std::log(h[i]) / h.size(), my += std::log(e[i]) / h.size();
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    sxy += (std::log(h[i]) - mx) * (std::log(e[i]) - my);
    sxx += (std::log(h[i]) - mx) * (std::log(h[i]) - mx);
  }
  return sxy / sxx;
}

double end_error(const ReferenceCore& core, const std::string& scheme, double h, const std::vector<double>& exact,
                 int ratio = 1) {
  RunOptions run{scheme, h, 2.0, 1000000};
  run.ratio = ratio;
  const Trace tr = core.simulate(run);
  double e = 0;
  for (std::size_t j = 0; j < exact.size(); ++j) e = std::max(e, std::fabs(tr.rows.back()[1 + j] - exact[j]));
  return e;
}

// Van der Pol's state (x, v) at t = 2 from the high-accuracy mode (rkf78, tolerance 1e-13)
// over the grid of step h.
std::vector<double> exact_end(const ReferenceCore& core, double h) {
  const Trace tr = core.simulate({kHighAccuracy, h, 2.0, 1000000, 1e-13});
  return std::vector<double>(tr.rows.back().begin() + 1, tr.rows.back().begin() + 3);
}

// The order fitted to the errors at t = 2 of `scheme` (H = ratio h) for each of `steps`.
double order_of(const ReferenceCore& core, const std::string& scheme, const std::vector<double>& steps,
                const std::vector<double>& exact, int ratio = 1) {
  std::vector<double> errors;
  for (double h : steps) errors.push_back(end_error(core, scheme, h, exact, ratio));
  return fitted_order(steps, errors);
}

// Errors at t = 2 on the smooth Van der Pol model for h = 0.04 ... 0.005. RK4's smallest
// error there is about 1e-9, four orders above the reference's tolerance (1e-13 with
// rkf78), so the reference's own error does not bend the fit.
TEST(ReferenceCore, ConvergenceOrders) {
  const Model m = test::load(test::source_path("tests/models/valid/van_der_pol.yaml"));
  const ReferenceCore core(m);
  const std::vector<double> exact = exact_end(core, 0.005);
  for (const auto& [scheme, low, high] : std::vector<std::tuple<std::string, double, double>>{
           {"euler", 0.8, 1.2}, {"rk2", 1.8, 2.2}, {"rk4", 3.8, 4.2}, {"prk25", 1.8, 2.2}}) {
    const double p = order_of(core, scheme, {0.04, 0.02, 0.01, 0.005}, exact);
    EXPECT_GE(p, low) << scheme;
    EXPECT_LE(p, high) << scheme;
    RecordProperty(scheme + "_order", std::to_string(p));
  }
}

// Single-rate ABM4 PECE (seed 004's reference scheme): fourth order. Its error ratios per
// halving are 10.9 and 13.5 from h = 0.04 to 0.01 (not yet asymptotic), then 14.7 and 15.4
// (tending to 16), so the fit uses h = 0.01 ... 0.0025 (errors 2.5e-8 ... 1.1e-10, far above
// the reference's accuracy).
TEST(ReferenceCore, Abm4Order) {
  const Model m = test::load(test::source_path("tests/models/valid/van_der_pol.yaml"));
  const ReferenceCore core(m);
  const double p = order_of(core, "abm4", {0.01, 0.005, 0.0025}, exact_end(core, 0.0025));
  EXPECT_GE(p, 3.8);
  EXPECT_LE(p, 4.2);
  RecordProperty("abm4_order", std::to_string(p));
}

// Seed 004's multirate schemes with x slow and v fast, H = 2 h and 5 h: the Adams formulas
// are fourth order, but the slow state enters the fast substeps through linear
// interpolation between x_r(t_k) and a prediction of x_r(t_k + H), whose error is
// O(H^2) inside the macro step; each substep carries it with weight h into the fast
// state, so the global error is O(H^2): order 2, whatever r.
TEST(ReferenceCore, MultirateAdamsOrders) {
  const Model m = test::load(test::source_path("tests/models/valid/van_der_pol.yaml"));
  const ReferenceCore core(m);
  const std::vector<double> exact = exact_end(core, 0.005);
  for (int ratio : {2, 5})
    for (const std::string scheme : {"mrabm4_sync", "mrabm4_parallel_sync", "mrabm4", "mrabm4_parallel"}) {
      const double p = order_of(core, scheme, {0.004, 0.002, 0.001, 0.0005}, exact, ratio);
      EXPECT_GE(p, 1.8) << scheme << " r = " << ratio;
      EXPECT_LE(p, 2.2) << scheme << " r = " << ratio;
      RecordProperty(scheme + "_r" + std::to_string(ratio) + "_order", std::to_string(p));
    }
}

TEST(ReferenceCore, ReportsNonFiniteStateWithTimeAndNames) {
  init_symbolic();
  const Model m = load_model_text("name: blowup\nstates: {slow: {x: 1, y: 0}}\nequations: {x: x^2, y: 0}\n", "b.yaml");
  try {
    ReferenceCore(m).simulate({"rk4", 0.01, 5.0, 1});
    FAIL() << "expected a SimulationError";
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("non-finite"), std::string::npos) << what;
    EXPECT_NE(what.find("at t = "), std::string::npos) << what;
    EXPECT_NE(what.find("x"), std::string::npos) << what;
    EXPECT_EQ(what.find(", y"), std::string::npos) << what;  // y stays finite
  }
}

TEST(ReferenceCore, NamesTheVariableThatWentBad) {
  init_symbolic();
  const Model m =
      load_model_text("name: bad\nstates: {slow: {x: 1}}\nvariables: {r: log(x - 2)}\nequations: {x: r}\n", "b.yaml");
  try {
    ReferenceCore(m).simulate({"euler", 0.1, 1.0, 1});
    FAIL() << "expected a SimulationError";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("variable r"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t = 0"), std::string::npos) << e.what();
  }
}

// x' = -k x + b u + w with w = c x (a variable through which c acts), k = 2, b = 3, c = 0.5:
// at x = 4, u = 5 the parameter rates sum_p |df/dp p| are |-k x| + |b u| + |c x| = 8 + 15 + 2;
// y' = 1 depends on no parameter. Exact in binary floating point.
TEST(ReferenceCore, ParameterRatesThroughVariables) {
  init_symbolic();
  const Model m = load_model_text(
      "name: rates\nparameters: {k: 2, b: 3, c: 0.5}\ninputs: {u: 0}\nstates: {slow: {x: 1, y: 0}}\n"
      "variables: {w: c*x}\nequations: {x: -k*x + b*u + w, y: 1}\n",
      "r.yaml");
  const std::vector<double> rates = ReferenceCore(m).parameter_rates(0.0, {4.0, 0.0}, {5.0});
  ASSERT_EQ(rates.size(), 2U);
  EXPECT_EQ(rates[0], 25.0);
  EXPECT_EQ(rates[1], 0.0);
}

// A table's value rounds like a parameter (verify's float tolerance): each call T_c in f_i adds
// |df_i/dT_c T_c|, so terms that cancel (k T(x) - k T(x) + ...) still carry their rounding.
// At x = 0.5 the ramp 1 -> 3 -> -1 gives T = 2; f = 3 T(x) - 3 T(x/2 + 0.25) + x: the two calls
// are the same cell's value 2, each 3 x 2 = 6, and x's own rate is 0 (no parameter).
TEST(ReferenceCore, ParameterRatesCountTableValues) {
  init_symbolic();
  const Model m = load_model_text(
      "name: rates\ntables:\n  T:\n    breakpoints: [[0, 1, 2]]\n    values: [1, 3, -1]\n"
      "states: {slow: {x: 0.5}}\nequations: {x: 3*T(x) - 3*T(x/2 + 0.25) + x}\n",
      "r.yaml");
  const std::vector<double> rates = ReferenceCore(m).parameter_rates(0.0, {0.5}, {});
  ASSERT_EQ(rates.size(), 1U);
  EXPECT_EQ(rates[0], 12.0);
}

// The HIRES end time of the IVP test set on a millisecond grid: 321.8122 lies between the
// grid times 321.812 and 321.813 (to rounding of 321,813 h, far below 1e-9 h).
TEST(ReferenceCore, EndTimeOnTheGrid) {
  const EndTime hires = end_time(321.8122, 1e-3);
  EXPECT_FALSE(hires.whole);
  EXPECT_EQ(hires.steps, 321813);
  EXPECT_NEAR(hires.below, 321.812, 1e-9);
  EXPECT_NEAR(hires.above, 321.813, 1e-9);
  EXPECT_TRUE(end_time(1.0, 0.1).whole);
  EXPECT_EQ(end_time(1.0, 0.1).steps, 10);
  const EndTime macro = end_time(1.0005, 1e-3, 10);
  EXPECT_FALSE(macro.whole);
  EXPECT_EQ(macro.steps, 1010);
  EXPECT_NEAR(macro.below, 1.0, 1e-12);
}

// x' = -x to t_end = 0.25 with h = 0.1 lands on 0.25 after a last step of 0.05: rk4's
// factor R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 gives x = R(-0.1)^2 R(-0.05) (to rounding,
// a few ulps); the high-accuracy mode's last row is at 0.25 with exp(-0.25) (tolerance 1e-12).
// abm4, tied to its grid, refuses and names 0.2 and 0.3.
TEST(ReferenceCore, ExactEndShortensTheLastStep) {
  init_symbolic();
  const Model m = load_model_text("name: decay\nstates: {slow: {x: 1}}\nequations: {x: -x}\n", "d.yaml");
  const auto factor = [](double z) { return 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24; };
  RunOptions run{"rk4", 0.1, 0.25, 1};
  run.exact_end = true;
  const Trace rk4 = ReferenceCore(m).simulate(run);
  ASSERT_EQ(rk4.rows.size(), 4U);
  EXPECT_EQ(rk4.rows.back()[0], 0.25);
  EXPECT_NEAR(rk4.rows.back()[1], factor(-0.1) * factor(-0.1) * factor(-0.05), 1e-15);
  run.exact_end = false;
  EXPECT_NEAR(ReferenceCore(m).simulate(run).rows.back()[0], 0.3, 1e-15);
  run = {kHighAccuracy, 0.1, 0.25, 1};
  run.exact_end = true;
  const Trace reference = ReferenceCore(m).simulate(run);
  EXPECT_EQ(reference.rows.back()[0], 0.25);
  EXPECT_NEAR(reference.rows.back()[1], std::exp(-0.25), 1e-12);
  run = {"abm4", 0.1, 0.25, 1};
  run.exact_end = true;
  try {
    ReferenceCore(m).simulate(run);
    FAIL() << "expected a SimulationError";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("nearest end times are 0.2 and 0.3"), std::string::npos) << e.what();
  }
}

// simulate's trace (CSV, MAT) ends with the inputs: each row's is the signal at its time.
TEST(ReferenceCore, WithInputsAppendsTheSignalsAtEachRow) {
  init_symbolic();
  const Model m = load_model_text(
      "name: ramp\ninputs: {u: 0}\nstates: {slow: {x: 0}}\nequations: {x: u}\nsimulation: {inputs: {u: 2*t}}\n",
      "r.yaml");
  const ReferenceCore core(m);
  const Trace trace = core.with_inputs(core.simulate({"euler", 0.25, 1.0, 1}));
  ASSERT_EQ(trace.columns, (std::vector<std::string>{"t", "x", "u"}));
  ASSERT_EQ(trace.rows.size(), 5U);
  for (const auto& row : trace.rows) EXPECT_EQ(row[2], 2 * row[0]);
}

// x' = u with u = step(t - 0.5) has x(t) = max(0, t - 0.5) exactly. The jump sits on a
// grid time (and on a sample time): the high-accuracy mode must not let it leak into the
// preceding interval, whatever the sampling. Tolerance: rkf78 at 1e-12 on a piecewise-linear
// solution is exact up to rounding of ~100 steps, far below 1e-12.
TEST(ReferenceCore, HighAccuracyHandlesAnInputJumpOnTheGrid) {
  init_symbolic();
  const Model m = load_model_text(
      "name: jump\ninputs: {u: 0}\nstates: {slow: {x: 0}}\nequations: {x: u}\n"
      "simulation: {inputs: {u: step(t - 0.5)}}\n",
      "j.yaml");
  for (int every : {1, 10, 50}) {
    const Trace tr = ReferenceCore(m).simulate({kHighAccuracy, 0.01, 1.0, every});
    for (const auto& row : tr.rows) EXPECT_NEAR(row[1], std::max(0.0, row[0] - 0.5), 1e-12) << "t = " << row[0];
  }
}

TEST(ReferenceCore, StepCountCoversTheInterval) {
  EXPECT_EQ(step_count(1.0, 0.1), 10);
  EXPECT_EQ(step_count(0.3, 0.1), 3);  // 0.3/0.1 = 2.9999999999999996
  EXPECT_EQ(step_count(1.05, 0.1), 11);
}

// verify's exact step check is made only where the reference core computes a step as the
// generated code does (ReferenceCore::exact_step_difference); its float step then differs from
// the double one by float's rounding of that step only.
TEST(ReferenceCore, ExactStepDifferenceNamesWhatTheGeneratedCodeComputesOtherwise) {
  const auto difference = [](const char* file, const char* scheme, double step = 1e-3, bool in_float = true) {
    const Model m = test::load(test::source_path(file));
    RunOptions run{scheme, step, 0.01};
    run.float_time = in_float;
    return ReferenceCore(m).exact_step_difference(run);
  };
  EXPECT_EQ(difference("tests/models/valid/van_der_pol.yaml", "rk4"), "");
  EXPECT_EQ(difference("tests/models/valid/van_der_pol.yaml", "euler"), "");
  EXPECT_EQ(difference("tests/models/valid/van_der_pol.yaml", "prk25"), "");
  EXPECT_NE(difference("tests/models/valid/van_der_pol.yaml", "abm4").find("order of operations"), std::string::npos);
  EXPECT_EQ(difference("models/dc_motor.yaml", "sp_ll"), "");
  // In double the design's constants confirmed as in float (SchemeHooks::double_reference).
  EXPECT_EQ(difference("models/dc_motor.yaml", "sp_ll", 1e-3, false), "");
  EXPECT_EQ(difference("models/dc_motor.yaml", "smfe"), "");               // D = 1e-3: 5 inner steps and the rest
  EXPECT_EQ(difference("models/dc_motor.yaml", "smfe", 1e-3, false), "");  // h_s and N: the generator's numbers
  EXPECT_NE(difference("models/dc_motor.yaml", "smfe", 1e-4).find("no design"), std::string::npos);
  EXPECT_EQ(difference("models/dc_motor.yaml", "quasistatic", 1e-4), "");       // G_z = -R/L: its inverse precomputed
  EXPECT_EQ(difference("models/walking_robot.yaml", "quasistatic", 1e-3), "");  // G_z factorized: PartialPivLU's order
  EXPECT_NE(difference("models/jet_acceleration.yaml", "sp_ll").find("no schedule"), std::string::npos);
  // With the generator's schedule, as verify runs it: in float each grid point confirmed and
  // the runtime's interpolation; in double too.
  const auto scheduled_difference = [](const char* file, const char* scheme, bool in_float) {
    const Model m = test::load(test::source_path(file));
    const GenerateRequest request{scheme, m.simulation.step.value(), 1, ScalarType::kFloat, "test"};
    RunOptions run{scheme, request.step, 0.01};
    run.schedule = precompute_scheme(m, request).schedule;
    run.float_time = in_float;
    return run.schedule ? ReferenceCore(m).exact_step_difference(run) : "no schedule designed";
  };
  EXPECT_EQ(scheduled_difference("models/jet_acceleration.yaml", "sp_ll", true), "");
  EXPECT_EQ(scheduled_difference("models/jet_acceleration.yaml", "sp_ll", false), "");
  EXPECT_EQ(scheduled_difference("models/tire_lag_vehicle.yaml", "quasistatic", true), "");
  // Constants recomputed under calibration: in float each segment's design at its values.
  EXPECT_EQ(difference("models/servo_actuator_lag.yaml", "sp_ll"), "");
  EXPECT_EQ(difference("models/servo_actuator_lag.yaml", "quasistatic"), "");
  // In double the constants a write recomputes are the runtime's exponential's, not the generator's.
  const Model servo = test::load(test::source_path("models/servo_actuator_lag.yaml"));
  RunOptions written{"sp_ll", 1e-3, 0.01};
  written.calibration = servo.simulation.calibration;
  ASSERT_FALSE(written.calibration.empty());
  EXPECT_NE(ReferenceCore(servo).exact_step_difference(written).find("after a calibration write"), std::string::npos);
  written.float_time = true;
  EXPECT_EQ(ReferenceCore(servo).exact_step_difference(written), "");
  EXPECT_EQ(difference("models/f16_longitudinal.yaml", "rk4"), "");  // tables: the runtime's arithmetic
  // A coordinate-dependent mass matrix: in float the runtime's factorization (numeric/fixed_size_solves.hpp).
  EXPECT_EQ(difference("models/light_double_pendulum.yaml", "rk4"), "");
  EXPECT_NE(difference("models/light_double_pendulum.yaml", "rk4", 1e-3, false).find("mass matrix"), std::string::npos);

  const Model m = test::load(test::source_path("tests/models/valid/van_der_pol.yaml"));
  const ReferenceCore core(m);
  RunOptions run{"rk4", 1e-3, 0.01};
  run.float_time = true;
  const std::vector<double> x = core.initial_state();
  const std::vector<double> in_float = core.single_step_in_float(run)(3, x), in_double = core.single_step(run)(3, x);
  ASSERT_EQ(in_float.size(), in_double.size());
  EXPECT_NE(in_float, in_double);  // computed in float, not in double and converted
  // The state (2, 0) is a float. A float step rounds the last addition x + dx by at most half
  // an ulp, 2^-24 |x_next|, and its increment dx (h, 4 evaluations of 5 operations, the stage
  // states and the weighted sum: under 32 roundings, none cancelling at this state) by at
  // most 32 2^-24 |dx|; the double step's rounding is 2^-29 of that.
  const auto float_rounding = [&x](const std::vector<double>& next, std::size_t i) {
    return 0x1p-24 * (std::fabs(next[i]) + 32 * std::fabs(next[i] - x[i]));
  };
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(in_float[i], in_double[i], float_rounding(in_double, i)) << i;
  run.scheme = "prk25";
  const std::vector<double> partitioned = core.single_step_in_float(run)(3, x), exact = core.single_step(run)(3, x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(partitioned[i], exact[i], float_rounding(exact, i)) << i;
  run.scheme = "sp_ll";
  EXPECT_THROW(core.single_step_in_float(run), SimulationError);  // van der Pol's g_z varies: no design
}

// sp_ll's float step (its constants the generator's, confirmed by the reference core's own)
// is the reference core's own step to float rounding: the DC motor's current, the fast state,
// passes through g_z^-1 (its terms R I and Ke omega over L, about 1e3 times the state per
// second at h = 1e-3 s: a few hundred float roundings of the state), its speed through RK4.
TEST(ReferenceCore, SpLlsFloatStepIsItsOwnStepToFloatRounding) {
  const Model m = test::load(test::source_path("models/dc_motor.yaml"));
  const ReferenceCore core(m);
  RunOptions run{"sp_ll", m.simulation.step.value(), 0.01};
  run.float_time = true;
  std::vector<double> x = core.initial_state();
  const auto step = core.single_step(run);
  for (long i = 0; i < 120; ++i) x = step(i, x);  // 2 ms after the voltage step
  const std::vector<double> in_float = core.single_step_in_float(run)(120, x), own = step(120, x);
  ASSERT_EQ(in_float.size(), own.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NE(in_float[i], own[i]) << i;
    EXPECT_NEAR(in_float[i], own[i], 0x1p-24 * 1000 * (std::fabs(own[i]) + std::fabs(own[i] - x[i]))) << i;
  }
}

}  // namespace
}  // namespace dualrate
