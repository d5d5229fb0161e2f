// dualrate verify-system.
#include <iostream>

#include "cli/commands.hpp"
#include "verify/system.hpp"

namespace dualrate::cli {

int VerifySystemCommand::run() {
  const SystemSpec spec = load_system_file(system_file_);
  warn_about_clock(target_, cpu_hz_);
  SystemOptions so;
  so.target = target_;
  so.cpu_hz = cpu_hz_;
  so.cpi = cpi_;
  so.keep_dir = keep_dir_;
  so.generator_version = DUALRATE_VERSION;
  const SystemResult r = verify_system(spec, so);
  std::cout << (json_ ? r.json() + "\n" : r.text());
  if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
  if (r.pass && !r.pass_all())
    std::cerr << "error: the code is the scheme and the tasks keep their deadlines, but a model's answer is not within "
                 "its tolerance (see its accuracy line)\n";
  return r.pass_all() ? 0 : 2;
}

}  // namespace dualrate::cli
