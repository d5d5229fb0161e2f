// A sampled trajectory: columns t, slow states, fast states, outputs (file order).
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct Trace {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

// CSV with a header line; numbers printed with 17 significant digits (exact for double).
void write_csv(const Trace& trace, const std::string& path);
// Throws std::runtime_error on a malformed file.
Trace read_csv(const std::string& path);

}  // namespace dualrate
