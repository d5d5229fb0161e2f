#include "schemes.hpp"

#include "cpp_emitter.hpp"
#include "smfe.hpp"
#include "sp_ll.hpp"

namespace dualrate {

const std::vector<SchemeInfo>& schemes() {
  static const std::vector<SchemeInfo> all = {
      {"euler", "dualrate::Euler", "dualrate/schemes/euler.hpp", 1, "forward Euler", 1},
      {"rk2", "dualrate::Rk2", "dualrate/schemes/rk2.hpp", 2, "Heun's method (explicit trapezoidal)", 2},
      {"rk4", "dualrate::Rk4", "dualrate/schemes/rk4.hpp", 4, "classical fourth-order Runge-Kutta", 4},
      // Generated code uses precomputed phi-functions, the reference core per-step block
      // exponentials (Eigen's Pade approximant): they agree to rounding of those, bound 1e-10.
      {"sp_ll", "dualrate::SpLl", "dualrate/schemes/sp_ll.hpp", 1,
       "singular-perturbation local linearization, seed 000", 6, true, 1e-10},
      // 2 slow and 5 fast evaluations: counted as 5 full ones for the float tolerance.
      {"prk25", "dualrate::Prk25", "dualrate/schemes/prk.hpp", 2,
       "dual-rate partitioned Runge-Kutta, 2-stage slow and 5-stage fast tableau, seed 003", 5},
      // N + 1 evaluations per macro step, N chosen per model (verify's float tolerance uses N + 1).
      {"smfe", "dualrate::Smfe", "dualrate/schemes/smfe.hpp", 1,
       "stabilized multirate forward Euler, N inner steps of h_s then one of D - N h_s, seed 001", 2, true},
      // Evaluations: per fast step 2 f_e (4 parallel), per macro step 2 f_r (3 parallel).
      {"mrabm4", "dualrate::Mrabm4", "dualrate/schemes/mrabm4.hpp", 2,
       "serial multirate Adams-Bashforth-Moulton 4 as fast and slow tasks, seed 004", 2, false, 1e-12, true, false},
      {"mrabm4_parallel", "dualrate::Mrabm4", "dualrate/schemes/mrabm4.hpp", 2,
       "parallel two-track multirate Adams-Bashforth-Moulton 4 as fast and slow tasks, seed 004", 4, false, 1e-12,
       true, true},
  };
  return all;
}

void precompute_scheme(const Model& model, bool frozen, GenerateOptions& options) {
  if (options.scheme == "sp_ll") sp_ll_precompute(model, frozen, options);
  if (options.scheme == "smfe") smfe_precompute(model, options);
}

const SchemeInfo* find_scheme(const std::string& name) {
  for (const auto& s : schemes())
    if (name == s.name) return &s;
  return nullptr;
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& s : schemes()) names.emplace_back(s.name);
  return names;
}

}  // namespace dualrate
