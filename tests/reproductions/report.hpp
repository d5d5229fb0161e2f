// What the report programs (seedNNN_report OUT_DIR) share: writing files, gnuplot SVGs in
// one style, the claims a report checks against its measurements, and the main() that
// creates OUT_DIR, runs the report and exits with status 1 when a claim failed or an
// exception was thrown.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/process.hpp"
#include "model/functions.hpp"

namespace dualrate::report {

namespace fs = std::filesystem;

inline void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Writes dir/<name>.gp (the common SVG settings, then `script`) and runs gnuplot on it,
// which writes dir/<name>.svg.
inline void plot(const fs::path& dir, const std::string& name, const std::string& script) {
  write(dir / (name + ".gp"), "set terminal svg size 720,480 dynamic font 'sans,12'\nset output '" + name +
                                  ".svg'\nset termoption noenhanced\nset key top left box opaque\nset grid\n" + script);
  const ProcessResult r = run_process({"sh", "-c", "cd '" + dir.string() + "' && gnuplot " + name + ".gp"});
  if (r.exit_code != 0) throw std::runtime_error("gnuplot failed on " + name + ".gp: " + r.output);
}

// The claims of a seed paper (and of its REPORT.md) that a report checks against the figures
// it prints. Each check records one line, "claim holds: ..." or "CLAIM FAILED: ...", naming
// the claim, the measured value and the bound; a failed check does not stop the report, so
// that all its outputs are still written.
class Claims {
 public:
  // `claim` holds when `measured relation bound` is true; relation is one of <, <=, >, >=.
  // A NaN measurement fails.
  void check(const std::string& claim, double measured, const std::string& relation, double bound) {
    const std::map<std::string, bool> relations = {
        {"<", measured < bound}, {"<=", measured <= bound}, {">", measured > bound}, {">=", measured >= bound}};
    const auto holds = relations.find(relation);
    if (holds == relations.end()) throw std::invalid_argument("unknown relation '" + relation + "' in claim " + claim);
    const int digits = distinguishing_digits(measured, bound);
    record(claim, holds->second,
           fmt::format("measured {:.{}g}, required {} {:.{}g}", measured, digits, relation, bound, digits));
  }

  // `claim` holds when lo <= measured <= hi.
  void check_between(const std::string& claim, double measured, double lo, double hi) {
    const int digits = std::max(distinguishing_digits(measured, lo), distinguishing_digits(measured, hi));
    record(claim, measured >= lo && measured <= hi,
           fmt::format("measured {:.{}g}, required in [{:.{}g}, {:.{}g}]", measured, digits, lo, digits, hi, digits));
  }

  // A claim that is not one number against a bound: `measured` says what was found.
  void check_that(const std::string& claim, bool holds, const std::string& measured) { record(claim, holds, measured); }

  int failed() const { return failed_; }

  // The recorded lines and a summary line.
  std::string summary(const std::string& program) const {
    std::string out;
    for (const std::string& line : lines_) out += line + "\n";
    return out + fmt::format("{}: {} of {} claims failed\n", program, failed_, lines_.size());
  }

 private:
  // Six significant digits, or as many more as it takes to print a and b differently (a
  // spectral radius just above 1 against the bound 1 + 1e-9).
  static int distinguishing_digits(double a, double b) {
    int digits = 6;
    while (digits < 17 && a != b && fmt::format("{:.{}g}", a, digits) == fmt::format("{:.{}g}", b, digits)) ++digits;
    return digits;
  }

  void record(const std::string& claim, bool holds, const std::string& measured) {
    lines_.push_back(fmt::format("{}: {}: {}", holds ? "claim holds" : "CLAIM FAILED", claim, measured));
    if (!holds) ++failed_;
  }

  std::vector<std::string> lines_;
  int failed_ = 0;
};

// main() of a report program: `body(dir, claims)` returns the measured figures (Markdown),
// which are written to dir/measured.md and printed, followed by the claims it checked. The
// exit status is 1 when a claim failed or the body threw.
inline int main(int argc, char** argv, const std::function<std::string(const fs::path&, Claims&)>& body) {
  const std::string program = fs::path(argv[0]).filename().string();
  if (argc != 2) {
    std::cerr << "usage: " << program << " OUT_DIR\n";
    return 1;
  }
  Claims claims;
  try {
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    init_symbolic();
    const std::string md = body(dir, claims);
    write(dir / "measured.md", md);
    std::cout << md << "\n" << claims.summary(program);
    return claims.failed() > 0 ? 1 : 0;
  } catch (const std::exception& e) {
    std::cout << claims.summary(program);
    std::cerr << program << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace dualrate::report
