// The emitted form of calibration (docs/calibration.md) for a model with tunable values: the
// Calibration struct a calibration tool writes, the Constants set the step reads, the Model's
// members that read it, and the functions that check new values and recompute the constants
// (recalibrate), run from the background (calibrate) and hand them to the step. cpp_emitter.cpp
// places each part; a model without tunable values emits none of them.
#pragma once

#include <string>
#include <vector>

#include "ir/linear_map.hpp"
#include "model/model.hpp"
#include "model/scalar_type.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// First in the namespace: Calibration, its instance `calibration` in the linker section
// .data.dualrate.calibration.NS, the identification string `epk`, the layout text and Constants.
std::string calibration_declarations(const Model& m, const GenerateRequest& request, const SchemeDesign& design,
                                     const std::string& ns);

// Model's member for a parameter that follows the calibration: a reference into the active set.
std::string calibrated_parameter_member(const Parameter& p);
// Model's member for a tunable table's values, a reference to the active set's array, after a
// comment line; without the line's end (a statement of the table).
std::string calibrated_table_values_member(const Table& t);

// SchemeConstants' Schedule when its matrices follow the calibration: the active set.
std::string calibrated_schedule();

// Before the model instances: status_value_names and recalibrate(values, out).
std::string recalibration_function(const Model& m, const GenerateRequest& request, const SchemeDesign& design);

// Before an instance's struct Model: its `active_constants` and `constants_handoff`, and for a
// dual-rate scheme its tasks' TakeConstants.
std::string instance_constants(const Model& m, const GenerateRequest& request, const SchemeDesign& design,
                               const SchemeInfo& scheme);

// After the model instances: the values last applied, the status, the requests handled and
// calibrate(), which hands each computed set to every instance (request.instances, or the one).
std::string calibrate_function(const Model& m, const GenerateRequest& request, const SchemeInfo& scheme);

// The values a calibration Status names by its index (Status::value): the Calibration's values
// (a table's as NAME[i]), then the derived parameters, then each matrix the design recomputes.
std::vector<std::string> status_value_names(const Model& m, const SchemeDesign& design);

// The step's first statement: takes a set that calibrate() handed over.
std::string take_constants_statement();

// Throws a ModelError when generated code in `scalar` could not follow a calibration of m: no
// value of the scalar lies within a tunable value's limits, or a calibrated parameter is in a
// constant or diagonal mass matrix, whose inverse is folded.
void check_calibratable(const Model& m, ScalarType scalar);

}  // namespace dualrate
