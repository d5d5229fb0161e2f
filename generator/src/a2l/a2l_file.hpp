// The ASAM MCD-2 MC (ASAP2) 1.71 description of a model's program, as a calibration tool reads it:
// a CHARACTERISTIC per tunable parameter (VALUE) and tunable table (CURVE, MAP with fixed axes, or
// VAL_BLK beyond two axes), the requests that commit a set of writes and reset them
// (CHARACTERISTICs calibration_requests.*), a MEASUREMENT per state, input and output, per
// active value (active.NAME), per request handled and for the calibration status (in words:
// COMPU_VTABs), their COMPU_METHODs (one per unit) and RECORD_LAYOUTs, the byte order, the EPK
// and the calibration values' MEMORY_SEGMENT.
#pragma once

#include <string>
#include <vector>

#include "a2l/calibration_layout.hpp"
#include "model/model.hpp"

namespace dualrate {

struct A2lSources {
  std::string generator_version;                // "0.1.0"
  std::string model_file, program_file;         // as the file's comment names them (no directories)
  std::vector<std::string> status_value_names;  // the generated header's (emit's status_value_names)
};

// The A2L file of `m` for the program whose objects `layout` locates.
std::string a2l_file(const Model& m, const ProgramLayout& layout, const A2lSources& sources);

// `text` as an A2L string literal: quoted, with \ and " escaped and control characters as \n, \t, \r.
std::string a2l_string(const std::string& text);

}  // namespace dualrate
