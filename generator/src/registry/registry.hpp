// The integration schemes the generator knows, by name: one registry (registry.cpp) of the
// SchemeInfo each scheme's folder returns (schemes/NAME/), in the order the CLI lists them.
// The layers above find a scheme here and call its hooks (contract.hpp).
#pragma once

#include <string>
#include <vector>

#include "schemes/contract.hpp"

namespace dualrate {

// Every scheme: those generated code exists for, then those only the reference core runs.
const std::vector<SchemeInfo>& all_schemes();
// The schemes generated code exists for (SchemeTraits::generated), and their names.
std::vector<const SchemeInfo*> schemes();
std::vector<std::string> scheme_names();
// The names of the generated schemes that have `trait` (&SchemeTraits::dual_rate,
// ::schedulable, ::held_inputs), in registry order.
std::vector<std::string> scheme_names_with(bool SchemeTraits::*trait);
// A model whose inputs have holds suits only a scheme that takes them: otherwise a ModelError at
// the first held input's name (precompute_scheme and the reference core's runs check it).
void check_input_holds(const Model& model, const SchemeInfo& scheme);
// The generated scheme named `name`, or null.
const SchemeInfo* find_scheme(const std::string& name);
// Any scheme named `name`, generated or reference-only, or null.
const SchemeInfo* find_any_scheme(const std::string& name);

// The scheme's design for the request (SchemeHooks::precompute): the constants and functions of
// the schemes that run on generator-chosen data (sp_ll: matrices; smfe: h_s and N;
// quasistatic: the reduced form and its Newton design); for the others, none but the request's
// options. Throws ModelError when the model does not suit the scheme (check_input_holds too).
SchemeDesign precompute_scheme(const Model& model, const GenerateRequest& request);
// Loss of tunability is an error (generate, verify): throws a ModelError at the range of the
// first tunable parameter whose end changes a design's constants that generated code does not
// recompute on the target, or with a tunable table that an equation calls (unless the design
// checked its constants itself: SchemeDesign::calibration_checked).
void refuse_lost_tunability(const Model& model, const GenerateRequest& request, const SchemeDesign& design);

// One step of request.scheme (a generated scheme; dual-rate: one macro step) with its design
// (precompute_scheme), as each scheme counts itself (SchemeHooks::cost).
StepCost step_cost(const Model& model, const GenerateRequest& request, const SchemeDesign& design);

// The model file's simulation.scheme, checked against the registry: a ModelError at its place
// naming the nearest known scheme when there is none of that name, or when it does not take the
// model's held inputs (check_input_holds); at a scheme option of the file's that the scheme does
// not declare (SchemeTraits::options).
void check_model_scheme(const Model& model);

// The option values a run of `scheme` on `model` takes: the file's (simulation: scheme_options:)
// that `scheme` declares, then those of `given` (the command line's), which override them. Those
// the file gives for its own scheme stay behind when another scheme runs; one given that
// `scheme` does not declare is a std::invalid_argument naming the schemes that do.
SchemeOptions scheme_options_for(const Model& model, const SchemeInfo& scheme, const SchemeOptions& given = {});

}  // namespace dualrate
