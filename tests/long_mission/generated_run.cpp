#include "generated_run.hpp"

#include <long_mission.hpp>

namespace long_mission_test {

Samples run_generated(std::uint64_t steps, std::uint64_t kept) {
  Samples s;
  s.first = steps - kept;
  s.step = static_cast<double>(long_mission::kStep);
  long_mission::Data d;
  const long_mission::Model::Input u = long_mission::Model::default_inputs();
  const auto keep = [&s](const long_mission::Model::State& x) {
    std::vector<double> v;
    for (int i = 0; i < long_mission::Model::kStates; ++i) v.push_back(static_cast<double>(x[i]));
    s.states.push_back(v);
  };
  for (std::uint64_t n = 0; n < steps; ++n) {
    if (n >= s.first) keep(d.x);
    if (long_mission::step(d, u) != dualrate::Status::kOk) s.all_ok = false;
  }
  keep(d.x);
  return s;
}

}  // namespace long_mission_test
