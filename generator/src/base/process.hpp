// Running external programs (compiler, trace program) without a shell.
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct ProcessResult {
  int exit_code = -1;  // -1 when the program could not be started or was killed
  std::string output;  // stdout and stderr, interleaved
};

// Runs `argv` in the working directory `dir` (empty: this process's).
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& dir = {});

// A program's standard output and error apart, and whether it ran out of time.
struct CapturedProcess {
  int exit_code = -1;  // -1 when the program could not be started, was killed or timed out
  int signal = 0;      // the signal that ended it, if one did
  bool timed_out = false;
  std::string out, err;
};

// Runs `argv` in a process group of its own; after `timeout_seconds` (0: none) the whole group
// (the program and what it started) is killed with SIGKILL.
CapturedProcess run_captured(const std::vector<std::string>& argv, double timeout_seconds);

// A new empty directory under the system's temporary directory.
std::string make_temp_dir(const std::string& prefix);

}  // namespace dualrate
