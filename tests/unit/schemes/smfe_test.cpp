// Seed 001's SMFE: eq. 14 against the implementation's macro-step map, the choice of h_s and
// N (every eigenvalue, not only the paper's two), refusals, and generated code against the
// reference core.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "analysis/stability.hpp"
#include "numeric/linearization.hpp"
#include "emit/cpp_emitter.hpp"
#include "ir/function_cost.hpp"
#include "registry/registry.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "schemes/smfe/smfe.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

double radius(const Eigen::MatrixXd& m) { return eigenvalues(m).cwiseAbs().maxCoeff(); }

// Eq. 14 is exact for linear systems: the macro-step map is (I + (D - N h_s) J)(I + h_s J)^N,
// whose eigenvalues are eq. 14's products. On random coupled systems (2 slow states with
// eigenvalues of modulus 0.1-10, 3 fast ones of 100-1000, all couplings random) the spectral
// radius of the map built from the reference implementation equals the largest factor to
// rounding: both are products of N + 1 factors of size <= 2 computed in double, and the
// eigenvalue solver's error for these well-separated eigenvalues is a few ulps of the
// largest: 1e-12 relative.
TEST(Smfe, Eq14IsTheSpectralRadiusOfTheMacroStepMapForLinearSystems) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::MatrixXd j(5, 5);
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) j(r, c) = unit(rng) * (r < 2 ? 0.3 : 3.0);
    j(0, 0) = -0.1 - 10 * std::fabs(unit(rng));
    j(1, 1) = -0.1 - 10 * std::fabs(unit(rng));
    for (int f = 2; f < 5; ++f) j(f, f) = -100 - 900 * std::fabs(unit(rng));
    const double d = 0.01 + 0.05 * std::fabs(unit(rng));
    const Spectra s = spectra(j, 2);
    const SmfeDesign design = smfe_design(s.all, s.slow, s.fast, d);
    double largest = 0;
    for (const auto& l : s.all) largest = std::max(largest, smfe_factor(l, d, design.inner_step, design.inner_steps));
    EXPECT_NEAR(radius(one_step_map("smfe", j, d, 2)), largest, 1e-12 * std::max(1.0, largest)) << "trial " << trial;
    EXPECT_NEAR(largest, design.worst_factor, 1e-15);
    EXPECT_LE(largest, 1 + kStabilityMargin);
  }
}

// The chosen N is the smallest: at N - 1 some eigenvalue breaks eq. 14 (or N = 1).
TEST(Smfe, ChosenNIsTheSmallestThatHoldsForEveryEigenvalue) {
  const Model m = test::load(test::source_path("tests/models/schemes/smfe_gap.yaml"));
  const SmfeDesign d = smfe_design_for(m, 0.1);
  EXPECT_DOUBLE_EQ(d.inner_step, 1e-3);  // dead-beat for g_z's fastest eigenvalue, -1000
  EXPECT_EQ(d.inner_steps, 15);          // hand-computed in the model's description
  const ReferenceModel core(m);
  const Spectra s = spectra(core.jacobian_at(0, core.initial_state(), core.inputs_at(0)), m.slow_count);
  double at_fewer = 0;
  for (const auto& l : s.all) at_fewer = std::max(at_fewer, smfe_factor(l, 0.1, d.inner_step, d.inner_steps - 1));
  EXPECT_GT(at_fewer, 1);
  // The paper's two eigenvalues (eqs. 10, 15) alone would take N = 1, unstable for the
  // intermediate mode near -30: |1 + 0.099 (-30)| 0.97 = 1.91.
  EXPECT_EQ(d.extremes_inner_steps, 1);
  EXPECT_NEAR(d.extremes_worst_factor, 1.91, 0.01);
  EXPECT_NEAR(d.extremes_breaker.real(), -30, 0.01);
}

// analyze prints both: the extremes-only N and its failure, and the exact N.
TEST(Smfe, AnalyzeRefusesTheExtremesOnlyNAndGivesTheExactOne) {
  const ProcessResult r = run_process({test::cli(), "analyze", test::source_path("tests/models/schemes/smfe_gap.yaml"),
                                       "--scheme", "smfe", "--step", "0.1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"inner_steps\":15,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"extremes_inner_steps\":1,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"extremes_stable\":false"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"stable\":true"), std::string::npos) << r.output;
}

// The model file fixes h_s (simulation: scheme_options: inner_step:), the command line's
// --inner-step overrides it, and another scheme asked for leaves it to smfe: only a flag that
// scheme does not declare is refused.
TEST(Smfe, TheFileGivesTheInnerStepAndTheCommandLineOverridesIt) {
  const std::string dir = make_temp_dir("dualrate-smfe-options");
  const std::string file = dir + "/gap.yaml";
  write_file(file, read_file(test::source_path("tests/models/schemes/smfe_gap.yaml")) +
                       "  scheme_options:\n    inner_step: c/200\n");
  const auto design = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args = {test::cli(), "analyze", file, "--json"};
    args.insert(args.end(), more.begin(), more.end());
    return run_process(args);
  };
  ProcessResult r = design({});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"inner_step\":0.00050000000000000001,\"inner_steps\":30,"), std::string::npos) << r.output;
  r = design({"--inner-step", "0.0002"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"inner_step\":0.00020000000000000001,"), std::string::npos) << r.output;
  r = run_process({test::cli(), "generate", file, "-o", dir + "/out"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // h_s = c/200 = 0.0005 emitted exactly (smfe's own choice would be 0.001).
  EXPECT_NE(read_file(dir + "/out/smfe_gap.hpp").find("inner_step = Scalar(0x1.0624dd2f1a9fcp-11);"),
            std::string::npos);
  r = design({"--scheme", "rk4", "--step", "0.001"});  // the file's inner_step stays smfe's
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = design({"--scheme", "rk4", "--step", "0.001", "--inner-step", "0.001"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.output.find("error: rk4 has no option --inner-step: rk4 takes no options; --inner-step is an option of smfe"),
      std::string::npos)
      << r.output;
  // An h_s the file fixes with no design at this D: the error is at the file's option.
  write_file(file, read_file(test::source_path("tests/models/schemes/smfe_gap.yaml")) +
                       "  scheme_options:\n    inner_step: 0.2\n");
  r = run_process({test::cli(), "generate", file, "-o", dir + "/out"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output.rfind(file + ":28:5: error: smfe at D = 0.1: ", 0), 0U) << r.output;
  EXPECT_NE(r.output.find("the file's inner_step fixes h_s"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// No design: a macro step no longer than the inner step, or an undamped fast mode. The CLI
// says so at the model's simulation section with exit status 1.
TEST(Smfe, RefusesWithAPositionedMessage) {
  const std::string gap = test::source_path("tests/models/schemes/smfe_gap.yaml");
  const ProcessResult short_d = run_process({test::cli(), "generate", gap, "--scheme", "smfe", "--step", "0.001", "-o",
                                             (std::filesystem::temp_directory_path() / "dualrate-smfe").string()});
  EXPECT_EQ(short_d.exit_code, 1) << short_d.output;
  EXPECT_EQ(short_d.output.rfind(gap + ":", 0), 0u) << short_d.output;
  EXPECT_NE(short_d.output.find("is not shorter than the macro step"), std::string::npos) << short_d.output;
  const ProcessResult undamped =
      run_process({test::cli(), "analyze", test::source_path("models/planar_spacecraft.yaml"), "--scheme", "smfe",
                   "--step", "0.05"});
  EXPECT_EQ(undamped.exit_code, 1) << undamped.output;
  EXPECT_NE(undamped.output.find("undamped"), std::string::npos) << undamped.output;
}

// Generated code against the reference core in double (rounding only, bound 1e-12 as for
// the other schemes) at macro steps where the generator accepts smfe, far beyond forward
// Euler's limit (adaptive_parasitic: 2/98.5 = 0.0203 s).
TEST(Smfe, GeneratedAgreesWithTheReferenceCore) {
  for (const auto& [file, d] :
       std::vector<std::pair<std::string, double>>{{"models/adaptive_parasitic.yaml", 0.05},
                                                   {"models/quarter_car.yaml", 0.05},
                                                   {"models/flexible_joint.yaml", 0.01},
                                                   {"tests/models/schemes/smfe_gap.yaml", 0.1}}) {
    const Model m = test::load(test::source_path(file));
    VerifyOptions o;
    o.generate = {"smfe", d, 1, ScalarType::kDouble, "test"};
    o.t_end = m.simulation.t_end;
    const VerifyResult r = verify(m, o);
    EXPECT_EQ(r.error, "") << file;
    EXPECT_LE(r.max_error, 1e-12) << r.json();
    EXPECT_TRUE(r.pass) << r.json();
    const SchemeDesign design = precompute_scheme(m, o.generate);
    EXPECT_EQ(design.evaluations, smfe_design_for(m, d).inner_steps + 1);
    EXPECT_EQ(r.ops_per_step, step_cost(m, o.generate, design).ops.total());
  }
}

// One macro step costs N + 1 right-hand sides and, as the runtime header computes it, for each
// inner step x += h_s k (n multiplications, n additions) and for inner steps 1..N-1 its time
// t + i h_s (1 and 1); then N h_s (1), its time (1), D - N h_s (1) and the last update (n, n):
// 2 N (n + 1) + 2 n + 1 besides the right-hand sides.
TEST(Smfe, OpCountIsNPlusOneEvaluations) {
  const Model m = test::load(test::source_path("tests/models/schemes/smfe_gap.yaml"));
  const long d = derivative_ops(m, Rows::kAll).total(), n = 3;
  GenerateRequest o{"smfe", 0.1, 1, ScalarType::kDouble, "test"};
  const SchemeDesign design = precompute_scheme(m, o);
  ASSERT_EQ(design.integers.size(), 1U);
  const long inner = design.integers.front().value;  // N as emitted
  ASSERT_GT(inner, 1);
  EXPECT_EQ(step_cost(m, o, design).ops.total(), (inner + 1) * d + 2 * (inner * (n + 1) + n) + 1);
  EXPECT_EQ(step_cost(m, o, design).bound.total(), (inner + 1) * d);
}

}  // namespace
}  // namespace dualrate
