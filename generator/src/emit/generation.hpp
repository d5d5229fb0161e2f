// The generation pipeline: what `generate`, `fmu` and `verify` run to turn a model and a
// request into a header (the scheme's stability at the step over the calibration range and
// along the scenario, the scheme's precomputed design, the refusal of a design that would lose
// a tunable value, the emitted header). The commands print its notes; none of them rebuilds it.
#pragma once

#include <functional>
#include <string>

#include "emit/cpp_emitter.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

struct GenerationRequest {
  GenerateRequest request;
  // Whether an unstable scheme is refused (generate, fmu), or generated for measuring (verify,
  // and generate --allow-unstable: request.allow_unstable).
  bool judged = true;
  // Ends the hint of an unstable step's refusal: how the command generates it anyway.
  std::string unstable_hint = "; --allow-unstable generates it anyway";
  // Where the generation's notes go as it makes them (each as the CLI prints it, "note: ..." or
  // "warning: ...", a warning being what the user should act on, ending in a newline), so that
  // those before a refusal are not lost; none: dropped.
  std::function<void(const std::string&)> note{};
};

struct Generation {
  SchemeDesign design;
  TracedHeader header;
};

// Runs the pipeline; throws ModelError (a positioned refusal: an unstable step, a lost tunable
// value, a design the scheme cannot make) or SchemeDesignError, and writes nothing.
Generation generate_code(const Model& model, const GenerationRequest& request);

}  // namespace dualrate
