// Linear stability analysis: one-step maps built from the schemes' reference implementations
// against their closed-form stability functions.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "schemes/adams/adams.hpp"
#include "schemes/adams/dual_rate_adams.hpp"
#include "analysis/stability.hpp"
#include "numeric/linearization.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// For dx/dt = lambda x the one-step map is R(h lambda): 1 + z (Euler), 1 + z + z^2/2 (Heun),
// 1 + z + z^2/2 + z^3/6 + z^4/24 (RK4, seed 000 eq. 49). A 2x2 real block [[a, -b], [b, a]]
// has eigenvalues a +- ib, so its map has spectral radius |R(h (a + ib))|.
TEST(Analysis, OneStepMapMatchesStabilityPolynomials) {
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{-1, 0}, {-3, 40}, {0, 700}, {-50, 2}}) {
    Eigen::MatrixXd j(2, 2);
    j << a, -b, b, a;
    for (double h : {1e-3, 5e-3, 2e-2}) {
      const std::complex<double> z(h * a, h * b);
      const double euler = std::abs(1.0 + z);
      const double heun = std::abs(1.0 + z + z * z / 2.0);
      const double rk4 = std::abs(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0);
      const auto radius = [&](const char* s) { return eigenvalues(one_step_map(s, j, h)).cwiseAbs().maxCoeff(); };
      // Both sides are a few dozen floating-point operations on numbers with |z| <= 14, so
      // they agree to some tens of ulps of max(1, |R|): inside 1e-12 relative.
      EXPECT_NEAR(radius("euler"), euler, 1e-12 * std::max(1.0, euler));
      EXPECT_NEAR(radius("rk2"), heun, 1e-12 * std::max(1.0, heun));
      EXPECT_NEAR(radius("rk4"), rk4, 1e-12 * std::max(1.0, rk4));
    }
  }
}

TEST(Analysis, PendulumRk4IsUnstableAtTheSeedsStepAndStableBelowIt) {
  const Model m = test::load(test::source_path("models/pendulum_particle.yaml"));
  const StabilityReport coarse = analyze_stability(m, "rk4", 0.005);
  EXPECT_FALSE(coarse.stable);
  EXPECT_GT(coarse.spectral_radius, 1.5);  // |R(3.54i)| = 4.03 for the fast mode sqrt(k/m2) = 707 rad/s
  const StabilityReport fine = analyze_stability(m, "rk4", 0.001);
  EXPECT_TRUE(fine.stable);
  // The fast modes are +-i sqrt(k/m2) (seed 000: the particle on its spring).
  EXPECT_NEAR(fine.fast_eigenvalues.cwiseAbs().maxCoeff(), std::sqrt(5 / 1e-5), 1e-6);
  EXPECT_GT(fine.separation, 100);
}

// A model that grows by itself (an oscillation at 0.1 +- 2i 1/s) is said so, with each growing
// mode once and its e-folding time 1 / 0.1 = 10 s; a stable one is not.
TEST(Analysis, AModelThatGrowsIsSaidSo) {
  init_symbolic();
  const Model m = load_model_text(
      "name: growing\nstates:\n  slow:\n    x: 1\n    y: 0\n"
      "equations:\n  x: 0.1*x + 2*y\n  y: -2*x + 0.1*y\n",
      "growing.yaml");
  const StabilityReport r = analyze_stability(m, "rk4", 1e-3);
  EXPECT_NEAR(growth_rate(r.jacobian_eigenvalues), 0.1, 1e-12);
  EXPECT_NE(r.text().find("the model itself grows at its linearization: mode 0.1+2i 1/s (e-folding time 10 s)\n"),
            std::string::npos)
      << r.text();
  EXPECT_NE(r.json().find("\"growing_modes\":[[0.1"), std::string::npos) << r.json();
  const StabilityReport stable =
      analyze_stability(test::load(test::source_path("models/pendulum_particle.yaml")), "rk4", 1e-3);
  EXPECT_EQ(stable.text().find("grows"), std::string::npos);
  EXPECT_NE(stable.json().find("\"growing_modes\":[]"), std::string::npos);
}

// The growth rule (MapJudgement) on dx/dt = lambda x, lambda = 1 1/s: a growing mode is
// accepted where the map grows at half to one and a half times the model's rate, z = h lambda.
// rk4 at h = 0.1: R = 1.10517083 against e^0.1 = 1.10517092, accepted; at h = 2.5, R(2.5) = 8.65
// against [e^1.25, e^3.75] = [3.49, 42.5], still accepted (the scheme grows as the model does);
// euler at h = 3: R = 4 < e^1.5 = 4.48, its growth too slow: refused, relative 4.48 / 4 = 1.12.
TEST(Analysis, AGrowingModeIsJudgedAgainstTheModelsGrowth) {
  init_symbolic();
  const Eigen::MatrixXd j = Eigen::MatrixXd::Constant(1, 1, 1.0);
  const MapJudgement rk4 = MapRadius("rk4", j, 1, 1, {}).judge(0.1);
  EXPECT_NEAR(rk4.amplification, 1 + 0.1 + 0.005 + 0.1 * 0.1 * 0.1 / 6 + 1e-4 / 24, 1e-15);
  EXPECT_NEAR(rk4.model_growth, std::exp(0.1), 1e-15);
  EXPECT_EQ(rk4.growth, 1.0);
  EXPECT_NEAR(rk4.relative, std::exp(0.05) / rk4.amplification, 1e-15);  // within [e^0.05, e^0.15]
  EXPECT_LE(rk4.relative, 1.0);
  EXPECT_LE(MapRadius("rk4", j, 1, 1, {}).judge(2.5).relative, 1.0);
  const MapJudgement euler = MapRadius("euler", j, 1, 1, {}).judge(3);
  EXPECT_DOUBLE_EQ(euler.amplification, 4);
  EXPECT_NEAR(euler.relative, std::exp(1.5) / 4, 1e-14);
  // A mode that does not grow keeps |R| <= 1: with -100 beside it, euler at h = 0.03 amplifies
  // it by |1 - 3| = 2, which decides.
  Eigen::MatrixXd two = Eigen::MatrixXd::Zero(2, 2);
  two << 1, 0, 0, -100;
  const MapJudgement stiff = MapRadius("euler", two, 2, 1, {}).judge(0.03);
  EXPECT_EQ(stiff.mode, std::complex<double>(-100, 0));
  EXPECT_DOUBLE_EQ(stiff.relative, 2);
}

// A closed loop that grows at its initial state (models/relaxed_stability_pitch.yaml, +0.13 +-
// 0.62i 1/s) is stable for rk4 and mrabm4 at its step, which follow its growth; analyze says
// so and gives the largest step that does; generate accepts it without --allow-unstable.
TEST(Analysis, AClosedLoopThatGrowsIsAcceptedWhereTheSchemeFollowsIt) {
  const Model m = test::load(test::source_path("models/relaxed_stability_pitch.yaml"));
  for (const char* scheme : {"rk4", "mrabm4"}) {
    const StabilityReport r = analyze_stability(m, scheme, m.simulation.step.value(), 4);
    EXPECT_GT(r.spectral_radius, 1.0) << scheme;
    EXPECT_TRUE(r.stable) << r.text();
    EXPECT_NEAR(r.judgement.growth, 0.1295, 1e-4);
    EXPECT_GT(r.max_stable_step, m.simulation.step.value()) << r.text();
    EXPECT_NE(r.text().find("follows it: stable"), std::string::npos) << r.text();
    EXPECT_NE(r.json().find("\"growth_relative_radius\":"), std::string::npos) << r.json();
  }
  const StabilityReport coarse = analyze_stability(m, "euler", 0.2, 1, {}, StepSearch::kWhenUnstable);
  EXPECT_FALSE(coarse.stable);
  const Instability why = instability(m, coarse, 5);
  EXPECT_NE(why.message.find("euler at h = 0.2 does not follow relaxed_stability_pitch, which grows at its initial "
                             "state"),
            std::string::npos)
      << why.message;
  EXPECT_NE(why.hint.find("the largest step that follows the model's growth is"), std::string::npos) << why.hint;
}

}  // namespace
}  // namespace dualrate

namespace dualrate {
namespace {

// A slow oscillator (-0.2 +- 2i) coupled to a fast one (-5 +- 49.7i): the linear test system
// of the stability tests below.
Eigen::MatrixXd coupled_oscillators() {
  Eigen::MatrixXd j(4, 4);
  j << 0, 1, 0, 0,     //
      -4, -0.4, 1, 0,  //
      0, 0, 0, 1,      //
      50, 0, -2500, -10;
  return j;
}

// The macro-step map of the dual-rate task forms against their actual growth: on a linear
// system the reference core's DualRateAdams, run for 400 macro steps beyond the start-up,
// grows per macro step like the map's spectral radius (power iteration: the ratio of norms
// over the last 200 macro steps converges to it geometrically in the ratio of the two
// largest eigenvalue moduli).
TEST(Analysis, MacroStepMapOfTheDualRateSchemesPredictsTheirGrowth) {
  const Eigen::MatrixXd j = coupled_oscillators();
  for (const bool parallel : {false, true}) {
    const char* scheme = parallel ? "mrabm4_parallel" : "mrabm4";
    for (const double h : {0.004, 0.019}) {  // stable, and just beyond the largest stable step 0.0182
      const int ratio = 5;
      const double radius = eigenvalues(one_step_map(scheme, j, h, 2, ratio)).cwiseAbs().maxCoeff();
      const TickRhs f = [&](long, double, const std::vector<double>& x, std::vector<double>& dx) {
        const Eigen::Vector4d v = j * Eigen::Map<const Eigen::Vector4d>(x.data());
        dx.assign(v.data(), v.data() + 4);
      };
      const StartStep start = [&](long, const std::vector<double>& x) {
        return scheme_step(
            "rk4", [&](double, const std::vector<double>& xs, std::vector<double>& dx) { f(0, 0, xs, dx); }, 0, h, x);
      };
      DualRateAdams tasks(parallel, 2, h, ratio, {f, f}, start);
      std::vector<double> x = {1, 0, 0.01, 0};
      double norm_200 = 0;
      for (long k = 0; k <= 400 + DualRateAdams::kStartupMacroSteps; ++k) {
        tasks.advance(k * ratio, x);
        if (k == 200 + DualRateAdams::kStartupMacroSteps)
          norm_200 = Eigen::Map<const Eigen::VectorXd>(tasks.history().data(),
                                                       static_cast<Eigen::Index>(tasks.history().size()))
                         .norm();
      }
      const std::vector<double> last = tasks.history();
      const double norm_400 =
          Eigen::Map<const Eigen::VectorXd>(last.data(), static_cast<Eigen::Index>(last.size())).norm();
      EXPECT_NEAR(std::pow(norm_400 / norm_200, 1.0 / 200), radius, 0.01 * radius) << scheme << " h = " << h;
    }
  }
}

// The same for the single-rate abm4 (AdamsIntegrator, the reference core's transcription): its
// one-step map on [x; f_i ... f_{i-3}] predicts the growth of a 400-step run, at a step called
// stable (radius 1 to rounding: the undamped slow pair keeps |z| = 1 - O(h^5)) and one just
// beyond the largest stable step.
TEST(Analysis, OneStepMapOfAbm4PredictsItsGrowth) {
  const Eigen::MatrixXd j = coupled_oscillators();
  bool bounded = false;
  const double limit = max_stable_step("abm4", j, 2, bounded);
  ASSERT_TRUE(bounded);
  for (const double h : {0.5 * limit, 1.05 * limit}) {
    const double radius = eigenvalues(one_step_map("abm4", j, h, 2, 1)).cwiseAbs().maxCoeff();
    EXPECT_EQ(radius <= 1 + kStabilityMargin, h < limit) << "h = " << h;
    const RightHandSide linear = [&](double, const std::vector<double>& x, std::vector<double>& dx) {
      const Eigen::Vector4d v = j * Eigen::Map<const Eigen::Vector4d>(x.data());
      dx.assign(v.data(), v.data() + 4);
    };
    AdamsIntegrator abm4(
        AdamsScheme::kAbm4, 2, h, 1,
        [&](long, const std::vector<double>& x, std::vector<double>& dx) { linear(0, x, dx); },
        [&](long, const std::vector<double>& x) { return scheme_step("rk4", linear, 0, h, x); });
    std::vector<double> x = {1, 0, 0.01, 0};
    const auto norm = [&] {
      std::vector<double> all = x;
      const std::vector<double> f = abm4.derivative_history();
      all.insert(all.end(), f.begin(), f.end());
      return Eigen::Map<const Eigen::VectorXd>(all.data(), static_cast<Eigen::Index>(all.size())).norm();
    };
    double norm_200 = 0;
    for (long i = 0; i <= 400 + abm4.startup_steps(); ++i) {
      abm4.advance(i, x);
      if (i == 200 + abm4.startup_steps()) norm_200 = norm();
    }
    EXPECT_NEAR(std::pow(norm() / norm_200, 1.0 / 200), radius, 0.01 * radius) << "h = " << h;
  }
}

// max_stable_step is the first crossing: just below it the map is stable, just above not.
TEST(Analysis, MaxStableStepIsTheFirstCrossingForEveryScheme) {
  const Eigen::MatrixXd j = coupled_oscillators();
  for (const char* scheme : {"euler", "rk2", "rk4", "prk25", "sp_ll", "abm4", "mrabm4", "mrabm4_parallel"}) {
    const int ratio = 5;
    bool bounded = false;
    const double h = max_stable_step(scheme, j, 2, bounded, ratio);
    RecordProperty(scheme, std::to_string(h));
    if (!bounded) continue;  // sp_ll: stable over the whole scan
    ASSERT_GT(h, 0) << scheme;
    const auto radius = [&](double s) {
      return eigenvalues(one_step_map(scheme, j, s, 2, ratio)).cwiseAbs().maxCoeff();
    };
    EXPECT_LE(radius(h), 1 + kStabilityMargin) << scheme;
    EXPECT_GT(radius(h * 1.001), 1 + kStabilityMargin) << scheme;
    for (double s = h / 100; s < h; s *= 1.1) EXPECT_LE(radius(s), 1 + kStabilityMargin) << scheme << " h = " << s;
  }
}

}  // namespace
}  // namespace dualrate

namespace dualrate {
namespace {

// A 12x12 matrix with real and complex eigenvalues spread over four decades, and non-normal
// (a random similarity of a block-diagonal matrix with condition number about 10).
Eigen::MatrixXd mixed_spectrum() {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(12, 12);
  const double pairs[][2] = {{-0.3, 2}, {-5, 49.7}, {-40, 900}, {-0.01, 0.5}};
  for (int i = 0; i < 4; ++i) {
    d(2 * i, 2 * i) = d(2 * i + 1, 2 * i + 1) = pairs[i][0];
    d(2 * i, 2 * i + 1) = -pairs[i][1];
    d(2 * i + 1, 2 * i) = pairs[i][1];
  }
  const double reals[] = {-1, -30, -700, -2500};
  for (int i = 0; i < 4; ++i) d(8 + i, 8 + i) = reals[i];
  Eigen::MatrixXd v(12, 12);
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) v(r, c) = (r == c ? 2.0 : 0.0) + 0.3 * std::sin(1.7 * r + 0.9 * c * c);
  return v * d * v.inverse();
}

// The per-eigenvalue radius of the uniform schemes equals that of the whole map. Both come
// from eigen-decompositions in double of matrices whose eigenvalue condition is about
// cond(V) = 10 (and for abm4's 5n history, its companion form's): they agree to cond x
// eps x |R| and a few hundred ulps: inside 1e-10 relative.
TEST(Analysis, UniformSchemesRadiusPerEigenvalueIsTheWholeMapsRadius) {
  for (const Eigen::MatrixXd& j : {coupled_oscillators(), mixed_spectrum()}) {
    const std::size_t slow = static_cast<std::size_t>(j.rows()) / 2;
    for (const char* scheme : {"euler", "rk2", "rk4", "abm4"}) {
      const MapRadius radius(scheme, j, slow, 1, {});
      for (const double h : {1e-4, 1e-3, 3e-3, 1e-2}) {
        const double whole = eigenvalues(reference_step_map(scheme, j, h, slow)).cwiseAbs().maxCoeff();
        EXPECT_NEAR(radius(h), whole, 1e-10 * std::max(1.0, whole)) << scheme << " h = " << h << " n = " << j.rows();
      }
    }
  }
}

// sp_ll's map built in one pass from its constants (sp_ll_step_map, the runtime's formulas)
// equals the reference core's, column by column (per-step block exponentials of eqs. 34 and
// 47): the two differ by the rounding of Eigen's Pade exponentials of differently assembled
// matrices, bounded as for the scheme's double tolerance (1e-10, sp_ll.cpp) relative to the
// map's norm.
TEST(Analysis, SpLlMapFromItsConstantsIsTheReferenceCoresMap) {
  for (const Eigen::MatrixXd& j : {coupled_oscillators(), mixed_spectrum()}) {
    const std::size_t slow = static_cast<std::size_t>(j.rows()) / 2;
    for (const double h : {1e-3, 1e-2, 0.1}) {
      const Eigen::MatrixXd reference = reference_step_map("sp_ll", j, h, slow);
      const Eigen::MatrixXd fast = one_step_map("sp_ll", j, h, slow);
      EXPECT_LE((fast - reference).norm(), 1e-10 * reference.norm()) << "h = " << h << " n = " << j.rows();
    }
  }
}

// A mode that grows by less per step than the scheme resolves: lambda = 1e-3 + 100i 1/s at
// h = 1e-3 grows by e^z, z = 1e-6, per step, and a scheme of order 2 errs on it by about
// |h lambda|^3 / 3! = 0.1^3 / 6 = 1.67e-4 (scheme_accuracy). A neutral map (a = 1) falls short
// of exp(z / 2) by 5e-7, well inside that, and follows the model; one that damps by 1e-3
// falls short by more than the scheme's error, (exp(z) - 1.67e-4) / 0.999 = 1.00083: refused.
// Without the accuracy (0: the bare rule) the neutral map is refused by exp(z / 2) = 1 + 5e-7.
TEST(Analysis, AGrowthBelowTheSchemesAccuracyIsFollowedByANeutralMap) {
  const double h = 1e-3, rate = 1e-3, modulus = std::abs(std::complex<double>(rate, 100));
  const double accuracy = scheme_accuracy(2, h * modulus);
  EXPECT_NEAR(accuracy, std::pow(h * modulus, 3) / 6, 1e-18);
  EXPECT_LE(growth_relative(1.0, rate, true, h, accuracy), 1 + kStabilityMargin);
  EXPECT_NEAR(growth_relative(0.999, rate, true, h, accuracy), (std::exp(h * rate) - accuracy) / 0.999, 1e-12);
  EXPECT_GT(growth_relative(0.999, rate, true, h, accuracy), 1.0008);
  EXPECT_NEAR(growth_relative(1.0, rate, true, h), std::exp(0.5 * h * rate), 1e-15);
  EXPECT_GT(growth_relative(1.0, rate, true, h), 1 + kStabilityMargin);
}

}  // namespace
}  // namespace dualrate
