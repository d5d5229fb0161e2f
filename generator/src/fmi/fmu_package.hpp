// `dualrate fmu`: a model's FMU (docs/fmi.md), laid out as the FMI standard says:
// modelDescription.xml; binaries/<platform>/<id>.so, built from sources/ with the host's
// compiler; sources/ (the generated header, the runtime, Eigen's headers, the FMI wrapper and
// its glue, and for FMI 3.0 buildDescription.xml); documentation/index.html.
#pragma once

#include <string>
#include <vector>

#include "emit/generation.hpp"
#include "model/model.hpp"

namespace dualrate {

struct FmuRequest {
  GenerationRequest generation;  // its instances are the FMU's (fmu_glue.hpp); its notes as it goes
  int fmi_version = 3;           // 3 or 2
  // FMI 3.0's Scheduled Execution alone: the dual-rate tasks as two clocked model partitions.
  bool scheduled = false;
  std::string output;  // the .fmu file
};

struct FmuResult {
  std::string model_identifier;
  std::string token;
};

// Generates, builds and packs the FMU; throws ModelError (the model refused as generate refuses
// it), std::invalid_argument (Scheduled Execution asked of FMI 2.0 or of a single-rate scheme)
// or std::runtime_error (the build or the zip failed), and then writes nothing at `output`.
FmuResult write_fmu(const Model& model, const FmuRequest& request);

// The FMU's platform folder under binaries/ on this machine for an FMI version.
std::string fmu_platform(int fmi_version);

}  // namespace dualrate
