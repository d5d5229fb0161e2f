// dualrate fmu.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "fmi/fmu_package.hpp"

namespace dualrate::cli {

int FmuCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kGenerate);
  if (scheduled_) {
    require_dual_rate(cmd_, "--scheduled", s.scheme);
    if (fmi_version_ != 3) throw UsageError("--scheduled: Scheduled Execution is FMI 3.0's (--fmi-version 3)");
  }
  FmuRequest request;
  request.generation = {generate_request(s, o_), frozen(model, o_)};
  request.generation.request.allow_unstable = allow_unstable_;
  request.fmi_version = fmi_version_;
  request.scheduled = scheduled_;
  request.output = out_file_;
  const FmuResult r = write_fmu(model, request);
  for (const std::string& note : r.notes) std::cerr << note;
  std::cout << out_file_ << "\n";
  return 0;
}

}  // namespace dualrate::cli
