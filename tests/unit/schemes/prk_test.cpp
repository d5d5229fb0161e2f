// Seed 003's 2-5 PRK: the runtime's tableau against the paper's conditions, its stability
// polynomial and imaginary stability interval, the one-step map of the coupled scheme, and
// the runtime step against the reference core's transcription.
#include <gtest/gtest.h>

#include <dualrate/schemes/prk.hpp>

#include <complex>

#include "analysis/stability.hpp"
#include "numeric/linearization.hpp"
#include "schemes/prk25/prk25.hpp"
#include "base/process.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// The printed coefficients have 8 to 9 significant digits, so a condition summing a few
// products of them holds to a few 1e-9; the bound is 1e-8.
TEST(Prk25, TableauSatisfiesOrderCouplingAndStabilityConditions) {
  const auto conditions = prk25_conditions(prk25_tableau());
  ASSERT_EQ(conditions.size(), 9u);
  for (const auto& c : conditions) {
    EXPECT_NEAR(c.value, c.expected, 1e-8) << c.what;
    RecordProperty(c.what, std::to_string(c.value - c.expected));
  }
}

// The slow tableau has non-zero columns 2 and 4 only: two slow evaluations per step, five
// fast (checked at compile time on a two-state model type).
struct TwoStates {
  using Scalar = double;
  using Time = double;
  static constexpr int kSlow = 1, kFast = 1, kStates = 2, kInputs = 0;
  using State = Eigen::Matrix<double, 2, 1>;
  using Input = Eigen::Matrix<double, 0, 1>;
  using SlowState = Eigen::Matrix<double, 1, 1>;
  using FastState = Eigen::Matrix<double, 1, 1>;
};
static_assert(Prk<TwoStates, Prk25Tableau>::slow_evaluations() == 2, "slow equations at stages 2 and 4");
static_assert(Prk<TwoStates, Prk25Tableau>::fast_evaluations() == 5, "fast equations at every stage");

// R(z) = 1 + z + z^2/2 + 3z^3/16 + z^4/32 + z^5/128 (Table 5), computed from the tableau.
TEST(Prk25, FastStabilityFunctionIsTable5sPolynomial) {
  const PrkTableau& t = prk25_tableau();
  for (const std::complex<double> z : {std::complex<double>(0, 1), {0, 3.9}, {-1, 2}, {-2.5, 0}, {0.3, -1.7}}) {
    const std::complex<double> table5 =
        1.0 + z + z * z / 2.0 + 3.0 * std::pow(z, 3) / 16.0 + std::pow(z, 4) / 32.0 + std::pow(z, 5) / 128.0;
    // Each coefficient of the tableau's polynomial is within 2e-9 of Table 5's (previous
    // test); |z|^5 <= 900 multiplies that to < 2e-6.
    EXPECT_LT(std::abs(stability_function(t.a_fast, t.b_fast, z) - table5), 2e-6) << z;
  }
}

// Largest y with |R(i y')| <= 1 + 1e-9 for all 0 <= y' <= y, scanned in steps of 1e-4 and
// then bisected.
double imaginary_interval(const std::vector<std::vector<double>>& a, const std::vector<double>& b) {
  const auto ok = [&](double y) { return std::abs(stability_function(a, b, {0, y})) <= 1 + 1e-9; };
  double y = 0;
  while (y < 10 && ok(y + 1e-4)) y += 1e-4;
  double lo = y, hi = y + 1e-4;
  while (hi - lo > 1e-12) (ok((lo + hi) / 2) ? lo : hi) = (lo + hi) / 2;
  return lo;
}

// Table 5's polynomial reaches |R(4i)| = 1 exactly; the tableau's rounded coefficients move
// that end by O(1e-8 * 4^5 / |R'(4i)|). RK2 (Heun) has |R(iy)|^2 = 1 + y^4/4 > 1: an
// interval of 0 up to the 1e-9 margin, i.e. y < (4e-9)^(1/4) = 0.008; RK4's is 2*sqrt(2).
TEST(Prk25, ImaginaryStabilityIntervalIsAbout4) {
  const PrkTableau& t = prk25_tableau();
  const double prk = imaginary_interval(t.a_fast, t.b_fast);
  RecordProperty("prk25_fast", std::to_string(prk));
  EXPECT_NEAR(prk, 4.0, 1e-3);
  const double heun = imaginary_interval({{0, 0}, {1, 0}}, {0.5, 0.5});
  EXPECT_LT(heun, 0.01);
  const double rk4 = imaginary_interval({{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}},
                                        {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6});
  EXPECT_NEAR(rk4, 2 * std::sqrt(2.0), 1e-3);
}

// For a decoupled linear system the coupled one-step map is block diagonal: the slow block
// is the slow tableau's R(h a) = 1 + z + z^2/2 (order 2 with 2 stages), the fast block the
// fast tableau's polynomial.
TEST(Prk25, OneStepMapOfADecoupledSystemIsEachTableausPolynomial) {
  const PrkTableau& t = prk25_tableau();
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(3, 3);
  j(0, 0) = -2;                                    // slow
  j.bottomRightCorner(2, 2) << -5, -300, 300, -5;  // fast: -5 +- 300i
  const double h = 0.01;
  const Eigen::MatrixXd m = one_step_map("prk25", j, h, 1);
  EXPECT_NEAR(m(0, 0), std::real(stability_function(t.a, t.b, -2 * h)), 1e-14);
  EXPECT_NEAR(std::abs(stability_function(t.a, t.b, -2 * h) - (1 - 2 * h + 2 * h * h)), 0, 2e-9);
  const std::complex<double> fast = stability_function(t.a_fast, t.b_fast, {-5 * h, 300 * h});
  const double radius = eigenvalues(m.bottomRightCorner(2, 2)).cwiseAbs().maxCoeff();
  EXPECT_NEAR(radius, std::abs(fast), 1e-12);
  EXPECT_NEAR(m(0, 1), 0, 1e-15);
  EXPECT_NEAR(m(1, 0), 0, 1e-15);
}

// Stability beyond Heun's on the imaginary axis: an oscillatory fast mode of 500 rad/s with
// damping ratio 0.02 is stable for prk25 up to about h = 4/500 and for Heun's method only
// while the damping outweighs its y^4/4 growth.
TEST(Prk25, MaxStableStepOfALightlyDampedFastModeIsAbout4OverOmega) {
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(3, 3);
  j(0, 0) = -1;
  j(0, 1) = 1;
  j.bottomRightCorner(2, 2) << -10, -500, 500, -10;
  bool bounded = false;
  const double prk = max_stable_step("prk25", j, 1, bounded);
  EXPECT_TRUE(bounded);
  EXPECT_GT(prk, 3.5 / 500);
  EXPECT_LT(prk, 4.5 / 500);
  const double heun = max_stable_step("rk2", j, 1, bounded);
  EXPECT_GT(prk / heun, 3.0);
  RecordProperty("ratio_prk25_rk2", std::to_string(prk / heun));
}

// prk25 runs both partitions inside one step: one periodic task, so asking verify for the
// dual-rate task executives is a usage error (exit 1), and generate refuses a step beyond
// its stability limit, naming the limit, which analyze --json reports.
TEST(Prk25, CliRefusesTasksAndAnUnstableStep) {
  const std::string model = test::source_path("models/quarter_car.yaml");
  const ProcessResult tasks = run_process({test::cli(), "verify", model, "--scheme", "prk25", "--tasks", "multi"});
  EXPECT_EQ(tasks.exit_code, 1) << tasks.output;
  EXPECT_NE(tasks.output.find("--tasks applies to the dual-rate schemes"), std::string::npos) << tasks.output;
  const std::string dir = (std::filesystem::temp_directory_path() / "dualrate-prk-cli").string();
  const ProcessResult unstable =
      run_process({test::cli(), "generate", model, "--scheme", "prk25", "--step", "0.05", "-o", dir});
  EXPECT_EQ(unstable.exit_code, 1) << unstable.output;
  EXPECT_NE(unstable.output.find("the largest stable step is 0.0477926"), std::string::npos) << unstable.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/quarter_car.hpp"));
  const ProcessResult analyze = run_process({test::cli(), "analyze", model, "--scheme", "prk25", "--json"});
  EXPECT_EQ(analyze.exit_code, 0) << analyze.output;
  EXPECT_NE(analyze.output.find("\"max_stable_step\":0.04779258"), std::string::npos) << analyze.output;
  EXPECT_NE(analyze.output.find("\"max_stable_step_bounded\":true"), std::string::npos) << analyze.output;
}

// The dual-rate multistep schemes are refused like the others when their macro-step map is
// unstable: the planar spacecraft's undamped panel modes make ABM4 PECE grow by 1.55e-6 per
// macro step (0.155% over its 10 s); --allow-unstable generates it anyway.
TEST(Multistep, GenerateRefusesAnUnstableMacroStepUnlessAllowed) {
  const std::string model = test::source_path("models/planar_spacecraft.yaml");
  const std::string dir = (std::filesystem::temp_directory_path() / "dualrate-mrabm4-cli").string();
  std::filesystem::remove_all(dir);
  const ProcessResult refused = run_process({test::cli(), "generate", model, "--scheme", "mrabm4", "-o", dir});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("planar_spacecraft.yaml:218:1: error: mrabm4 is unstable"), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("macro-step map"), std::string::npos) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/planar_spacecraft.hpp"));
  const ProcessResult allowed =
      run_process({test::cli(), "generate", model, "--scheme", "mrabm4", "--allow-unstable", "-o", dir});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/planar_spacecraft.hpp"));
  const ProcessResult abm4 = run_process({test::cli(), "analyze", test::source_path("models/dc_motor.yaml"), "--scheme",
                                          "abm4", "--step", "0.0003", "--json"});
  EXPECT_EQ(abm4.exit_code, 0) << abm4.output;
  EXPECT_NE(abm4.output.find("\"stable\":false"), std::string::npos) << abm4.output;
}

}  // namespace
}  // namespace dualrate
