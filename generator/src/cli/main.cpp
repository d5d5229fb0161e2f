// dualrate command-line interface: the subcommands (commands.hpp) on one CLI11 application.
#include <CLI/CLI.hpp>

#include <iostream>
#include <vector>

#include "base/data_paths.hpp"
#include "cli/commands.hpp"
#include "model/functions.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"

namespace {

using namespace dualrate;
using namespace dualrate::cli;

int run(int argc, char** argv) {
  CLI::App app{"dualrate: code generator and runtime for two-time-scale dynamic systems"};
  app.set_version_flag(
      "--version", [] { return "dualrate " DUALRATE_VERSION "\n" + describe(data_paths()); },
      "Print the version and where this dualrate finds the runtime, target support and portable math, and exit");
  app.require_subcommand(1);
  GenerateCommand generate(app);
  AnalyzeCommand analyze(app);
  SimulateCommand simulate(app);
  VerifyCommand verify(app);
  DesignCommand design(app);
  VerifySystemCommand verify_system(app);
  CampaignCommand campaign(app);
  A2lCommand a2l(app);
  FmuCommand fmu(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const CLI::App& cmd = parsed.empty() ? app : *parsed.back();
    std::cerr << "error: " << e.what() << unknown_option_hints(cmd, e.what()) << "\n";
    return 1;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 1;
  }

  init_symbolic();
  if (verify_system.parsed()) return verify_system.run();
  if (campaign.parsed()) return campaign.run();
  for (ModelCommand* command : std::vector<ModelCommand*>{&generate, &analyze, &simulate, &verify, &design, &a2l, &fmu})
    if (command->parsed()) {
      const Overrides& o = command->overrides();
      Model model = load_model_file(o.model_path, parameter_overrides(o.params));
      check_model_scheme(model);  // the file's own scheme and schedule; resolve() checks what the command line asks
      apply_linearization(model, o);
      return command->run(model);
    }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ModelError& e) {
    std::cerr << e.format() << "\n";
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const SimulationError& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
