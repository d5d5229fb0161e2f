#include "schemes/registry.hpp"

#include "emit/cpp_emitter.hpp"
#include "schemes/prk25/prk25.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "schemes/smfe/smfe.hpp"
#include "schemes/sp_ll/sp_ll.hpp"

namespace dualrate {

namespace {

// A textbook explicit Runge-Kutta method on the whole state.
SchemeInfo runge_kutta(const char* name, const char* runtime_class, const char* header, int order,
                       const char* summary) {
  SchemeInfo s{name, runtime_class, header, order, summary, order};
  s.uniform = true;
  return s;
}

}  // namespace

const std::vector<SchemeInfo>& schemes() {
  static const std::vector<SchemeInfo> all = {
      runge_kutta("euler", "dualrate::Euler", "dualrate/schemes/euler.hpp", 1, "forward Euler"),
      runge_kutta("rk2", "dualrate::Rk2", "dualrate/schemes/rk2.hpp", 2, "Heun's method (explicit trapezoidal)"),
      runge_kutta("rk4", "dualrate::Rk4", "dualrate/schemes/rk4.hpp", 4, "classical fourth-order Runge-Kutta"),
      sp_ll_scheme(),
      prk25_scheme(),
      smfe_scheme(),
      quasistatic_scheme(),
      quasistatic_outer_scheme(),
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
  const SchemeInfo* info = find_scheme(options.scheme);
  if (info && info->precompute) info->precompute(model, frozen, options);
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
