// dualrate a2l.
#include <filesystem>
#include <iostream>

#include "a2l/a2l_file.hpp"
#include "a2l/calibration_layout.hpp"
#include "a2l/elf.hpp"
#include "base/text_io.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "emit/calibration.hpp"
#include "model/tunable.hpp"
#include "registry/registry.hpp"

namespace dualrate::cli {

int A2lCommand::run(const Model& model) {
  require_tunable(model);
  const std::string name_space = name_space_.empty() ? model.name : name_space_;
  std::string text;
  try {
    const ProgramImage program = read_elf(elf_file_);
    const ProgramLayout layout = locate(model, program, name_space, instances_);
    const Settings s = resolve(model, o_, Use::kGenerate);
    const ScalarType scalar = layout.scalar_bytes == 4 ? ScalarType::kFloat : ScalarType::kDouble;
    require_identity(calibration_identity(model, name_space, s.scheme, s.step, scalar, DUALRATE_VERSION),
                     calibration_layout_text(model, s.step, scalar), layout.epk, layout.layout_text, program.file);
    GenerateRequest g = settings_request(s, scalar);
    g.name_space = name_space_;
    const SchemeDesign design = precompute_scheme(model, g);
    const A2lSources sources{DUALRATE_VERSION, std::filesystem::path(model.file).filename().string(),
                             std::filesystem::path(elf_file_).filename().string(), status_value_names(model, design)};
    text = a2l_file(model, layout, sources);
  } catch (const ProgramError& e) {
    throw UsageError(std::string(e.what()) + "\n  hint: " + e.hint());
  }
  if (out_file_.empty()) {
    std::cout << text;
    return 0;
  }
  write_file(out_file_, text);
  std::cout << out_file_ << "\n";
  return 0;
}

}  // namespace dualrate::cli
