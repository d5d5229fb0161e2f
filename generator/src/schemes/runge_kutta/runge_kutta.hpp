// The textbook explicit Runge-Kutta schemes on the whole state, as single-rate references
// beside the seed schemes: forward Euler (euler), Heun's method (rk2) and the classical
// fourth-order method (rk4). The runtime implements them in dualrate/schemes/{euler,rk2,rk4}.hpp;
// the reference core steps them with numeric/ode.hpp's plain transcriptions.
#pragma once

#include <vector>

#include "schemes/contract.hpp"

namespace dualrate {

// Their registry entries, in the order the CLI lists them.
std::vector<SchemeInfo> runge_kutta_schemes();

}  // namespace dualrate
