// build_program (targets/build.hpp): one compile-and-link command, run as it is or, with a
// compiler launcher, as one compilation per source in the program's directory (paths inside it
// relative) and a link.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "targets/build.hpp"

namespace dualrate {
namespace {

namespace fs = std::filesystem;

// A program of two sources in a fresh directory, one of them including a header found through
// -I<dir>, and a static library that only the link may see; returns its command.
std::vector<std::string> two_source_program(const fs::path& dir) {
  fs::create_directories(dir / "include");
  write_file(dir / "include" / "answer.hpp", "int answer();\n");
  write_file(dir / "answer.cpp", "#include \"answer.hpp\"\nint answer() { return 42; }\n");
  write_file(dir / "main.cpp",
             "#include <cstdio>\n#include \"answer.hpp\"\nint main() { std::printf(\"%d\\n\", answer()); }\n");
  write_file(dir / "twice.cpp", "int twice(int x) { return 2 * x; }\n");
  EXPECT_EQ(run_process({"c++", "-c", "twice.cpp", "-o", "twice.o"}, dir.string()).exit_code, 0);
  EXPECT_EQ(run_process({"ar", "rcs", (dir / "libtwice.a").string(), (dir / "twice.o").string()}).exit_code, 0);
  return {"c++",
          "-O1",
          "-Wall",
          "-Werror",
          "-I" + (dir / "include").string(),
          (dir / "main.cpp").string(),
          (dir / "answer.cpp").string(),
          (dir / "libtwice.a").string(),
          "-Wl,--gc-sections",
          "-o",
          (dir / "program").string()};
}

class BuildProgram : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* launcher = std::getenv("DUALRATE_COMPILER_LAUNCHER");
    if (launcher) saved_ = launcher;
    had_ = launcher != nullptr;
    dir_ = make_temp_dir("dualrate-build-program");
  }
  void TearDown() override {
    if (had_)
      setenv("DUALRATE_COMPILER_LAUNCHER", saved_.c_str(), 1);
    else
      unsetenv("DUALRATE_COMPILER_LAUNCHER");
    fs::remove_all(dir_);
  }
  std::string saved_;
  bool had_ = false;
  fs::path dir_;
};

TEST_F(BuildProgram, WithoutALauncherRunsTheCommandAsItIs) {
  unsetenv("DUALRATE_COMPILER_LAUNCHER");
  const ProcessResult built = build_program(two_source_program(dir_), dir_);
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_FALSE(fs::exists(dir_ / "0_main.o"));
  EXPECT_EQ(run_process({(dir_ / "program").string()}).output, "42\n");
}

// The launcher, a script that logs its command line and runs it, compiles each source alone in
// the program's directory, where nothing names that directory; the link sees every input.
TEST_F(BuildProgram, ThroughALauncherCompilesEachSourceWithPathsRelativeToTheProgram) {
  const fs::path log = dir_ / "launcher.log";
  write_file(dir_ / "launcher", "#!/bin/sh\necho \"$PWD | $*\" >> " + log.string() + "\nexec \"$@\"\n");
  fs::permissions(dir_ / "launcher", fs::perms::owner_all);
  setenv("DUALRATE_COMPILER_LAUNCHER", (dir_ / "launcher").c_str(), 1);
  const ProcessResult built = build_program(two_source_program(dir_), dir_);
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(run_process({(dir_ / "program").string()}).output, "42\n");
  const std::string prefix = dir_.string() + " | c++ -O1 -Wall -Werror -Iinclude -c ";
  EXPECT_EQ(read_file(log), prefix + "main.cpp -o 0_main.o\n" + prefix + "answer.cpp -o 1_answer.o\n");
}

TEST_F(BuildProgram, ACompilationThatFailsIsReportedAndNotLinked) {
  std::vector<std::string> argv = two_source_program(dir_);
  write_file(dir_ / "answer.cpp", "int answer() { return unknown; }\n");
  setenv("DUALRATE_COMPILER_LAUNCHER", "env", 1);
  const ProcessResult built = build_program(argv, dir_);
  EXPECT_NE(built.exit_code, 0);
  EXPECT_NE(built.output.find("unknown"), std::string::npos) << built.output;
  EXPECT_FALSE(fs::exists(dir_ / "program"));
}

}  // namespace
}  // namespace dualrate
