// The MAT-file writer's refusals and failures: clean errors, no file where it refuses before
// creating one (the round trip through scipy is the CTest mat_file.round_trip).
#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <stdexcept>

#include "base/mat_file.hpp"
#include "base/process.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

const Trace kTrace{{"t", "x", "y"}, {{0, 1, 2}, {0.5, 3, 4}}};

// The message write_mat throws for `trace` at `path`, or "" if it throws none.
std::string mat_error(const Trace& trace, const std::string& path) {
  try {
    write_mat(trace, path, "dualrate test");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(MatFile, MissingDirectoryIsAnError) {
  const std::string dir = make_temp_dir("dualrate-mat");
  const std::string path = dir + "/missing/trace.mat";
  EXPECT_EQ(mat_error(kTrace, path), "cannot create " + path + ": No such file or directory");
  std::filesystem::remove_all(dir);
}

// A full disk: the file size limit (ulimit -f, 512-byte blocks, SIGXFSZ ignored so that
// write fails with EFBIG) cuts the file, which matio does not notice.
TEST(MatFile, ShortWriteIsAnError) {
  const std::string dir = make_temp_dir("dualrate-mat");
  const std::string path = dir + "/trace.mat";
  const ProcessResult r =
      run_process({"/bin/sh", "-c", "ulimit -f 2; trap '' XFSZ; exec \"$0\" \"$@\"", test::cli(), "simulate",
                   test::source_path("models/dc_motor.yaml"), "--t-end", "0.01", "-o", path});
  EXPECT_EQ(r.exit_code, 1);
  // 128 header bytes; 10 columns of 101 rows: 48 bytes of tags, flags and dimensions each, 152
  // of names in all (t, theta, omega, I, rpm, motor_torque, electrical_power, shaft_power and
  // the inputs V, T_load; 8 bytes up to 4 characters, 16 up to 8, 24 up to 16), 808 of doubles each.
  EXPECT_EQ(r.output, "error: cannot write " + path + ": 1024 of 8840 bytes written\n");
  std::filesystem::remove_all(dir);
}

TEST(MatFile, DestinationThatIsNotAFileIsAnError) {
  EXPECT_EQ(mat_error(kTrace, "/dev/full").rfind("cannot write /dev/full: ", 0), 0u);
}

TEST(MatFile, NamesThatAreNotMatlabVariablesAreRefusedBeforeTheFileIsCreated) {
  const std::string dir = make_temp_dir("dualrate-mat");
  const std::string path = dir + "/trace.mat";
  const std::string rule = "a letter, then letters, digits or '_', at most 63 characters";
  for (const std::string& name : std::initializer_list<std::string>{"_x", "1x", "x-y", "", std::string(64, 'a')}) {
    Trace trace = kTrace;
    trace.columns[1] = name;
    const std::string error = mat_error(trace, path);
    EXPECT_NE(error.find("column '" + name + "' is not a MATLAB variable name (" + rule + ")"), std::string::npos)
        << error;
    EXPECT_FALSE(std::filesystem::exists(path)) << name;
  }
  Trace longest = kTrace;
  longest.columns[1] = std::string(63, 'a');
  EXPECT_EQ(mat_error(longest, path), "");
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

TEST(MatFile, RepeatedNameAndShortRowAreRefused) {
  const std::string dir = make_temp_dir("dualrate-mat");
  const std::string path = dir + "/trace.mat";
  Trace repeated = kTrace;
  repeated.columns[2] = "x";
  EXPECT_EQ(mat_error(repeated, path), path + ": column 'x' appears twice");
  Trace short_row = kTrace;
  short_row.rows[1].pop_back();
  EXPECT_EQ(mat_error(short_row, path), path + ": row 2 has 2 values for 3 columns");
  EXPECT_FALSE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

TEST(MatFile, CliReportsAnUnwritablePath) {
  const std::string dir = make_temp_dir("dualrate-mat");
  const std::string path = dir + "/missing/trace.mat";
  const ProcessResult r =
      run_process({test::cli(), "simulate", test::source_path("models/dc_motor.yaml"), "--t-end", "0.001", "-o", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "error: cannot create " + path + ": No such file or directory\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dualrate
