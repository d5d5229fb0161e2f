// verify's local check (verify/local_check.hpp): the trace's next states and one step of the
// reference core from the generated state (on a model: generated_test.cpp's
// LocalCheckPendulum); verify --header refusing a header of another model, scheme or scalar.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/process.hpp"
#include "test_support.hpp"
#include "verify/local_check.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

TEST(LocalCheck, TakesTheNextStatesOffTheTrace) {
  Trace t{{"t", "a", "b", "y", "next:a", "next:b"}, {{0, 1, 2, 3, 1.5, 2.5}, {1, 4, 5, 6, 4.5, 5.5}}};
  const Trace next = take_next_states(t);
  EXPECT_EQ(t.columns, (std::vector<std::string>{"t", "a", "b", "y"}));
  EXPECT_EQ(t.rows[1], (std::vector<double>{1, 4, 5, 6}));
  EXPECT_EQ(next.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(next.rows[0], (std::vector<double>{1.5, 2.5}));
  Trace plain{{"t", "a"}, {{0, 1}}};
  EXPECT_TRUE(take_next_states(plain).columns.empty());
  EXPECT_EQ(plain.columns.size(), 2u);
}

TEST(LocalCheck, TakesTheKeptValuesOffATaskTrace) {
  Trace t{{"t", "a", "next:a", "kept:0", "kept:1"}, {{0, 1, 2, 3, 4}, {1, 2, NAN, NAN, NAN}}};
  const Trace kept = take_kept_values(t);
  EXPECT_EQ(kept.columns, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(kept.rows[0], (std::vector<double>{3, 4}));
  EXPECT_EQ(t.columns, (std::vector<std::string>{"t", "a", "next:a"}));
  EXPECT_EQ(without_local_columns(t).columns, (std::vector<std::string>{"t", "a"}));
}

// The preemptive run's trace has no local columns; the sequential run's, without them, must be
// the same text.
TEST(LocalCheck, TraceTextWithoutLocalColumns) {
  EXPECT_EQ(trace_text_without_local_columns("t,a,y,next:a,kept:0\n0x0p+0,0x1p+0,-0x1p-1,0x1p+1,nan\n"),
            "t,a,y\n0x0p+0,0x1p+0,-0x1p-1\n");
  EXPECT_EQ(trace_text_without_local_columns("t,a\n0,1\n"), "t,a\n0,1\n");
}

TEST(LocalCheck, SamplesAreTheRowsOfTheTraceProgram) {
  EXPECT_EQ(sample_steps(10, 5), (std::vector<long>{0, 5, 10}));
  EXPECT_EQ(sample_steps(11, 5), (std::vector<long>{0, 5, 10, 11}));
  EXPECT_EQ(sample_steps(3, 1), (std::vector<long>{0, 1, 2, 3}));
}

// x' = -x by explicit Euler (h = 0.5: x_{n+1} = x_n / 2) from the generated states; the
// second sample's next state is off by 3e-6 against a tolerance of 1e-6 for b, scale 2.
TEST(LocalCheck, RatioOfOneStepsErrorToItsTolerance) {
  const Trace generated{{"t", "a", "b"}, {{0, 1, 2}, {0.5, 0.5, 1}}};
  const Trace next{{"a", "b"}, {{0.5, 1}, {0.25, 0.5 + 6e-6}}};
  std::vector<long> seen;
  const SingleStep step = [&seen](long i, const std::vector<double>& x) {
    seen.push_back(i);
    return std::vector<double>{x[0] / 2, x[1] / 2};
  };
  const LocalTolerance tolerance{Eigen::Vector2d(0.75e-6, 0.75e-6), Eigen::Vector2d(0.25e-6, 0.25e-6)};
  const LocalCheck c =
      local_check(generated, next, reference_steps(generated, next, {0, 1}, step), tolerance, Eigen::Vector2d(1, 2));
  EXPECT_EQ(seen, (std::vector<long>{0, 1}));
  EXPECT_EQ(c.worst_state, "b");
  EXPECT_DOUBLE_EQ(c.worst_time, 0.5);
  EXPECT_NEAR(c.max_error, 3e-6, 1e-15);
  EXPECT_NEAR(c.ratio, 3, 1e-9);
  EXPECT_EQ(c.ratios.size(), 2u);
  EXPECT_EQ(c.ratios[0], 0);
  // b's errors summed, 3e-6, against 7 sqrt(2) 0.75e-6 + 2 0.25e-6.
  EXPECT_EQ(c.bias_state, "b");
  EXPECT_NEAR(c.bias_sum, 3e-6, 1e-15);
  EXPECT_NEAR(c.bias_ratio, 3e-6 / (7 * std::sqrt(2.0) * 0.75e-6 + 0.5e-6), 1e-9);
  EXPECT_THROW(reference_steps(generated, next, {0}, step), std::runtime_error);
  EXPECT_THROW(
      local_check(generated, next, reference_steps(generated, next, {0, 1}, step), tolerance, Eigen::Vector3d(1, 1, 1)),
      std::runtime_error);
}

// A defect moves every step the same way: 400 samples each off by 0.2 of one step's tolerance
// (within it) sum to 80 tolerances against a bias bound of 7 sqrt(400) = 140 (the operations'
// roundings only); off by 0.5 they sum to 200, over it, unless half of each step's tolerance is
// the constants' (the same every step): 7 x 20 x 0.5 + 400 x 0.5 = 270. Errors of alternating
// sign (rounding) cancel.
TEST(LocalCheck, ErrorsOfOneSignAddUpAgainstTheBiasBound) {
  const long n = 400;
  Trace generated{{"t", "a"}, {}}, next{{"a"}, {}};
  std::vector<long> samples;
  for (long i = 0; i < n; ++i) {
    generated.rows.push_back({static_cast<double>(i), 1.0});
    next.rows.push_back({1.0 + 0.2e-6});
    samples.push_back(i);
  }
  const SingleStep identity = [](long, const std::vector<double>& x) { return x; };
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(1);
  const auto check = [&](const LocalTolerance& tolerance) {
    return local_check(generated, next, reference_steps(generated, next, samples, identity), tolerance, one);
  };
  const LocalCheck operations_only = check({1e-6 * one, Eigen::VectorXd::Zero(1)});
  EXPECT_NEAR(operations_only.ratio, 0.2, 1e-9);
  EXPECT_NEAR(operations_only.bias_ratio, 80.0 / 140.0, 1e-6);
  for (auto& row : next.rows) row[0] = 1.0 + 0.5e-6;  // 200 tolerances of 140
  EXPECT_GT(check({1e-6 * one, Eigen::VectorXd::Zero(1)}).bias_ratio, 1);
  EXPECT_LT(check({0.5e-6 * one, 0.5e-6 * one}).bias_ratio, 1);
  for (std::size_t i = 0; i < next.rows.size(); ++i) next.rows[i][0] = i % 2 ? 1.0 + 0.9e-6 : 1.0 - 0.9e-6;
  EXPECT_LT(check({1e-6 * one, Eigen::VectorXd::Zero(1)}).bias_ratio, 1e-6);
}

// The exact step check counts the samples where any state differs, in the build's scalar: a
// float trace's 9 significant digits stand for the float; NaN on both sides is the same.
TEST(ExactStepCheck, CountsTheSamplesThatDifferInAnyBit) {
  const float one = 1.0f, above = std::nextafter(one, 2.0f);
  Trace generated{{"t", "a", "b"}, {{0, 1, 2}, {1, 1, 2}, {2, 1, 2}}};
  Trace next{{"a", "b"}, {{1.00000012, 2}, {1, 2}, {NAN, 3}}};
  const SingleStep step = [above](long i, const std::vector<double>& x) {
    return std::vector<double>{i == 2 ? NAN : static_cast<double>(above), x[1] + (i == 2 ? 0.5 : 0.0)};
  };
  const ReferenceSteps expected = reference_steps(generated, next, {0, 1, 2}, step);
  const ExactStepCheck in_float = exact_step_check(generated, next, expected, true);
  EXPECT_EQ(in_float.samples, 3);
  EXPECT_EQ(in_float.differing, 2);  // 1 against one ulp above; b 3 against 2.5
  EXPECT_EQ(in_float.time, 1);
  EXPECT_EQ(in_float.state, "a");
  EXPECT_EQ(in_float.generated, 1);
  EXPECT_EQ(in_float.expected, static_cast<double>(above));
  EXPECT_EQ(exact_step_check(generated, next, expected, false).differing, 3);  // 1.00000012 is not the float
  EXPECT_THROW(exact_step_check(generated, next, ReferenceSteps{{expected.rows[0]}}, true), std::runtime_error);
}

// Dual-rate tasks: the reference restarts from each row's kept values, not from its state.
TEST(LocalCheck, RestartsFromTheKeptValues) {
  const Trace generated{{"t", "a"}, {{0, 1}, {0.5, 0.5}}};
  const Trace next{{"a"}, {{0.5}, {0.25}}};
  const Trace kept{{"0", "1"}, {{1, 7}, {0.5, 8}}};
  std::vector<std::vector<double>> seen;
  const SingleStep step = [&seen](long, const std::vector<double>& from) {
    seen.push_back(from);
    return std::vector<double>{from[0] / 2};
  };
  const LocalCheck c =
      local_check(generated, next, reference_steps(generated, next, {0, 10}, step, &kept),
                  {Eigen::VectorXd::Constant(1, 1e-6), Eigen::VectorXd::Zero(1)}, Eigen::VectorXd::Ones(1));
  EXPECT_EQ(seen, kept.rows);
  EXPECT_EQ(c.ratio, 0);
  const Trace short_kept{{"0"}, {{1}}};
  EXPECT_THROW(reference_steps(generated, next, {0, 10}, step, &short_kept), std::runtime_error);
}

// verify --header with a header that is not of this model, scheme, step or scalar: a usage
// error (exit 1) saying what differs and what to give, before anything is built or run.
TEST(VerifyHeader, RefusesAHeaderOfAnotherModelSchemeStepOrScalar) {
  const std::string dir = make_temp_dir("dualrate-header");
  const std::string pendulum = test::source_path("models/pendulum_particle.yaml");
  ASSERT_EQ(
      run_process({test::cli(), "generate", pendulum, "--scheme", "rk4", "--scalar", "float", "-o", dir}).exit_code, 0);
  const std::string header = dir + "/pendulum_particle.hpp";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--scheme", "rk2", "--scalar", "float"}, "its scheme is rk4, not rk2 (give --scheme rk4)"},
      {{"--scheme", "rk4", "--scalar", "double"}, "its scalar is float, not double (give --scalar float)"},
      {{"--scheme", "rk4", "--scalar", "float", "--step", "0.002"}, "its step is h = 0.001, not 0.002"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {test::cli(), "verify", pendulum, "--header", header};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const ProcessResult r = run_process(args);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("error: --header " + header + ": "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << r.output;
  }
  const ProcessResult other =
      run_process({test::cli(), "verify", test::source_path("models/aircraft_pitch.yaml"), "--header", header});
  EXPECT_EQ(other.exit_code, 1) << other.output;
  EXPECT_NE(other.output.find("generated for namespace 'pendulum_particle', not for model 'aircraft_pitch'"),
            std::string::npos)
      << other.output;
  std::ofstream(dir + "/not_generated.hpp") << "#pragma once\nint x;\n";
  const ProcessResult plain = run_process({test::cli(), "verify", pendulum, "--header", dir + "/not_generated.hpp"});
  EXPECT_EQ(plain.exit_code, 1) << plain.output;
  EXPECT_NE(plain.output.find("not a header generated by dualrate"), std::string::npos) << plain.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dualrate
