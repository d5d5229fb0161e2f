// A progress line for the commands that can run long (verify, design, simulate): on standard
// error when it is a terminal, "WHAT: STAGE ... 12 s" (the seconds since the command began),
// rewritten in place, cleared before the command prints its result. Nothing otherwise, so that
// scripts and CTest logs see only the results and notes.
#pragma once

#include <chrono>
#include <string>

namespace dualrate::cli {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool shown() const { return terminal_; }
  // A new stage, shown at once.
  void stage(const std::string& stage);
  // How far a run of the scenario is: "t = T of T_END s", shown at most 4 times a second.
  void at(double t, double t_end);
  // Clears the line (before the result is printed).
  void clear();

 private:
  void show(const std::string& text);
  std::string what_;
  bool terminal_;
  bool showing_ = false;  // a line is on the terminal
  std::chrono::steady_clock::time_point started_, shown_at_;
};

}  // namespace dualrate::cli
