// libFuzzer harness: load -> analyse -> precompute -> emit, as `dualrate generate
// --allow-unstable` runs it with the model's own scheme, step and ratio. A model the loader
// accepts is analysed and emitted, or refused with a ModelError (a scheme that does not fit
// it); anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/stability.hpp"
#include "emit/cpp_emitter.hpp"
#include "model/model.hpp"
#include "registry/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dualrate::Model model =
        dualrate::load_model_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    const dualrate::Simulation& s = model.simulation;
    const dualrate::SchemeInfo* scheme = dualrate::find_scheme(s.scheme);
    if (!scheme || !s.step) return 0;
    if (scheme->traits.dual_rate && (model.slow_count == 0 || model.fast_count() == 0)) return 0;
    dualrate::analyze_stability(model, s.scheme, *s.step, s.ratio, {}, dualrate::StepSearch::kNever);
    dualrate::GenerateRequest options{s.scheme, *s.step, s.ratio, dualrate::ScalarType::kDouble, "fuzz"};
    dualrate::generate_header(model, options, dualrate::precompute_scheme(model, options));
  } catch (const dualrate::ModelError&) {
  }
  return 0;
}
