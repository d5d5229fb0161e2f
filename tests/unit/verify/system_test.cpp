// System files (verify-system): the example loads with its defaults; mistakes are positioned
// errors at the key or value they concern.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "verify/system.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

TEST(SystemFile, TheExampleLoads) {
  const SystemSpec s = load_system_file(test::source_path("tests/models/systems/flight_and_chassis.yaml"));
  EXPECT_EQ(s.name, "flight_and_chassis");
  EXPECT_DOUBLE_EQ(s.t_end, 0.3);
  ASSERT_EQ(s.models.size(), 3u);
  EXPECT_EQ(s.models[0].scheme, "mrabm4_parallel");
  EXPECT_EQ(s.models[1].ratio, 4);
  EXPECT_FALSE(s.models[2].step.has_value());
  EXPECT_TRUE(std::filesystem::exists(s.models[2].file)) << s.models[2].file;
}

// Writes `text` as a system file in the temporary directory and returns the error its
// loading gives.
ModelError error_of(const std::string& text) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("dualrate_system_test_" + std::to_string(getpid()) + ".yaml"))
          .string();
  std::ofstream(path) << text;
  try {
    load_system_file(path);
  } catch (const ModelError& e) {
    std::filesystem::remove(path);
    return e;
  }
  std::filesystem::remove(path);
  ADD_FAILURE() << "no error for:\n" << text;
  return ModelError({}, "");
}

TEST(SystemFile, MistakesArePositioned) {
  const std::string head = "name: s\nt_end: 1\nmodels:\n";
  const std::string model = "  - file: " + test::source_path("models/aircraft_pitch.yaml") + "\n";
  ModelError e = error_of(head + model + "    schem: mrabm4\n");
  EXPECT_EQ(e.loc().line, 5);
  EXPECT_NE(std::string(e.what()).find("unknown key 'schem'"), std::string::npos) << e.what();
  EXPECT_NE(e.hint().find("scheme"), std::string::npos) << e.hint();

  e = error_of(head + model + "    scheme: rk4\n");
  EXPECT_EQ(e.loc().line, 5);
  EXPECT_EQ(e.loc().column, 13);
  EXPECT_NE(std::string(e.what()).find("not a dual-rate scheme"), std::string::npos) << e.what();

  e = error_of(head + "  - file: no_such_model.yaml\n    scheme: mrabm4\n");
  EXPECT_EQ(e.loc().line, 4);
  EXPECT_NE(std::string(e.what()).find("no model file"), std::string::npos) << e.what();

  e = error_of("name: s\nt_end: -1\nmodels: []\n");
  EXPECT_EQ(e.loc().line, 2);
  EXPECT_NE(std::string(e.what()).find("t_end must be a positive number"), std::string::npos) << e.what();
}

// The second verdict: each model's answer against the high-accuracy solution, judged where
// the model gives a tolerance; the system passes as code and tasks but is not accurate when one
// judged model is off, and "accurate" is null when none is judged.
TEST(SystemResult, AccuracyIsJudgedPerModel) {
  SystemResult r;
  r.name = "two";
  r.target = "cortex-m7";
  r.pass = true;
  VerifyResult judged, unjudged;
  judged.model = "a";
  judged.accuracy = AccuracyCheck{};
  judged.accuracy->max_error = 2e-3;
  judged.accuracy->worst_state = "x";
  judged.accuracy->tolerance.relative = 1e-3;
  judged.accuracy->tolerance_source = "simulation.tolerance";
  unjudged.model = "b";
  unjudged.accuracy = AccuracyCheck{};
  unjudged.accuracy->max_error = 0.5;
  r.models = {unjudged};
  EXPECT_EQ(r.accurate(), std::nullopt);
  EXPECT_TRUE(r.pass_all());
  EXPECT_NE(r.json().find("\"accurate\":null"), std::string::npos) << r.json();
  EXPECT_NE(r.text().find("max error 5.000e-01; not judged"), std::string::npos) << r.text();
  r.models = {unjudged, judged};
  EXPECT_EQ(r.accurate(), false);
  EXPECT_FALSE(r.pass_all());
  EXPECT_NE(r.json().find("\"accurate\":false"), std::string::npos) << r.json();
  EXPECT_NE(r.text().find("tolerance 1.000e-03 (simulation.tolerance): NOT ACCURATE"), std::string::npos) << r.text();
  r.models[1].accuracy->max_error = 5e-4;
  EXPECT_EQ(r.accurate(), true);
  EXPECT_TRUE(r.pass_all());
  EXPECT_NE(r.json().find("\"accurate\":true"), std::string::npos) << r.json();
}

}  // namespace
}  // namespace dualrate
