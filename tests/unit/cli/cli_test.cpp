// The CLI's own surface: every option's help states its default, an unknown option is
// answered with the nearest one, --version says where the CLI finds its files, progress
// shows on a terminal only.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "base/process.hpp"
#include "targets/build.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// Each option that takes a value, as CLI11's help lists it ("  --every INT=1   Compare ..."),
// with its description (continuation lines included), per subcommand.
std::vector<std::string> value_options(const std::string& help) {
  std::vector<std::string> options;
  std::istringstream lines(help);
  static const std::regex option_line(R"(^  (-\w,)?--[\w-]+ (TEXT|INT|FLOAT|UINT).*)");
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, option_line))
      options.push_back(line);
    else if (!options.empty() && line.rfind("                              ", 0) == 0)
      options.back() += line;
  }
  return options;
}

TEST(Cli, EveryOptionStatesItsDefault) {
  for (const char* command : {"generate", "analyze", "simulate", "verify", "verify-system", "design", "a2l"}) {
    const ProcessResult r = run_process({test::cli(), command, "--help"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::vector<std::string> options = value_options(r.output);
    EXPECT_GE(options.size(), 3U) << command << ": help not parsed:\n" << r.output;
    static const std::regex captured(R"(^  (-\w,)?--[\w-]+ \w+(:\S+)?=\S+)");
    for (const std::string& option : options) {
      const bool stated = std::regex_search(option, captured) || option.find("default") != std::string::npos ||
                          option.find("REQUIRED") != std::string::npos;
      EXPECT_TRUE(stated) << command << ": " << option;
    }
  }
}

TEST(Cli, UnknownOptionsGetTheNearestOne) {
  const ProcessResult r = run_process(
      {test::cli(), "verify", test::source_path("models/dc_motor.yaml"), "--t-ned", "3", "--targte", "host"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("--t-ned: did you mean --t-end?"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--targte: did you mean --target?"), std::string::npos) << r.output;
  const ProcessResult far =
      run_process({test::cli(), "simulate", test::source_path("models/dc_motor.yaml"), "--zzzzzz"});
  EXPECT_EQ(far.exit_code, 1) << far.output;
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
  EXPECT_NE(far.output.find("dualrate simulate --help"), std::string::npos) << far.output;
}

TEST(Cli, VersionNamesWhereItLooks) {
  const ProcessResult r = run_process({test::cli(), "--version"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("dualrate " DUALRATE_VERSION_STRING, 0), 0U) << r.output;
  for (const char* field : {"runtime headers: ", "target support: ", "portable math: "})
    EXPECT_NE(r.output.find(field), std::string::npos) << r.output;
}

// On a terminal (util-linux `script` gives it one) verify shows its stages on stderr, and a
// Cortex-M run under QEMU completes: the programs verify starts read no terminal (QEMU in
// `timeout`'s background process group stopped on SIGTTOU before). Off a terminal: no stages.
TEST(Cli, ProgressOnATerminalOnly) {
  // The sanitized build's CLI has no cross-built portable math (cmake/SanitizedBuild.cmake); the
  // CLI and this test are of one build and find the same files.
  if (!std::filesystem::exists(portable_math_library("cortex-m4f", "libm")))
    GTEST_SKIP() << "this CLI has no portable math for cortex-m4f";
  const std::string model = test::source_path("models/pendulum_particle.yaml");
  const std::string command = std::string(test::cli()) + " verify " + model + " --target cortex-m4f --t-end 0.01";
  const ProcessResult terminal = run_process({"timeout", "300", "script", "-qec", command, "/dev/null"});
  EXPECT_EQ(terminal.exit_code, 0) << terminal.output;
  EXPECT_NE(terminal.output.find("verify pendulum_particle: building the trace program for cortex-m4f"),
            std::string::npos)
      << terminal.output;
  EXPECT_NE(terminal.output.find("PASS"), std::string::npos) << terminal.output;
  const ProcessResult quiet = run_process({test::cli(), "verify", model, "--t-end", "0.01"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("verify pendulum_particle:"), std::string::npos) << quiet.output;
}

// generate --cost measures on Cortex-M targets only, and a model that recalibrates something.
TEST(Cli, GenerateCostRefusesWhatItCannotMeasure) {
  const std::string motor = test::source_path("tests/models/calibration/motor.yaml");
  for (const char* target : {"host", "cortex-a53-linux", "cortex-m9"}) {
    const ProcessResult r = run_process({test::cli(), "generate", motor, "--cost", target, "-o", "/tmp"});
    EXPECT_EQ(r.exit_code, 1) << target << ": " << r.output;
    EXPECT_NE(r.output.find(std::string("--cost ") + target + ": the recalibration is measured on cortex-m3, "),
              std::string::npos)
        << r.output;
  }
  const ProcessResult fixed = run_process(
      {test::cli(), "generate", test::source_path("models/dc_motor.yaml"), "--cost", "cortex-m4f", "-o", "/tmp"});
  EXPECT_EQ(fixed.exit_code, 1) << fixed.output;
  EXPECT_NE(fixed.output.find("--cost: model 'dc_motor' has no tunable values"), std::string::npos) << fixed.output;
}

}  // namespace
}  // namespace dualrate
