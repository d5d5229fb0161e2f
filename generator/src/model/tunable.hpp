// The calibration side of a model (docs/model-files.md#calibration): which of its values a
// calibration may change on the running target, the box of values it may take, and the model's
// parameters at a point of that box.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/scalar_type.hpp"

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

// The calibration layout in words, as generated code states it (NS::calibration_layout) for the
// A2L tool to compare: "SCALAR h=STEP;NAME[MIN,MAX];TABLE[SIZE][MIN,MAX];..." with each tunable
// value in the Calibration's order, its limits as checked in the scalar (scalar_limits) and the
// numbers as hexadecimal floats.
std::string calibration_layout_text(const Model& m, double step, ScalarType scalar);

// What differs between a program's layout text and the model's, one phrase each ("Kt's limits
// are [0.03, 0.09] in the program, [0.03, 0.08] in the model", "R is value 0 in the program, 1
// in the model"); empty when they are the same. A text that does not parse is one difference.
std::vector<std::string> layout_differences(const std::string& program, const std::string& model);

// The identification of a calibration layout that generated code carries as its EPK and the A2L
// file states: "NS SCHEME SCALAR dualrate VERSION HASH", HASH (8 hex digits) a 32-bit FNV-1a of
// calibration_layout_text. A program whose values were re-ordered, re-sized or re-limited, or
// whose step or scalar changed, carries another.
struct CalibrationIdentity {
  std::string name_space, scheme, scalar, version, hash;
  std::string text() const;
};
CalibrationIdentity calibration_identity(const Model& m, const std::string& name_space, const std::string& scheme,
                                         double step, ScalarType scalar, const std::string& version);
// The fields of an EPK text of that form, or nullopt.
std::optional<CalibrationIdentity> parse_calibration_identity(const std::string& text);

// Throws a ModelError at a derived parameter's expression when its value at `point` is not
// finite in `scalar` (a pole, a value beyond the scalar's range, not a real number), naming the
// point: generated code refuses such a calibration (recalibrate's kRecomputedNotFinite).
void require_finite_derived_at(const Model& m, const TunablePoint& point, ScalarType scalar);
// The same at every point of tunable_box_points(m).
void require_finite_derived(const Model& m, ScalarType scalar);

}  // namespace dualrate
