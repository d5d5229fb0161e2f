// Host trace program for a generated model (see ../common/trace.hpp), built by
// `dualrate verify` with -I targets/common.
// Usage: trace STEPS EVERY OUT.csv. Exit 0, 1 on bad arguments, 3 when a step reports a fault.
#include "trace.hpp"

#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s STEPS EVERY OUT.csv\n", argv[0]);
    return 1;
  }
  const long steps = std::atol(argv[1]);
  const long every = std::atol(argv[2]);
  std::FILE* out = std::fopen(argv[3], "w");  // NOLINT(cppcoreguidelines-owning-memory): the host harness's trace file
  if (!out || steps < 0 || every < 1) {
    std::fprintf(stderr, "bad arguments\n");
    return 1;
  }
  const int status =
      dualrate_trace::run(out, steps, every, [](auto& d, const auto& u) { return dualrate_trace::step_once(d, u); });
  return std::fclose(out) == 0 ? status : 1;  // NOLINT(cppcoreguidelines-owning-memory)
}
