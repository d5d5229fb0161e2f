// GiNaC Jacobians against central finite differences of the reference core's right-hand
// side (an independent evaluation path).
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/stability.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

class JacobianTest : public ::testing::TestWithParam<std::string> {};

// Central differences with step d_j = cbrt(eps) * max(1, |x_j|) (about 6e-6) have
// truncation error d^2 |f'''| / 6 and rounding error eps |f| / d, both about eps^(2/3) = 4e-11
// times the size of f and its derivatives. For the smooth test points below that is far
// inside 1e-6 of the row's scale, max(1, max_k |J_ik|, max |f_i| / max(1, |x_j|)).
TEST_P(JacobianTest, MatchesCentralDifferences) {
  const Model m = test::load(GetParam());
  const ReferenceCore core(m);
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  std::vector<double> x = core.initial_state();
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.01 * static_cast<double>((i % 3) + 1);  // off equilibria
  const double t = 0.1;
  const std::vector<double> u = core.inputs_at(t);
  const Eigen::MatrixXd analytic = evaluate(m, j, t, x, u);
  std::vector<double> f;
  core.derivatives(t, x, u, f);
  const double d0 = std::cbrt(std::numeric_limits<double>::epsilon());
  for (std::size_t c = 0; c < x.size(); ++c) {
    const double d = d0 * std::max(1.0, std::fabs(x[c]));
    std::vector<double> xp = x, xm = x, fp, fm;
    xp[c] += d;
    xm[c] -= d;
    core.derivatives(t, xp, u, fp);
    core.derivatives(t, xm, u, fm);
    for (std::size_t r = 0; r < x.size(); ++r) {
      const double fd = (fp[r] - fm[r]) / (2 * d);
      const double scale =
          std::max({1.0, analytic.row(r).cwiseAbs().maxCoeff(), std::fabs(f[r]) / std::max(1.0, std::fabs(x[c]))});
      EXPECT_NEAR(analytic(r, c), fd, 1e-6 * scale)
          << "d(" << m.states[r].name << ")'/d" << m.states[c].name << " in " << m.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JacobianTest, ::testing::ValuesIn(test::all_model_files()),
                         [](const auto& info) { return test::stem(info.param); });

TEST(Jacobian, RulesOfNonSmoothFunctions) {
  init_symbolic();
  const Model m = load_model_text(
      "name: n\nparameters: {a: 3}\nstates: {slow: {x: 1, y: 2}}\n"
      "equations:\n  x: abs(x) + a*sign(y) + step(x)\n  y: min(x, y) + max(x, 2*y)\n",
      "inline.yaml");
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  // At (x, y) = (-1, 2): d abs(x)/dx = sign(x) = -1; sign, step are flat; min picks x, max picks 2y.
  const Eigen::MatrixXd v = evaluate(m, j, 0, {-1.0, 2.0}, {});
  EXPECT_EQ(v(0, 0), -1.0);
  EXPECT_EQ(v(0, 1), 0.0);
  EXPECT_EQ(v(1, 0), 1.0);
  EXPECT_EQ(v(1, 1), 2.0);
  // At (3, 1): min picks y, max picks x.
  const Eigen::MatrixXd w = evaluate(m, j, 0, {3.0, 1.0}, {});
  EXPECT_EQ(w(1, 0), 1.0);
  EXPECT_EQ(w(1, 1), 1.0);
  EXPECT_EQ(w(0, 0), 1.0);
}

}  // namespace
}  // namespace dualrate
