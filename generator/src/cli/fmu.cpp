// dualrate fmu.
#include <iostream>

#include "cli/commands.hpp"
#include "fmi/fmu_package.hpp"

namespace dualrate::cli {

int FmuCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kGenerate);
  FmuRequest request;
  request.generation = {generate_request(s, o_)};
  request.generation.request.allow_unstable = allow_unstable_;
  request.generation.note = [](const std::string& note) { std::cerr << note; };
  request.fmi_version = fmi_version_;
  request.scheduled = scheduled_;
  request.output = out_file_;
  write_fmu(model, request);
  std::cout << out_file_ << "\n";
  return 0;
}

}  // namespace dualrate::cli
