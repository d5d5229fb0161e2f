// Model files of a chain of n masses with a fast first-order force actuator on each, for
// tests and benchmarks that need the same model at many sizes (models/actuated_chain.yaml is
// the one with n = 10, written by this function).
//
// Mass i (position x_i, velocity v_i, mass m) is tied to its neighbours (mass 0 to a wall)
// by springs k and dampers c; actuator i pushes it with force F_i, which follows a PD law on
// the mass's own position error with time constant tau:
//   x_i' = v_i
//   v_i' = (k (x_{i-1} - 2 x_i + x_{i+1}) + c (v_{i-1} - 2 v_i + v_{i+1}) + F_i) / m
//   F_i' = (kp (r - x_i) - kd v_i - F_i) / tau
// (x_0 = v_0 = 0 at the wall; the last mass has one neighbour). Slow: x, v; fast: F, whose
// block g_z = -I/tau is diagonal and g_x couples each actuator to its own mass only.
#pragma once

#include <string>

namespace dualrate_test {

inline std::string actuated_chain_yaml(int masses) {
  const auto n = [](const char* base, int i) { return std::string(base) + std::to_string(i); };
  std::string y = "name: actuated_chain" + std::to_string(masses) + "\n";
  y += "description: |\n";
  y += "  A chain of " + std::to_string(masses) +
       " masses (m = 1 kg) tied by springs (k = 100 N/m) and dampers (c = 0.5 N s/m),\n"
       "  the first to a wall, each pushed by a first-order force actuator (tau = 1 ms) with a PD\n"
       "  law (kp = 50 N/m, kd = 5 N s/m) on its own mass's position error to the set point r.\n"
       "  Slow states: positions x_i and velocities v_i; fast: actuator forces F_i, g_z = -I/tau.\n"
       "  Scenario: r rises from 0 to 0.1 m along a 20 ms raised-cosine ramp from t = 0.05 s.\n"
       "  Written by tests/models/actuated_chain.hpp.\n";
  y += "parameters:\n  m: 1\n  k: 100\n  c: 0.5\n  kp: 50\n  kd: 5\n  tau: 1.0e-3\n  r_step: 0.1\n  t_step: 0.05\n  "
       "ramp: 0.02\n";
  y += "inputs:\n  r: 0\nstates:\n  slow:\n";
  for (int i = 1; i <= masses; ++i) y += "    " + n("x", i) + ": 0\n    " + n("v", i) + ": 0\n";
  y += "  fast:\n";
  for (int i = 1; i <= masses; ++i) y += "    " + n("F", i) + ": 0\n";
  y += "equations:\n";
  for (int i = 1; i <= masses; ++i) {
    const std::string left = i > 1 ? n("x", i - 1) + " - " : "-", left_v = i > 1 ? n("v", i - 1) + " - " : "-";
    const bool last = i == masses;
    const std::string spring = last ? left + n("x", i) : left + n("x", i) + " + " + n("x", i + 1) + " - " + n("x", i);
    const std::string damper =
        last ? left_v + n("v", i) : left_v + n("v", i) + " + " + n("v", i + 1) + " - " + n("v", i);
    y += "  " + n("x", i) + ": " + n("v", i) + "\n";
    y += "  " + n("v", i) + ": (k*(" + spring + ") + c*(" + damper + ") + " + n("F", i) + ")/m\n";
  }
  for (int i = 1; i <= masses; ++i)
    y += "  " + n("F", i) + ": (kp*(r - " + n("x", i) + ") - kd*" + n("v", i) + " - " + n("F", i) + ")/tau\n";
  y += "outputs:\n  tip: " + n("x", masses) + "\n";
  y += "simulation:\n  t_end: 1\n  scheme: sp_ll\n  step: 1.0e-3\n  inputs:\n    r: r_step*(1 - cos(pi*min(max((t - "
       "t_step)/ramp, 0), 1)))/2\n";
  return y;
}

}  // namespace dualrate_test
