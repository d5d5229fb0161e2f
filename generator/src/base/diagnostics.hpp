// Model-file diagnostics: every problem in a model file is a ModelError carrying the
// position it refers to. The CLI prints it as `FILE:LINE:COL: error: what` plus a hint.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace dualrate {

struct SourceLoc {
  std::string file;
  int line = 1;    // 1-based
  int column = 1;  // 1-based

  SourceLoc shifted(int columns) const { return {file, line, column + columns}; }
};

class ModelError : public std::runtime_error {
 public:
  ModelError(SourceLoc loc, const std::string& message, std::string hint = {})
      : std::runtime_error(message), loc_(std::move(loc)), hint_(std::move(hint)) {}

  const SourceLoc& loc() const { return loc_; }
  const std::string& hint() const { return hint_; }
  // "FILE:LINE:COL: error: what" and, when there is a hint, "\n  hint: ..."
  std::string format() const;

 private:
  SourceLoc loc_;
  std::string hint_;
};

// The candidate closest to `name` (case-insensitive edit distance), or "" when none is
// close enough to be a plausible typo.
std::string closest(const std::string& name, const std::vector<std::string>& candidates);

// "did you mean 'x'?" for the closest candidate, or `fallback` when there is none.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates,
                         const std::string& fallback = {});

}  // namespace dualrate
