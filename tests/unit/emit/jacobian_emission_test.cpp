// generate --jacobian: the emitted Model::jacobian against central differences of the emitted
// Model::derivatives, for every model that has one (all of models/ and tests/models/valid/
// except those whose mass matrix depends on the coordinates, which are refused), in one
// program that includes every header under its own namespace.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/process.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// Central differences with step d = 1e-6 max(1, |x_c|) (and in t, 1e-6): truncation
// O(d^2 f''') and rounding O(eps |f_r| / d) = 2e-10 |f_r|, both far below 1e-6 relative to
// each row's scale max(1, |f_r|, max_c |J_rc|) at the models' states; a wrong entry (a missing
// term, a sign) is off by O(1) of its row's scale unless it is below a millionth of the row's
// largest.
constexpr const char* kProbe = R"(
#include <algorithm>
#include <cmath>
#include <cstdio>
template <class M>
int check(const char* name) {
  using S = typename M::State;
  S x = M::initial_state();
  for (int i = 0; i < M::kStates; ++i) x[i] += 0.1 * (i + 1);  // off the equilibrium
  const typename M::Input u = M::scenario_inputs(0.3);
  const double t = 0.3;
  Eigen::Matrix<double, M::kStates, M::kStates> j;
  S dfdt, f;
  M::jacobian(t, x, u, j, dfdt);
  M::derivatives(t, x, u, f);
  S scale;
  for (int r = 0; r < M::kStates; ++r) scale[r] = std::max({1.0, std::fabs(f[r]), j.row(r).cwiseAbs().maxCoeff()});
  double worst = 0;
  for (int c = 0; c < M::kStates; ++c) {
    const double d = 1e-6 * std::max(1.0, std::fabs(x[c]));
    S xp = x, xm = x, fp, fm;
    xp[c] += d;
    xm[c] -= d;
    M::derivatives(t, xp, u, fp);
    M::derivatives(t, xm, u, fm);
    worst = std::max(worst, ((fp - fm) / (xp[c] - xm[c]) - j.col(c)).cwiseAbs().cwiseQuotient(scale).maxCoeff());
  }
  S fp, fm;
  const double d = 1e-6;
  M::derivatives(t + d, x, u, fp);
  M::derivatives(t - d, x, u, fm);
  worst = std::max(worst, ((fp - fm) / (2 * d) - dfdt).cwiseAbs().cwiseQuotient(scale).maxCoeff());
  std::printf("%s %.3g\n", name, worst);
  return worst <= 1e-6 ? 0 : 1;
}
)";

TEST(JacobianEmission, MatchesCentralDifferencesOfTheDerivatives) {
  const std::string dir = make_temp_dir("dualrate-jacobian");
  std::string includes, calls;
  int models = 0;
  for (const std::string& file : test::all_model_files()) {
    const std::string name = test::stem(file);
    const ProcessResult r = run_process(
        {test::cli(), "generate", file, "--jacobian", "--allow-unstable", "--namespace", "jac_" + name, "-o", dir});
    if (r.exit_code != 0) {
      EXPECT_NE(r.output.find("--jacobian needs a constant mass matrix"), std::string::npos)
          << file << ": " << r.output;
      continue;
    }
    includes += "#include \"jac_" + name + ".hpp\"\n";
    calls += "  failures += check<jac_" + name + "::Model>(\"" + name + "\");\n";
    ++models;
  }
  EXPECT_GE(models, 15);
  std::ofstream(dir + "/probe.cpp") << includes << kProbe << "int main() {\n  int failures = 0;\n"
                                    << calls << "  return failures;\n}\n";
  const ProcessResult build =
      run_process({"c++", "-std=c++17", "-O1", "-I" + dir, "-I" + test::source_path("runtime/include"), "-isystem",
                   "/usr/include/eigen3", dir + "/probe.cpp", "-o", dir + "/probe"});
  ASSERT_EQ(build.exit_code, 0) << build.output;
  const ProcessResult run = run_process({dir + "/probe"});
  RecordProperty("worst", run.output);
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

}  // namespace
}  // namespace dualrate
