// dualrate verify-system.
#include <iostream>

#include "cli/commands.hpp"
#include "verify/system.hpp"

namespace dualrate::cli {

VerifySystemCommand::VerifySystemCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "verify-system", "Run several models' dual-rate tasks on one Cortex-M core, rate-monotonic, and check each "
                       "against its own sequential run (a system file lists them)");
  cmd_->add_option("system", system_file_, "System file (YAML)")->required();
  cmd_->add_option("--target", target_, "cortex-m3, cortex-m4f or cortex-m7 (qemu-system-arm)")->capture_default_str();
  cmd_->add_option("--cpu-hz", cpu_hz_, "Clock of the part the budget is for (default: the target's)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--cpi", cpi_, "Cycles per instruction assumed on that part (default: the target's)")
      ->check(CLI::PositiveNumber);
  cmd_->add_flag("--json", json_, "Print the result as one JSON object");
  cmd_->add_option("--keep", keep_dir_,
                   "Keep the headers, programs and traces in DIR (default: a temporary directory, removed)");
}

int VerifySystemCommand::run() {
  const SystemSpec spec = load_system_file(system_file_);
  SystemOptions so;
  so.target = target_;
  so.cpu_hz = cpu_hz_;
  so.cpi = cpi_;
  so.keep_dir = keep_dir_;
  so.generator_version = DUALRATE_VERSION;
  const SystemResult r = verify_system(spec, so);
  std::cout << (json_ ? r.json() + "\n" : r.text());
  if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
  return r.pass ? 0 : 2;
}

}  // namespace dualrate::cli
