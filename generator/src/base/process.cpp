#include "base/process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace dualrate {

namespace {

int temp_file(char* path_template) {
  const int fd = mkstemp(path_template);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  return fd;
}

std::string read_and_remove(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

// In the child: no input (a program that touches a terminal from a background process group,
// as QEMU's stdio chardev under `timeout` does, would be stopped by SIGTTIN/SIGTTOU), the given
// output and error, the working directory `dir` (unless empty), then `argv`.
[[noreturn]] void exec_child(const std::vector<std::string>& argv, int out, int err, const std::string& dir = {}) {
  if (!dir.empty() && chdir(dir.c_str()) != 0) _exit(127);
  const int nothing = open("/dev/null", O_RDONLY);
  if (nothing >= 0) dup2(nothing, STDIN_FILENO);
  dup2(out, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  _exit(127);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& dir) {
  ProcessResult result;
  char log_template[] = "/tmp/dualrate-log-XXXXXX";
  const int log = temp_file(log_template);
  const pid_t pid = fork();
  if (pid < 0) {
    close(log);
    throw std::runtime_error("cannot start " + argv.at(0));
  }
  if (pid == 0) exec_child(argv, log, log, dir);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  close(log);
  result.output = read_and_remove(log_template);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CapturedProcess run_captured(const std::vector<std::string>& argv, double timeout_seconds) {
  char out_template[] = "/tmp/dualrate-out-XXXXXX";
  char err_template[] = "/tmp/dualrate-err-XXXXXX";
  const int out = temp_file(out_template);
  const int err = temp_file(err_template);
  const pid_t pid = fork();
  if (pid < 0) {
    close(out);
    close(err);
    throw std::runtime_error("cannot start " + argv.at(0));
  }
  if (pid == 0) {
    setpgid(0, 0);
    exec_child(argv, out, err);
  }
  setpgid(pid, pid);
  CapturedProcess result;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (timeout_seconds > 0 && elapsed.count() > timeout_seconds && !result.timed_out) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  close(out);
  close(err);
  result.out = read_and_remove(out_template);
  result.err = read_and_remove(err_template);
  if (WIFEXITED(status) && !result.timed_out) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string make_temp_dir(const std::string& prefix) {
  std::string path = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(path.data())) throw std::runtime_error("cannot create a temporary directory");
  return path;
}

}  // namespace dualrate
