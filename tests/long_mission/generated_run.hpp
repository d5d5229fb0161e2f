// The generated float long_mission model (tests/models/runtime/long_mission.yaml, rk4) run for
// many steps, kept apart from the generator's headers (generated_run.cpp is compiled with the
// strict flags of generated code).
#pragma once

#include <cstdint>
#include <vector>

namespace long_mission_test {

struct Samples {
  std::uint64_t first = 0;                  // the step of states[0]
  std::vector<std::vector<double>> states;  // the states at steps first, first + 1, ..., exactly converted
  double step = 0;                          // the generated code's h (kStep), exactly converted
  bool all_ok = true;                       // every step returned Status::kOk
};

// Runs `steps` steps from the initial state and keeps the states of the last `kept` + 1 steps
// (steps - kept ... steps).
Samples run_generated(std::uint64_t steps, std::uint64_t kept);

}  // namespace long_mission_test
