#include "cli/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <utility>

namespace dualrate::cli {

ProgressLine::ProgressLine(std::string what)
    : what_(std::move(what)),
      terminal_(isatty(STDERR_FILENO) != 0),
      started_(std::chrono::steady_clock::now()),
      shown_at_(started_) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::stage(const std::string& stage) { show(stage); }

void ProgressLine::at(double t, double t_end) {
  if (!terminal_ || std::chrono::steady_clock::now() - shown_at_ < std::chrono::milliseconds(250)) return;
  show(fmt::format("t = {:.6g} of {:.6g} s", t, t_end));
}

void ProgressLine::clear() {
  if (showing_) std::cerr << "\r\033[K" << std::flush;
  showing_ = false;
}

void ProgressLine::show(const std::string& text) {
  if (!terminal_) return;
  shown_at_ = std::chrono::steady_clock::now();
  showing_ = true;
  const double seconds = std::chrono::duration<double>(shown_at_ - started_).count();
  std::cerr << "\r\033[K" << fmt::format("{}: {} ... {:.0f} s", what_, text, seconds) << std::flush;
}

}  // namespace dualrate::cli
