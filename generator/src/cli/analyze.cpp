// dualrate analyze.
#include <iostream>

#include "analysis/stability.hpp"
#include "cli/commands.hpp"

namespace dualrate::cli {

int AnalyzeCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kAnalysis);
  const StabilityReport r = analyze_stability(model, s.scheme, s.step, s.ratio, o_.inner_step);
  std::cout << (json_ ? r.json() + "\n" : r.text());
  return 0;
}

}  // namespace dualrate::cli
