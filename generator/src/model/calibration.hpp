// Calibration writes in a scenario (docs/model-files.md#calibration): a list of writes, each
// setting tunable parameters and tables to new values from a time on, read from a calibration
// file (`--calibration FILE`) or the model's `simulation: calibration:`; and the rules that
// decide at which step a write applies and whether it is applied. The reference core
// (reference_core/reference_core.hpp) and the generated code's harness both follow these functions, so
// that both apply the same writes at the same steps and refuse the same ones.
//
// Contract:
//  - A write applies from the first step that starts at or after its time `at`
//    (first_step_at); a dual-rate run applies it from the first macro step that does.
//  - Writes are taken in file order; several applying at the same step are applied one after
//    the other, each checked against the values the ones before left.
//  - A write is applied whole or not at all: when any of its values is not finite or lies
//    outside its parameter's or table's [min, max], or a parameter derived from them is not
//    finite at the values it leaves, nothing of it changes (check_write). A float build's
//    writes are taken as the floats nearest their values (verify's run options): a float lies
//    within [min, max] exactly when it lies within the limits rounded inward to float, which
//    the generated code checks (model/scalar_type.hpp). A derived parameter is judged finite
//    in double here; the generated code judges it in its scalar.
//  - A write changes the tunable values; parameters derived from them follow (calibrated_model);
//    initial values do not (they are used at t = 0 only).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/diagnostics.hpp"
#include "model/model.hpp"

namespace dualrate {

// CalibrationValue and CalibrationWrite (the writes' IR) are in model/model.hpp.

// The calibration file at `path`: a YAML list of writes for model `m` (its tunable parameters
// and tables). Throws ModelError positioned in that file: a name that is unknown (with the
// nearest name) or not tunable, a table list of the wrong length, a value that is not a
// number, `at` missing, negative or not a number, times that decrease, an unknown key (with
// the nearest key), an entry that is not a mapping, `set` empty or not a mapping, a name set
// twice in one write. Values outside the limits, and .inf or .nan, are read: such a write is
// refused when it would apply (check_write).
std::vector<CalibrationWrite> load_calibration_file(const Model& m, const std::string& path);
// The same for `text`, read as the file `file`.
std::vector<CalibrationWrite> load_calibration_text(const Model& m, const std::string& text, const std::string& file);

// The tunable values in effect, by parameter or table name: one value per tunable parameter,
// Table::values for a tunable table.
using CalibrationValues = std::map<std::string, std::vector<double>>;

// The model's own tunable values (what a run starts from).
CalibrationValues initial_calibration(const Model& m);

// The smallest step index n with n h >= at, a time within one part in 1e9 of a step counting
// as on it (the convention of step_count, reference/reference_model.hpp): n = ceil(at/h - 1e-9),
// and 0 for at <= 0. With stride > 1 (a dual-rate run's macro step of `stride` steps h), the
// smallest multiple of stride at or after it.
long first_step_at(double at, double h, int stride = 1);

// Whether `write` may be applied to the values `current`: `applied`, and `values` the values
// after it; or refused, `values` equal to `current`, and `reason` naming the first value that
// is refused, as in "R = 3 is above its max 2", "friction[2] = -1 is below its min 0" or
// "R = nan is not finite" (values in file order, a table's from index 0), or "derived parameter
// gain is not finite at these values".
struct WriteCheck {
  bool applied = false;
  std::string reason;
  CalibrationValues values;
};
WriteCheck check_write(const Model& m, const CalibrationValues& current, const CalibrationWrite& write);

// What happens to each write of a run with step h (and macro steps of `stride` steps): the
// step it applies at (first_step_at) and the check at the values the writes before it left.
// In file order, one per write.
struct CalibrationEvent {
  std::size_t write = 0;  // index into the writes
  long step = 0;
  WriteCheck check;
};
std::vector<CalibrationEvent> calibration_events(const Model& m, const std::vector<CalibrationWrite>& writes, double h,
                                                 int stride = 1);

// "at 0.25 (step 25000): R = 1.6 applied" or "... refused: R = 3 is above its max 2".
std::string describe(const CalibrationWrite& write, const CalibrationEvent& event);

// The models a run with step h (and macro steps of `stride` steps) steps through: from each
// step at which a write is applied (calibration_events) on, the model at the values the writes
// applied by then leave (calibrated_model), in step order. Before the first, the run's model.
struct CalibrationSegment {
  long from = 0;
  std::shared_ptr<const Model> model;
};
std::vector<CalibrationSegment> calibration_segments(const Model& m, const std::vector<CalibrationWrite>& writes,
                                                     double h, int stride = 1);

// `m` at the tunable values `values` (names as initial_calibration's): its tunable parameters'
// values replaced, every parameter derived from them (depends_on_tunable) evaluated again from
// its expression, its tunable tables replaced by tables holding the new values (the model's
// expressions calling the new ones). Initial values, input defaults and everything else stay.
Model calibrated_model(const Model& m, const CalibrationValues& values);

}  // namespace dualrate
