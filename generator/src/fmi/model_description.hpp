// The XML files of an FMU (docs/fmi.md): modelDescription.xml for FMI 3.0 or 2.0 (Co-Simulation
// and Model Exchange, the variables of fmu_variables.hpp) and FMI 3.0's
// sources/buildDescription.xml.
#pragma once

#include <string>
#include <vector>

#include "fmi/fmu_variables.hpp"
#include "model/model.hpp"

namespace dualrate {

struct FmuDescription {
  int fmi_version = 3;  // 3 or 2
  std::string model_identifier;
  std::string token;  // instantiationToken (3.0) or guid (2.0)
  std::string generator_version;
  std::string description;   // the model and the scheme
  double step = 0;           // the default communication step: h, or H for the dual-rate task forms
  double internal_step = 0;  // h
  bool model_exchange = true;
  bool scheduled = false;  // FMI 3.0's Scheduled Execution alone (the dual-rate tasks' clocks)
  std::vector<FmuVariable> variables;
};

std::string model_description_xml(const Model& model, const FmuDescription& d);

// The sources an importer compiles (relative to sources/), the include directories and the
// defines, as FMI 3.0's buildDescription.xml lists them.
struct FmuSources {
  std::vector<std::string> files;
  std::vector<std::string> include_directories;
  std::vector<std::pair<std::string, std::string>> defines;
};
std::string build_description_xml(const FmuDescription& d, const FmuSources& sources);

}  // namespace dualrate
