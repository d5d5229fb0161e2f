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
      (std::filesystem::temp_directory_path() / ("dualrate_system_test_" + std::to_string(getpid()) + ".yaml")).string();
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

}  // namespace
}  // namespace dualrate
