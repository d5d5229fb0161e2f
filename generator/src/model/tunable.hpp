// The calibration side of a model (docs/model-files.md#calibration): which of its values a
// calibration may change on the running target, the box of values it may take, and the model's
// parameters at a point of that box.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

// Whether any parameter or table of m is tunable.
bool has_tunable(const Model& m);

// Where the calibration range starts in the file: the first tunable parameter's range (its
// `min:`), else the first tunable table's; for errors about the range as a whole.
SourceLoc calibration_range_loc(const Model& m);

// The first tunable table that e calls, or null.
const Table* called_tunable_table(const GiNaC::ex& e);

// The parameters whose values follow a calibration: the tunable ones and those derived from
// them (depends_on_tunable), in file order.
std::vector<const Parameter*> calibrated_parameters(const Model& m);

// The values of the parameters that do not follow a calibration, by symbol (substituting them
// leaves an expression in the calibrated parameters' symbols).
GiNaC::exmap fixed_parameter_values(const Model& m);

// One point of the box of tunable parameter values: name -> value.
using TunablePoint = std::map<std::string, double>;

// Every parameter's value at `point` (tunable ones as given there, else at their values; derived
// ones recomputed from their expressions), by symbol. Throws std::runtime_error when a derived
// parameter does not evaluate to a real number there.
GiNaC::exmap parameter_values_at(const Model& m, const TunablePoint& point);

// m with its parameters at `point` (derived ones recomputed); initial values, input signals
// and tables as they were.
Model model_at(const Model& m, const TunablePoint& point);

// Points of the box [min, max] of the tunable parameters at which a design is checked: the
// model's values, then a grid: min, centre and max of each parameter (up to kMaxGridParameters
// tunable parameters), every corner and the centre (up to kMaxCornerParameters), or the two
// ends of each parameter's range with the others at their values (beyond).
constexpr std::size_t kMaxGridParameters = 4;
constexpr std::size_t kMaxCornerParameters = 6;
std::vector<TunablePoint> tunable_box_points(const Model& m);

}  // namespace dualrate
