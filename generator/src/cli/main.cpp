// dualrate command-line interface.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "analysis/stability.hpp"
#include "emit/cpp_emitter.hpp"
#include "base/data_paths.hpp"
#include "model/functions.hpp"
#include "base/mat_file.hpp"
#include "model/model.hpp"
#include "base/process.hpp"
#include "schemes/reference_core.hpp"
#include "verify/report.hpp"
#include "schemes/registry.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "targets/cross_target.hpp"
#include "verify/system.hpp"
#include "verify/verify.hpp"

namespace {

using namespace dualrate;

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
  double inner_step = 0;  // smfe: h_s (0: chosen by the generator)
  std::vector<std::string> params;  // NAME=VALUE, replacing the file's parameter values
  std::string overrun = "skip";     // dual-rate tasks: skip or defer a release that finds the slow task busy
};

struct Settings {
  std::string scheme;
  double step = 0;
  double t_end = 0;
  int ratio = 1;
};

// Schemes only the reference core runs (simulate): the high-accuracy solution, and seed
// 004's single-rate ABM4 and its multirate schemes as the paper states them (the tracks
// meeting inside each macro step; generated code has their dual-rate task forms).
const std::vector<std::string> kReferenceOnlySchemes = {"abm4", "mrabm4_sync", "mrabm4_parallel_sync", "reference"};

// What a command does with the scheme: generate code, run it in the reference core
// (simulate), or analyze it (the generated schemes and the single-rate abm4).
enum class Use { kGenerate, kReferenceCore, kAnalysis };

Settings resolve(const Model& m, const Overrides& o, Use use) {
  Settings s;
  s.scheme = o.scheme.value_or(m.simulation.scheme);
  const bool reference_only = std::find(kReferenceOnlySchemes.begin(), kReferenceOnlySchemes.end(), s.scheme) !=
                              kReferenceOnlySchemes.end();
  const bool reference_core = use == Use::kReferenceCore;
  const bool analysis = use == Use::kAnalysis;
  if (!find_scheme(s.scheme) && !(reference_core && reference_only) && !(analysis && s.scheme == "abm4")) {
    std::string known;
    for (const auto& n : scheme_names()) known += " " + n;
    if (reference_core)
      for (const auto& n : kReferenceOnlySchemes) known += " " + n;
    if (analysis) known += " abm4";
    throw UsageError(fmt::format("unknown scheme '{}' (known:{}){}", s.scheme, known,
                                 reference_only ? "; only `simulate` runs it, with the reference core" +
                                                      std::string(s.scheme == "abm4" ? ", and `analyze`" : "")
                                                : ""));
  }
  const SchemeInfo* info = find_scheme(s.scheme);
  if (info && info->dual_rate && (m.slow_count == 0 || m.fast_count() == 0))
    throw ModelError(m.states.empty() ? SourceLoc{m.file, 1, 1} : m.states.front().loc,
                     fmt::format("{} needs both slow and fast states ({} slow, {} fast): its fast task steps the "
                                 "fast states, its slow task the slow ones",
                                 s.scheme, m.slow_count, m.fast_count()),
                     "list the fast states under states: fast:, or use a single-rate scheme such as rk4");
  if (!o.step && !m.simulation.step)
    throw UsageError("no step size: give --step or set simulation: step: in " + m.file);
  s.step = o.step ? *o.step : *m.simulation.step;
  s.t_end = o.t_end.value_or(m.simulation.t_end);
  s.ratio = o.ratio.value_or(m.simulation.ratio);
  if (!(s.step > 0) || !std::isfinite(s.step)) throw UsageError("--step must be positive");
  if (!(s.t_end > 0) || !std::isfinite(s.t_end)) throw UsageError("--t-end must be positive");
  if (s.ratio < 1) throw UsageError("--ratio must be a positive integer");
  if (o.every < 1) throw UsageError("--every must be at least 1");
  if (step_count(s.t_end, s.step) > 100000000) throw UsageError("t_end/step exceeds 1e8 steps");
  return s;
}

void add_common(CLI::App* cmd, Overrides& o) {
  cmd->add_option("model", o.model_path, "Model file (YAML)")->required();
  cmd->add_option("--scheme", o.scheme, "Integration scheme (default: the model's simulation.scheme)");
  cmd->add_option("--step", o.step, "Base (fast) step h in seconds (default: simulation.step)");
  cmd->add_option("--ratio", o.ratio, "Slow step H = ratio*h, for dual-rate schemes (default: simulation.ratio)");
  cmd->add_option("--linearization", o.linearization,
                  "sp_ll: 'exact' requires constant f_z, g_x, g_z; 'frozen' takes them at the initial state (default: "
                  "simulation.linearization, else exact)")
      ->check(CLI::IsMember({"exact", "frozen"}));
  cmd->add_option("--inner-step", o.inner_step,
                  "smfe: the inner step h_s (default: from the fastest fast eigenvalue, dead-beat when it is real)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--param", o.params,
                  "NAME=VALUE: replaces the value of parameter NAME (repeatable); parameters, initial values and "
                  "input signals defined from it follow (default: the file's values)");
}

void add_overrun(CLI::App* cmd, Overrides& o) {
  cmd->add_option("--overrun", o.overrun,
                  "Dual-rate tasks, a slow job still running at the next release: 'skip' that release (the slow "
                  "state held), or 'defer' it until the job ends (the fast task waits for the job's end points; "
                  "exact while each late job ends within the next macro step)")
      ->check(CLI::IsMember({"skip", "defer"}))
      ->capture_default_str();
}

// --param NAME=VALUE, each a finite number for a name given once.
std::vector<ParameterOverride> parameter_overrides(const std::vector<std::string>& given) {
  std::vector<ParameterOverride> result;
  for (const std::string& g : given) {
    const auto eq = g.find('=');
    const std::string name = g.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : g.substr(eq + 1);
    double v = 0;
    if (name.empty() || !CLI::detail::lexical_cast(value, v) || !std::isfinite(v))
      throw UsageError(fmt::format("--param '{}': expected NAME=VALUE with a finite number, as in --param m_N=0.01", g));
    for (const auto& r : result)
      if (r.name == name) throw UsageError(fmt::format("--param {} is given twice", name));
    result.push_back({name, v});
  }
  return result;
}

bool frozen(const Model& m, const Overrides& o) {
  return o.linearization.value_or(m.simulation.linearization) == "frozen";
}

// For a frozen sp_ll linearization: how much f_z, g_x, g_z vary along the high-accuracy
// reference trajectory, relative to their values at the initial state.
void report_frozen_variation(const Model& model, const Settings& s) {
  const ReferenceCore core(model);
  const long samples = 200;
  const Trace tr = core.simulate({"reference", s.t_end / samples, s.t_end, 1});
  std::vector<Eigen::MatrixXd> jacobians;
  for (const auto& row : tr.rows) {
    const std::vector<double> x(row.begin() + 1, row.begin() + 1 + static_cast<long>(model.states.size()));
    jacobians.push_back(core.jacobian_at(row[0], x, core.inputs_at(row[0])));
  }
  std::string parts;
  for (const auto& [name, v] : sp_ll_variation(jacobians, model.slow_count))
    parts += fmt::format("{}{} {:.3g}", parts.empty() ? "" : ", ", name, v);
  std::cerr << fmt::format(
      "note: sp_ll linearization frozen at the initial state; along the reference trajectory to t = {:.6g} the "
      "matrices vary by (max ||M(t) - M(0)|| / ||M(0)||): {}\n",
      s.t_end, parts);
}

// smfe's design holds at the initial state; how eq. 14 fares along the reference trajectory.
void report_smfe_along_trajectory(const Model& model, const Settings& s, const SmfeDesign& d) {
  const SmfeAlongTrajectory a = smfe_along_trajectory(model, d, s.t_end);
  const bool holds = a.worst_factor <= 1 + kStabilityMargin;
  std::cerr << fmt::format(
      "{}: smfe h_s = {:.6g}, N = {} proven at the initial state; along the reference trajectory to t = {:.6g} the "
      "fastest eigenvalue's modulus ranges over {:.6g}..{:.6g} and eq. 14's largest factor is {:.6g} (t = {:.6g}){}\n",
      holds ? "note" : "warning", d.inner_step, d.inner_steps, s.t_end, a.fastest_min, a.fastest_max, a.worst_factor,
      a.worst_time, holds ? "" : ": the design is not stable everywhere on it");
}

// Options of the dual-rate tasks, refused for a single-rate scheme.
void require_dual_rate(const CLI::App* cmd, const std::string& option, const std::string& scheme) {
  if (cmd->count(option) > 0 && !find_scheme(scheme)->dual_rate)
    throw UsageError(fmt::format("{} applies to the dual-rate schemes (mrabm4, mrabm4_parallel); {} runs both "
                                 "partitions inside one step, as one periodic task",
                                 option, scheme));
}

// Edit distance (insertions, deletions, substitutions) between a and b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// For each unknown option in CLI11's message ("... not expected: --t-ned --x"), the option of
// `cmd` nearest to it, when one is within a third of its length; then where to find them all.
std::string unknown_option_hints(const CLI::App& cmd, const std::string& message) {
  std::string hints;
  const std::size_t colon = message.rfind(": ");
  std::istringstream given(colon == std::string::npos ? "" : message.substr(colon + 2));
  for (std::string arg; given >> arg;) {
    if (arg.rfind("--", 0) != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    std::string best;
    std::size_t best_distance = name.size() / 3 + 1;
    for (const CLI::Option* option : cmd.get_options())
      for (const std::string& lname : option->get_lnames()) {
        const std::size_t d = edit_distance(name, "--" + lname);
        if (d < best_distance) best_distance = d, best = "--" + lname;
      }
    if (!best.empty()) hints += fmt::format("\n  hint: {}: did you mean {}?", name, best);
  }
  const std::string path = cmd.get_parent() ? "dualrate " + cmd.get_name() : "dualrate";
  return hints + fmt::format("\n  hint: `{} --help` lists every option with its default", path);
}

// verify --report: the page (report.hpp) from the run kept in o.keep_dir, with the analysis
// and the high-accuracy solution on the compared grid.
void write_verify_report(const Model& model, const VerifyOptions& o, const VerifyResult& r, const std::string& dir) {
  ReportData d;
  d.model = &model;
  d.options = &o;
  d.result = &r;
  std::ifstream source(model.file, std::ios::binary);
  std::ostringstream text;
  text << source.rdbuf();
  d.model_source = text.str();
  std::optional<StabilityReport> stability;
  try {
    stability = analyze_stability(model, o.generate.scheme, o.generate.step, o.generate.ratio, o.generate.inner_step);
    d.stability = &*stability;
  } catch (const std::exception& e) {
    d.stability_error = e.what();
  }
  const std::filesystem::path run = o.keep_dir;
  if (std::filesystem::exists(run / "generated.csv") && std::filesystem::exists(run / "reference.csv")) {
    d.generated = read_csv((run / "generated.csv").string());
    d.reference = read_csv((run / "reference.csv").string());
    try {
      d.accurate = ReferenceCore(model).simulate({"reference", o.generate.step, o.t_end, o.every});
    } catch (const SimulationError&) {
      d.accurate = {};  // the plots then leave it out
    }
  }
  std::filesystem::create_directories(dir);
  const auto path = std::filesystem::path(dir) / "report.html";
  std::ofstream out(path, std::ios::binary);
  out << report_html(d, report_plot);
  if (!out) throw UsageError("cannot write " + path.string());
  const Trace data = report_traces(d);
  if (!data.rows.empty())
    write_mat(data, (std::filesystem::path(dir) / "report.mat").string(), fmt::format("dualrate {}", DUALRATE_VERSION));
}

int run(int argc, char** argv) {
  CLI::App app{"dualrate: code generator and runtime for two-time-scale dynamic systems"};
  app.set_version_flag(
      "--version", [] { return "dualrate " DUALRATE_VERSION "\n" + describe(data_paths()); },
      "Print the version and where this dualrate finds the runtime, target support and portable math, and exit");
  app.require_subcommand(1);
  Overrides o;
  std::string out_dir, out_trace, keep_dir, target = "host", name_space;
  bool json = false, emit_jacobian = false;
  bool allow_unstable = false;

  auto* generate = app.add_subcommand("generate", "Generate the C++ header for a model");
  add_common(generate, o);
  generate->add_option("--scalar", o.scalar, "Scalar type of the generated code (default: double)")->check(CLI::IsMember({"float", "double"}));
  generate->add_option("-o,--output", out_dir, "Output directory (writes DIR/<namespace>.hpp)")->required();
  generate->add_option("--namespace", name_space,
                       "C++ namespace of the generated code, and the header's name (default: the model's name); "
                       "lets several headers of one model (schemes, steps) link into one program")
      ->check([](const std::string& v) {
        static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
        return std::regex_match(v, identifier) ? std::string() : "'" + v + "' is not a C++ identifier";
      });
  add_overrun(generate, o);
  generate->add_flag("--jacobian", emit_jacobian,
                     "Also emit Model::jacobian(t, x, u, J, dfdt): the Jacobian in the states and the partial "
                     "derivative in t, for implicit integrators on the host (not used by the schemes)");
  std::string trace_file;
  generate->add_option("--trace", trace_file,
                       "Also write FILE (JSON): each equation of the model (state derivative, variable, output; its "
                       "line in the model file) with the header lines that implement it, and the scheme constants with "
                       "the analysis each came from (default: none)");
  generate->add_flag("--allow-unstable", allow_unstable,
                     "Generate even if the scheme is unstable at this step for the model linearized at its initial state");

  auto* analyze = app.add_subcommand("analyze", "Eigenvalues, time-scale separation and the scheme's stability at a step");
  add_common(analyze, o);
  analyze->add_flag("--json", json, "Print the result as one JSON object");

  auto* simulate = app.add_subcommand("simulate", "Integrate a model with the reference core and write a CSV or MAT-file trace");
  add_common(simulate, o);
  simulate->add_option("--t-end", o.t_end, "End time (default: simulation.t_end)");
  simulate->add_option("--every", o.every, "Write one row every k steps")->capture_default_str();
  simulate->add_option("-o,--output", out_trace,
                       "Trace file: a MAT-file (version 5, one column vector per column) if it ends in .mat, else "
                       "CSV (default: CSV on standard output)");

  auto* verify_cmd = app.add_subcommand("verify", "Compile and run the generated code and compare it with the reference core");
  add_common(verify_cmd, o);
  verify_cmd->add_option("--t-end", o.t_end, "End time (default: simulation.t_end)");
  verify_cmd->add_option("--every", o.every, "Compare every k steps")->capture_default_str();
  verify_cmd->add_option("--target", target,
                         "Where the generated code runs: host, cortex-m3|cortex-m4f|cortex-m7 (qemu-system-arm) or cortex-a53-linux "
                         "(qemu-aarch64; dual-rate schemes)")
      ->capture_default_str();
  verify_cmd->add_option("--scalar", o.scalar,
                         "Scalar type of the generated code (default: double; float on cortex-m4f)")
      ->check(CLI::IsMember({"float", "double"}));
  verify_cmd->add_flag("--json", json, "Print the result as one JSON object");
  add_overrun(verify_cmd, o);
  std::string report_dir;
  verify_cmd->add_option("--report", report_dir,
                         "Write DIR/report.html: the model, analysis, plots of every state and of the error against "
                         "the tolerance, the target's results and the verdict, in one self-contained page (default: "
                         "none)");
  verify_cmd->add_option("--keep", keep_dir, "Keep the generated header, trace program, binary and traces in DIR (default: "
                         "a temporary directory, removed)");
  std::string header_file;
  verify_cmd
      ->add_option("--header", header_file,
                   "Verify this header instead of generating one (hand-edited, or broken on purpose to see verify fail); "
                   "it must be generated from the same model with the same scheme and scalar (default: generate one)")
      ->check(CLI::ExistingFile);
  std::string tasks = "multi";
  long slow_delay_ticks = 0, tick_cycles = 0;
  int icount_shift = -1;
  verify_cmd
      ->add_option("--tasks", tasks,
                   "Dual-rate schemes: 'single' runs the sequential executive only, 'multi' also the preemptive one "
                   "(SysTick/PendSV on Cortex-M, SCHED_FIFO threads on Linux) and compares the two bit for bit")
      ->check(CLI::IsMember({"single", "multi"}))
      ->capture_default_str();
  verify_cmd->add_option("--slow-task-delay", slow_delay_ticks,
                         "Dual-rate, for testing the overrun policy: slow job MACRO/2 busy-waits this many fast ticks")
      ->capture_default_str();
  verify_cmd->add_option("--icount-shift", icount_shift,
                         fmt::format("Cortex-M dual-rate runs: QEMU's -icount shift (default: {})", kIcountShift))
      ->check(CLI::Range(0, 10));
  verify_cmd->add_option("--tick-cycles", tick_cycles,
                         "Cortex-M dual-rate runs: SysTick period in the emulated board's cycles (default: h at the "
                         "part's instruction rate, --cpu-hz / --cpi)")
      ->check(CLI::Range(2L, 0x1000000L));
  double cpu_hz = 0, cpi = 0;
  verify_cmd->add_option("--cpu-hz", cpu_hz,
                         "Cortex-M: clock of the part the real-time budget is estimated for (default: the target's "
                         "typical part, e.g. 168e6 for cortex-m4f's STM32F407)")
      ->check(CLI::PositiveNumber);
  verify_cmd->add_option("--cpi", cpi,
                         "Cortex-M: cycles per instruction assumed on that part (default: 1.25 on M3/M4, 1.0 on M7)")
      ->check(CLI::PositiveNumber);

  auto* verify_system_cmd = app.add_subcommand(
      "verify-system", "Run several models' dual-rate tasks on one Cortex-M core, rate-monotonic, and check each "
                       "against its own sequential run (a system file lists them)");
  std::string system_file, system_target = "cortex-m4f";
  verify_system_cmd->add_option("system", system_file, "System file (YAML)")->required();
  verify_system_cmd->add_option("--target", system_target, "cortex-m3, cortex-m4f or cortex-m7 (qemu-system-arm)")
      ->capture_default_str();
  verify_system_cmd->add_option("--cpu-hz", cpu_hz, "Clock of the part the budget is for (default: the target's)")
      ->check(CLI::PositiveNumber);
  verify_system_cmd->add_option("--cpi", cpi, "Cycles per instruction assumed on that part (default: the target's)")->check(CLI::PositiveNumber);
  verify_system_cmd->add_flag("--json", json, "Print the result as one JSON object");
  verify_system_cmd->add_option("--keep", keep_dir,
                                "Keep the headers, programs and traces in DIR (default: a temporary directory, removed)");

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
  if (verify_system_cmd->parsed()) {
    const SystemSpec spec = load_system_file(system_file);
    SystemOptions so;
    so.target = system_target;
    so.cpu_hz = cpu_hz;
    so.cpi = cpi;
    so.keep_dir = keep_dir;
    so.generator_version = DUALRATE_VERSION;
    const SystemResult r = verify_system(spec, so);
    std::cout << (json ? r.json() + "\n" : r.text());
    if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
    return r.pass ? 0 : 2;
  }
  const Model model = load_model_file(o.model_path, parameter_overrides(o.params));

  if (analyze->parsed()) {
    const Settings s = resolve(model, o, Use::kAnalysis);
    const StabilityReport r = analyze_stability(model, s.scheme, s.step, s.ratio, o.inner_step);
    std::cout << (json ? r.json() + "\n" : r.text());
    return 0;
  }
  if (generate->parsed()) {
    const Settings s = resolve(model, o, Use::kGenerate);
    require_dual_rate(generate, "--overrun", s.scheme);
    const StabilityReport stability =
        analyze_stability(model, s.scheme, s.step, s.ratio, o.inner_step,
                          allow_unstable ? StepSearch::kNever : StepSearch::kWhenUnstable);
    if (!stability.stable && !allow_unstable) {
      const Instability why = instability(model, stability, s.t_end);
      throw ModelError(model.simulation.loc, why.message, why.hint + "; --allow-unstable generates it anyway");
    }
    GenerateOptions g{s.scheme, s.step, s.ratio, scalar_type(o.scalar), DUALRATE_VERSION, {}, {}};
    g.name_space = name_space;
    g.jacobian = emit_jacobian;
    g.inner_step = o.inner_step;
    g.defer_overruns = o.overrun == "defer";
    precompute_scheme(model, frozen(model, o), g);
    if (s.scheme == "sp_ll" && frozen(model, o)) report_frozen_variation(model, s);
    if (s.scheme == "smfe") report_smfe_along_trajectory(model, s, *stability.smfe);
    const TracedHeader header = generate_traced_header(model, g);
    std::filesystem::create_directories(out_dir);
    const auto path = std::filesystem::path(out_dir) / (generated_namespace(model, g) + ".hpp");
    std::ofstream out(path, std::ios::binary);
    out << header.text;
    if (!out) throw UsageError("cannot write " + path.string());
    std::cout << path.string() << "\n";
    if (!trace_file.empty()) {
      std::ofstream trace(trace_file, std::ios::binary);
      trace << source_map_json(header.source_map) << "\n";
      if (!trace) throw UsageError("cannot write " + trace_file);
    }
    return 0;
  }
  if (simulate->parsed()) {
    const Settings s = resolve(model, o, Use::kReferenceCore);
    RunOptions run{s.scheme, s.step, s.t_end, o.every};
    run.frozen_linearization = frozen(model, o);
    run.ratio = s.ratio;
    run.inner_step = o.inner_step;
    run.exact_end = true;
    const EndTime end = end_time(s.t_end, s.step);
    AdamsScheme multistep;
    if (!end.whole && s.scheme == "reference")
      std::cerr << fmt::format("note: t_end = {} is not a whole number of output steps h = {}: the last row is at "
                               "t_end, {:.6g} after the one before\n",
                               s.t_end, s.step, s.t_end - end.below);
    else if (!end.whole && !adams_scheme(s.scheme, multistep))
      std::cerr << fmt::format("note: t_end = {} is not a whole number of steps h = {}: the last step is shortened to "
                               "{:.6g} so that the run ends at t_end\n",
                               s.t_end, s.step, s.t_end - end.below);
    const ReferenceCore core(model);
    const Trace trace = core.with_inputs(core.simulate(run));
    if (out_trace.empty()) {
      for (std::size_t i = 0; i < trace.columns.size(); ++i) std::cout << (i ? "," : "") << trace.columns[i];
      std::cout << "\n";
      for (const auto& row : trace.rows) {
        for (std::size_t i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << fmt::format("{:.17g}", row[i]);
        std::cout << "\n";
      }
    } else {
      if (std::filesystem::path(out_trace).extension() == ".mat")
        write_mat(trace, out_trace, fmt::format("dualrate {}", DUALRATE_VERSION));
      else
        write_csv(trace, out_trace);
      std::cerr << fmt::format("{}: {} rows -> {}\n", model.name, trace.rows.size(), out_trace);
    }
    return 0;
  }
  const Settings s = resolve(model, o, Use::kGenerate);
  require_dual_rate(verify_cmd, "--tasks", s.scheme);
  require_dual_rate(verify_cmd, "--overrun", s.scheme);
  require_dual_rate(verify_cmd, "--slow-task-delay", s.scheme);
  const CrossTarget* cross = find_cross_target(target);
  if (target != "host" && !cross) throw UsageError(unknown_target_message(target));
  if (o.scalar.empty() && cross) o.scalar = cross->default_scalar;
  VerifyOptions v;
  v.generate = {s.scheme, s.step, s.ratio, scalar_type(o.scalar), DUALRATE_VERSION, {}, {}};
  v.generate.inner_step = o.inner_step;
  v.generate.defer_overruns = o.overrun == "defer";
  v.frozen = frozen(model, o);
  v.t_end = s.t_end;
  v.every = o.every;
  v.target = target;
  v.keep_dir = keep_dir;
  v.header_file = header_file;
  v.tasks = tasks;
  v.slow_delay_ticks = slow_delay_ticks;
  v.icount_shift = icount_shift;
  v.tick_cycles = tick_cycles;
  v.cpu_hz = cpu_hz;
  v.cpi = cpi;
  if (!end_time(s.t_end, s.step).whole)
    std::cerr << fmt::format("note: t_end = {} is not a whole number of steps h = {}: generated code runs whole "
                             "steps, so verify runs {} steps, to t = {:.15g}\n",
                             s.t_end, s.step, step_count(s.t_end, s.step), end_time(s.t_end, s.step).above);
  // A report reads the run's traces: kept in a directory of ours unless --keep names one.
  const bool own_run_dir = !report_dir.empty() && keep_dir.empty();
  if (own_run_dir) v.keep_dir = make_temp_dir("dualrate-report");
  const bool terminal = isatty(STDERR_FILENO) != 0;
  if (terminal)
    v.progress = [&model](const std::string& stage) {
      std::cerr << "\r\033[K" << fmt::format("verify {}: {} ...", model.name, stage) << std::flush;
    };
  VerifyResult r = verify(model, v);
  if (!report_dir.empty()) {
    if (v.progress) v.progress("writing the report");
    write_verify_report(model, v, r, report_dir);
    if (own_run_dir) {
      std::filesystem::remove_all(v.keep_dir);
      r.directory.clear();
    }
  }
  if (terminal) std::cerr << "\r\033[K" << std::flush;
  if (json) {
    std::cout << r.json() << "\n";
  } else {
    std::cout << fmt::format("{} {} on {} ({}), {} steps: max_error {:.3e}, tolerance {:.3e}{}: {}\n", r.model,
                             r.scheme, r.target, r.scalar, r.steps, r.max_error, r.tolerance,
                             r.worst_state.empty() ? "" : fmt::format(" (worst: {} at t = {:.6g})", r.worst_state, r.worst_time),
                             r.pass ? "PASS" : "FAIL");
    if (r.relinearized_error >= 0)
      std::cout << fmt::format("frozen linearization: max_error against the re-linearizing reference core {:.3e}\n",
                               r.relinearized_error);
    if (r.bit_exact_vs_host >= 0)
      std::cout << fmt::format("host build, same code and flags: {}\n",
                               r.bit_exact_vs_host ? "bit for bit equal" : "differs");
    if (r.instructions_per_step >= 0)
      std::cout << fmt::format("cost on {}: {:.1f} instructions per step (min {}, max {}), {} arithmetic ops per step "
                               "(lower bound {}; {:.2f} instructions per op), stack {} bytes; program text {} B, data "
                               "{} B, bss {} B\n",
                               r.target, r.instructions_per_step, r.instructions_min, r.instructions_max,
                               r.ops_per_step, r.ops_bound, r.instructions_per_op(),
                               r.stack_bytes, r.text_bytes, r.data_bytes, r.bss_bytes);
    if (r.bit_exact_vs_single >= 0)
      std::cout << fmt::format("tasks: preemptive run {} the sequential one; {} ticks, {} slow jobs, {} ticks preempted "
                               "a slow job; overruns {} (slow {}, fast {})\n",
                               r.bit_exact_vs_single ? "equals bit for bit" : "DIFFERS from", r.ticks, r.slow_jobs,
                               r.preempted_ticks, r.overruns, r.slow_overruns, r.fast_overruns);
    if (r.deferred_releases > 0)
      std::cout << fmt::format("deferred releases: {} (a slow job still ran at the next release; the next job ran "
                               "right after it on its grid snapshot, and the fast task waited up to {} ticks for the "
                               "late end points: its outputs were that late, the state is the scheme's)\n",
                               r.deferred_releases, r.longest_wait);
    if (r.budget) {
      const Budget& b = *r.budget;
      std::cout << fmt::format("budget on {} at {:.6g} MHz, CPI {:.3g} (an estimate): fast job {:.0f} cycles, response "
                               "{:.4g} us{}; utilization {:.3g}; {} (margin {:.3g}; smallest clock {:.4g} MHz)\n",
                               b.part, b.cpu_hz / 1e6, b.cpi, b.fast_cycles_max, b.fast_response * 1e6,
                               b.slow_cycles_max >= 0
                                   ? fmt::format("; slow job {:.0f} cycles, response {:.4g} us", b.slow_cycles_max,
                                                 b.slow_response * 1e6)
                                   : "",
                               b.utilization, b.schedulable ? "schedulable" : "NOT schedulable", b.margin,
                               b.min_cpu_hz / 1e6);
    }
    if (!r.directory.empty()) std::cout << "kept in " << r.directory << "\n";
  }
  if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
  return r.pass ? 0 : 2;
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
