// --param NAME=VALUE: a parameter value from the command line replaces the file's before
// anything is evaluated, so what is defined from it follows; the CLI gives the same results
// as a file edited to that value; bad overrides are errors, never ignored.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "analysis/stability.hpp"
#include "base/diagnostics.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

const char* const kModel = R"(name: lag
parameters:
  tau: 0.5
  k: 2/tau
  u0: 3
inputs:
  u: 0
states:
  slow:
    x: k
equations:
  x: (u - x)/tau
simulation:
  t_end: 1
  step: 0.01
  inputs:
    u: u0*step(t - tau)
)";

double parameter(const Model& m, const std::string& name) {
  for (const auto& p : m.parameters)
    if (p.name == name) return p.value;
  ADD_FAILURE() << "no parameter " << name;
  return 0;
}

TEST(ParamOverride, ReplacesTheValueAndWhatIsDefinedFromItFollows) {
  init_symbolic();
  const Model m = load_model_text(kModel, "lag.yaml", {{"tau", 0.25}});
  EXPECT_EQ(parameter(m, "tau"), 0.25);
  EXPECT_EQ(parameter(m, "k"), 8.0);             // k: 2/tau
  EXPECT_EQ(m.states.at(0).initial_value, 8.0);  // x: k
  EXPECT_TRUE(m.parameters.at(0).overridden);
  EXPECT_FALSE(m.parameters.at(1).overridden);
  // The input signal u0*step(t - tau) switches at the new tau.
  const ReferenceCore core(m);
  EXPECT_EQ(core.inputs_at(0.24).at(0), 0.0);
  EXPECT_EQ(core.inputs_at(0.26).at(0), 3.0);
  // A parameter defined from others can be overridden itself.
  const Model n = load_model_text(kModel, "lag.yaml", {{"k", 5}});
  EXPECT_EQ(parameter(n, "tau"), 0.5);
  EXPECT_EQ(n.states.at(0).initial_value, 5.0);
}

TEST(ParamOverride, AnUnknownNameIsAPositionedErrorWithTheClosestName) {
  init_symbolic();
  try {
    load_model_text(kModel, "lag.yaml", {{"tua", 1}});
    FAIL() << "an override of a parameter that does not exist was accepted";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 2);  // the parameters section
    EXPECT_NE(std::string(e.what()).find("no parameter 'tua'"), std::string::npos) << e.format();
    EXPECT_NE(e.hint().find("did you mean 'tau'?"), std::string::npos) << e.format();
  }
}

// The DC motor with L = 1e-4 H from --param and from an edited copy of the file: the same
// trace bit for bit (17 significant digits), and analyze finds g_z = -R/L.
TEST(ParamOverride, CliMatchesAnEditedFile) {
  const std::string dir = make_temp_dir("dualrate-param");
  const std::string original = test::source_path("models/dc_motor.yaml");
  const std::string edited = dir + "/dc_motor.yaml";
  const std::string text = std::regex_replace(read_file(original), std::regex("\n  L: 2.0e-4\n"), "\n  L: 1.0e-4\n");
  ASSERT_NE(text, read_file(original));
  std::ofstream(edited, std::ios::binary) << text;

  const std::vector<std::string> sim = {"simulate", "--scheme", "rk4", "--step", "5e-5", "--t-end", "0.05", "-o"};
  auto args = [&](std::vector<std::string> a, std::vector<std::string> tail) {
    a.insert(a.begin(), test::cli());
    a.insert(a.end(), tail.begin(), tail.end());
    return a;
  };
  const ProcessResult by_param = run_process(args(sim, {dir + "/param.csv", original, "--param", "L=1e-4"}));
  const ProcessResult by_file = run_process(args(sim, {dir + "/file.csv", edited}));
  const ProcessResult unchanged = run_process(args(sim, {dir + "/original.csv", original}));
  ASSERT_EQ(by_param.exit_code, 0) << by_param.output;
  ASSERT_EQ(by_file.exit_code, 0) << by_file.output;
  ASSERT_EQ(unchanged.exit_code, 0) << unchanged.output;
  EXPECT_EQ(read_file(dir + "/param.csv"), read_file(dir + "/file.csv"));
  EXPECT_NE(read_file(dir + "/param.csv"), read_file(dir + "/original.csv"));

  const ProcessResult analyzed = run_process({test::cli(), "analyze", original, "--param", "L=1e-4", "--json"});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
  std::smatch fast;
  ASSERT_TRUE(std::regex_search(analyzed.output, fast, std::regex("\"fast_eigenvalues\":\\[\\[([-0-9.e+]+),0\\]\\]")))
      << analyzed.output;
  // g_z = -R/L is 1x1: its eigenvalue is the entry, to the rounding of one division.
  EXPECT_NEAR(std::stod(fast[1].str()), -1.2 / 1e-4, 1e-12 * 12000);

  const ProcessResult generated =
      run_process({test::cli(), "generate", original, "--param", "L=1e-4", "--param", "R=2", "-o", dir});
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  const std::string header = read_file(dir + "/dc_motor.hpp");
  EXPECT_NE(header.find("static constexpr Scalar L = Scalar(0x1.a36e2eb1c432dp-14);  // 0.0001 (--param)"),
            std::string::npos);
  EXPECT_NE(header.find("static constexpr Scalar R = Scalar(2);  // 2 (--param)"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(ParamOverride, MalformedOrRepeatedOverridesAreUsageErrors) {
  const std::string model = test::source_path("models/dc_motor.yaml");
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--param", "L"},
                                              {"--param", "=1"},
                                              {"--param", "L=abc"},
                                              {"--param", "L=inf"},
                                              {"--param", "L=1e-4", "--param", "L=2e-4"}}) {
    std::vector<std::string> argv = {test::cli(), "analyze", model};
    argv.insert(argv.end(), bad.begin(), bad.end());
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.exit_code, 1) << bad.back() << ": " << r.output;
    EXPECT_EQ(r.output.rfind("error: --param", 0), 0u) << r.output;
  }
  const ProcessResult unknown = run_process({test::cli(), "analyze", model, "--param", "Lx=1"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(unknown.output.rfind(model + ":", 0), 0u) << unknown.output;
  EXPECT_NE(unknown.output.find("did you mean 'L'?"), std::string::npos) << unknown.output;
}

}  // namespace
}  // namespace dualrate
