// Running external programs (compiler, trace program) without a shell.
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct ProcessResult {
  int exit_code = -1;  // -1 when the program could not be started or was killed
  std::string output;  // stdout and stderr, interleaved
};

ProcessResult run_process(const std::vector<std::string>& argv);

// A new empty directory under the system's temporary directory.
std::string make_temp_dir(const std::string& prefix);

}  // namespace dualrate
