#include "base/process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dualrate {

ProcessResult run_process(const std::vector<std::string>& argv) {
  ProcessResult result;
  char log_template[] = "/tmp/dualrate-log-XXXXXX";
  const int log = mkstemp(log_template);
  if (log < 0) throw std::runtime_error("cannot create a temporary file");
  const pid_t pid = fork();
  if (pid < 0) {
    close(log);
    throw std::runtime_error("cannot start " + argv.at(0));
  }
  if (pid == 0) {
    // No program run here reads input; one that touches a terminal from the background
    // process group `timeout` puts it in (QEMU's stdio chardev) would be stopped by SIGTTIN/SIGTTOU.
    const int nothing = open("/dev/null", O_RDONLY);
    if (nothing >= 0) dup2(nothing, STDIN_FILENO);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  close(log);
  std::ifstream in(log_template);
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  std::remove(log_template);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string make_temp_dir(const std::string& prefix) {
  std::string path = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(path.data())) throw std::runtime_error("cannot create a temporary directory");
  return path;
}

}  // namespace dualrate
