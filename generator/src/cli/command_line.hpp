// What the subcommands of the dualrate CLI share: the options every model command takes,
// the settings they resolve against the model file's simulation section, and the hints for
// a mistyped option. Internal to cli/.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "reference/reference_model.hpp"
#include "schemes/contract.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace dualrate::cli {

// A command-line mistake (exit status 1).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Settings given on the command line; each overrides the model file's simulation section.
struct Overrides {
  std::string model_path;
  std::optional<std::string> scheme;
  std::optional<double> step;
  std::optional<double> t_end;
  std::optional<int> ratio;
  int every = 1;
  std::string scalar;  // empty: double, or the target's default for verify --target
  std::optional<std::string> linearization;
  std::vector<std::string> schedule_by;  // --schedule-by: the scheduling values, replacing the file's
  SchemeOptions scheme_options;          // the schemes' own options given (SchemeTraits::options)
  std::vector<std::string> params;       // NAME=VALUE, replacing the file's parameter values
  std::string overrun = "skip";          // dual-rate tasks: skip or defer a release that finds the slow task busy
};

// --tolerance and --absolute-tolerance NAME=VALUE (repeatable), as given.
struct ToleranceOptions {
  std::optional<double> relative;
  std::vector<std::string> absolute;
};

struct Settings {
  std::string scheme;
  double step = 0;
  double t_end = 0;
  int ratio = 1;
  SchemeOptions scheme_options;  // the file's for the scheme, overridden by the command line's (scheme_options_for)
};

// What a command does with the scheme: generate code, run it in the reference core
// (simulate), or analyze it (the generated schemes and the analysable reference-only ones).
enum class Use { kGenerate, kReferenceCore, kAnalysis };

// The settings of a command on `m`: each option overrides the file's simulation section.
// Throws UsageError for an unknown scheme (for this use) or a bad setting, ModelError for a
// dual-rate scheme on a model without both slow and fast states.
Settings resolve(const Model& m, const Overrides& o, Use use);
// The request of the settings in `scalar`: the scheme, its step, ratio and options, and the
// scenario's end s.t_end.
GenerateRequest settings_request(const Settings& s, ScalarType scalar);
// The request that generate, verify and fmu make of the settings and of the options they share
// (scalar, overrun policy).
GenerateRequest generate_request(const Settings& s, const Overrides& o);

// The model file and the options of every model command (scheme, step, ratio, linearization,
// inner step, parameters).
void add_common(CLI::App* cmd, Overrides& o);
// --overrun: the dual-rate tasks' policy for a late slow job.
void add_overrun(CLI::App* cmd, Overrides& o);
// --t-end, and --every described as `every_what` (what one in k steps is for).
void add_run_length(CLI::App* cmd, Overrides& o, const std::string& every_what);

// --tolerance (described by `relative_help`) and --absolute-tolerance.
void add_tolerance(CLI::App* cmd, ToleranceOptions& o, const std::string& relative_help);
// The tolerance given on the command line, for model m (trace_comparison.hpp merged puts it over
// the model's simulation: tolerance: and absolute_tolerance:). Throws UsageError for a name that
// is neither a state nor an output of m, a value that is not a positive number, or a name given
// twice.
ErrorTolerance given_tolerance(const Model& m, const ToleranceOptions& o);

// --param NAME=VALUE, each a finite number for a name given once.
std::vector<ParameterOverride> parameter_overrides(const std::vector<std::string>& given);
// The model with --linearization and --schedule-by applied to its simulation section; a
// scheduled linearization without scheduling values is an error.
void apply_linearization(Model& m, const Overrides& o);
// Options of the dual-rate tasks, refused for a single-rate scheme.
void require_dual_rate(const CLI::App* cmd, const std::string& option, const std::string& scheme);
// Prints a warning on stderr when --cpu-hz `cpu_hz` is above what target `target`'s typical part
// reaches (verify/budget.hpp's clock_warning); nothing for the host, an unknown target or no --cpu-hz.
void warn_about_clock(const std::string& target, double cpu_hz);

// For each unknown option in CLI11's message ("... not expected: --t-ned --x"), the option of
// `cmd` nearest to it, when one is within a third of its length; then where to find them all.
std::string unknown_option_hints(const CLI::App& cmd, const std::string& message);

}  // namespace dualrate::cli
