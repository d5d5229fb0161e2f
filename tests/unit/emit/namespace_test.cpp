// generate --namespace: the generated code's namespace and the header's name, so that several
// headers of one model (schemes, steps) link into one program (tests/benchmarks/
// work_precision builds fifteen models that way).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

TEST(GenerateNamespace, NamesTheNamespaceAndTheHeaderAndChangesNothingElse) {
  const std::string model = test::source_path("models/dc_motor.yaml");
  const std::string dir = (std::filesystem::temp_directory_path() / "dualrate-namespace-test").string();
  std::filesystem::remove_all(dir);
  const ProcessResult plain = run_process({test::cli(), "generate", model, "--scheme", "sp_ll", "-o", dir});
  const ProcessResult named =
      run_process({test::cli(), "generate", model, "--scheme", "sp_ll", "--namespace", "motor_at_1ms", "-o", dir});
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  ASSERT_EQ(named.exit_code, 0) << named.output;
  EXPECT_EQ(named.output, dir + "/motor_at_1ms.hpp\n");
  const std::string header = read_file(dir + "/motor_at_1ms.hpp");
  EXPECT_NE(header.find("namespace motor_at_1ms {"), std::string::npos);
  EXPECT_NE(header.find("}  // namespace motor_at_1ms"), std::string::npos);
  EXPECT_EQ(header.find("dc_motor.hpp"), std::string::npos);
  EXPECT_EQ(replace_all(header, "motor_at_1ms", "dc_motor"), read_file(dir + "/dc_motor.hpp"));
  std::filesystem::remove_all(dir);
}

TEST(GenerateNamespace, RefusesWhatIsNotAnIdentifier) {
  const std::string model = test::source_path("models/dc_motor.yaml");
  for (const char* bad : {"9lives", "a-b", "a::b", ""}) {
    const ProcessResult r = run_process({test::cli(), "generate", model, "--namespace", bad, "-o", "/tmp"});
    EXPECT_EQ(r.exit_code, 1) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--namespace"), std::string::npos) << r.output;
  }
}

// generate --instances: a namespace per instance of a calibrated model, its calibration once.
TEST(GenerateInstances, ANamespacePerInstanceAndOneCalibration) {
  const std::string model = test::source_path("tests/models/calibration/motor.yaml");
  const std::string dir = (std::filesystem::temp_directory_path() / "dualrate-instances-test").string();
  std::filesystem::remove_all(dir);
  const ProcessResult r =
      run_process({test::cli(), "generate", model, "--scheme", "rk4", "--instances", "a,b", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string header = read_file(dir + "/motor.hpp");
  const auto count = [&header](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = header.find(what); at != std::string::npos; at = header.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("\nstruct Calibration {"), 1U);
  EXPECT_EQ(count("\ninline Calibration calibration "), 1U);
  EXPECT_EQ(count("\nstruct Model {"), 2U);
  EXPECT_EQ(count("\ninline Constants active_constants = {"), 2U);
  EXPECT_LT(header.find("namespace a {"), header.find("namespace b {"));
  EXPECT_NE(header.find("    a::constants_handoff.publish();\n    b::constants_handoff.publish();\n"),
            std::string::npos)
      << header;
  // verify checks one instance's code: such a header is refused, saying why.
  const ProcessResult verify =
      run_process({test::cli(), "verify", model, "--scheme", "rk4", "--header", dir + "/motor.hpp"});
  EXPECT_EQ(verify.exit_code, 1) << verify.output;
  EXPECT_NE(verify.output.find("it is generated with --instances"), std::string::npos) << verify.output;
  std::filesystem::remove_all(dir);
}

TEST(GenerateInstances, RefusesNamesTakenTwiceAndAModelWithoutTunableValues) {
  const std::string motor = test::source_path("tests/models/calibration/motor.yaml");
  const std::pair<std::string, std::string> bad[] = {
      {"a,a", "--instances: 'a' is named twice"},
      {"Model", "--instances: 'Model' is a name the generated code declares or reserves"},
      {"x_", "--instances: 'x_' is a name the generated code declares or reserves"},
      {"left,new", "--instances: 'new' is a name the generated code declares or reserves"},
      {"a-b", "--instances"}};
  for (const auto& [instances, message] : bad) {
    const ProcessResult r = run_process({test::cli(), "generate", motor, "--instances", instances, "-o", "/tmp"});
    EXPECT_EQ(r.exit_code, 1) << instances << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }
  const ProcessResult fixed = run_process(
      {test::cli(), "generate", test::source_path("models/dc_motor.yaml"), "--instances", "a,b", "-o", "/tmp"});
  EXPECT_EQ(fixed.exit_code, 1) << fixed.output;
  EXPECT_NE(fixed.output.find("--instances: model 'dc_motor' has no tunable values"), std::string::npos)
      << fixed.output;
}

}  // namespace
}  // namespace dualrate

namespace dualrate {
namespace {

// The dual-rate schemes step the fast states in one task and the slow ones in the other; a
// model without one of the two is refused with a positioned error (the runtime's static_assert
// would otherwise stop the build of the generated header).
TEST(DualRateSchemes, RefuseAModelWithoutFastStates) {
  const std::string model = test::source_path("models/quarter_car_a.yaml");
  for (const char* scheme : {"mrabm4", "mrabm4_parallel"}) {
    const ProcessResult r = run_process({test::cli(), "generate", model, "--scheme", scheme, "-o", "/tmp"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(r.output.rfind(model + ":", 0), 0u) << r.output;
    EXPECT_NE(r.output.find(std::string(scheme) + " needs both slow and fast states (2 slow, 0 fast)"),
              std::string::npos)
        << r.output;
  }
}

}  // namespace
}  // namespace dualrate
