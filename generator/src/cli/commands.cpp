// The commands' options on the application: the constructors of commands.hpp's classes. They
// and main.cpp are the units that parse CLI11, a large header.
#include "cli/commands.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <string>

#include "targets/cross_target.hpp"

namespace dualrate::cli {

namespace {

// The check of a --namespace value: a C++ identifier.
std::string identifier_check(const std::string& v) {
  static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
  return std::regex_match(v, identifier) ? std::string() : "'" + v + "' is not a C++ identifier";
}

}  // namespace

GenerateCommand::GenerateCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("generate", "Generate the C++ header for a model");
  add_common(cmd_, o_);
  cmd_->add_option("--scalar", o_.scalar, "Scalar type of the generated code (default: double)")
      ->check(CLI::IsMember({"float", "double"}));
  cmd_->add_option("-o,--output", out_dir_, "Output directory (writes DIR/<namespace>.hpp)")->required();
  cmd_->add_option("--namespace", name_space_,
                   "C++ namespace of the generated code, and the header's name (default: the model's name); "
                   "lets several headers of one model (schemes, steps) link into one program")
      ->check(identifier_check);
  cmd_->add_option("--instances", instances_,
                   "A model with tunable values: the names of its instances (comma-separated), each a namespace "
                   "within the generated one with its own Model, Data or Tasks, active constants and hand-over, "
                   "so that instances stepped in different tasks never share a set; one calibration for all "
                   "(default: one instance, the namespace itself)")
      ->delimiter(',')
      ->check(identifier_check);
  cmd_->add_option("--cost", cost_targets_,
                   fmt::format("A model with tunable values: also measure the recalibration on these targets "
                               "(comma-separated: {}): the header's trace program, built for each, makes writes "
                               "at the model's values and at the corners of the calibration range under QEMU, and "
                               "generate prints the most instructions (QEMU's count) and stack (painted) of one "
                               "calibrate() (default: none)",
                               target_names(true, ", ")))
      ->delimiter(',');
  add_overrun(cmd_, o_);
  cmd_->add_flag("--jacobian", emit_jacobian_,
                 "Also emit Model::jacobian(t, x, u, J, dfdt): the Jacobian in the states and the partial "
                 "derivative in t, for implicit integrators on the host (not used by the schemes)");
  cmd_->add_option("--trace", trace_file_,
                   "Also write FILE (JSON): each equation of the model (state derivative, variable, output; its "
                   "line in the model file) with the header lines that implement it, and the scheme constants with "
                   "the analysis each came from (default: none)");
  cmd_->add_flag("--allow-unstable", allow_unstable_,
                 "Generate even if the scheme is unstable at this step for the model linearized at its initial state");
}

AnalyzeCommand::AnalyzeCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("analyze", "Eigenvalues, time-scale separation and the scheme's stability at a step");
  add_common(cmd_, o_);
  cmd_->add_flag("--json", json_, "Print the result as one JSON object");
}

SimulateCommand::SimulateCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("simulate", "Integrate a model with the reference core and write a CSV or MAT-file trace");
  add_common(cmd_, o_);
  add_run_length(cmd_, o_, "Write one row every k steps");
  cmd_->add_option("-o,--output", out_trace_,
                   "Trace file: a MAT-file (version 5, one column vector per column) if it ends in .mat, else "
                   "CSV (default: CSV on standard output)");
  cmd_->add_option("--calibration", calibration_file_,
                   "Calibration scenario: a YAML list of writes of tunable parameters and tables, each applied from "
                   "the first step at or after its time (default: the model's simulation: calibration:, which "
                   "this replaces)");
}

VerifyCommand::VerifyCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("verify", "Compile and run the generated code and compare it with the reference core");
  add_common(cmd_, o_);
  add_run_length(cmd_, o_, "Compare every k steps");
  cmd_->add_option("--calibration", calibration_file_,
                   "Calibration scenario (as simulate's): the generated code's trace programs and the reference core "
                   "make its writes, and must decide each alike (default: the model's simulation: calibration:, "
                   "which this replaces)");
  cmd_->add_option("--target", target_,
                   fmt::format("Where the generated code runs: host, {} (qemu-system-arm) or cortex-a53-linux "
                               "(qemu-aarch64)",
                               target_names(true, "|")))
      ->capture_default_str();
  cmd_->add_option("--scalar", o_.scalar,
                   "Scalar type of the generated code (default: double; float on cortex-m4f and cortex-m33, whose "
                   "FPUs are single precision)")
      ->check(CLI::IsMember({"float", "double"}));
  cmd_->add_flag("--json", json_, "Print the result as one JSON object");
  add_tolerance(cmd_, tolerance_,
                "The accuracy asked of the answer: the generated trace's largest error against the high-accuracy "
                "solution, |x - x_accurate| / max(1, max_t |x_accurate|) of each state and output as design "
                "measures it; above it verify fails with 'NOT ACCURATE' (default: the model's simulation: "
                "tolerance:, else the error is reported and not judged)");
  add_overrun(cmd_, o_);
  cmd_->add_option("--report", report_dir_,
                   "Write DIR/report.html: the model, analysis, plots of every state and of the error against "
                   "the tolerance, the target's results and the verdict, in one self-contained page (default: "
                   "none)");
  cmd_->add_option("--keep", keep_dir_,
                   "Keep the generated header, trace program, binary and traces in DIR (default: "
                   "a temporary directory, removed)");
  cmd_->add_option(
          "--header", header_file_,
          "Verify this header instead of generating one (hand-edited, or broken on purpose to see verify fail); "
          "it must be generated from the same model with the same scheme and scalar (default: generate one)")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--tasks", tasks_,
                   "Dual-rate schemes: 'single' runs the sequential executive only, 'multi' also the preemptive one "
                   "(SysTick/PendSV on Cortex-M, the slow task on core 1 on cortex-m33-dual, SCHED_FIFO threads on "
                   "Linux) and compares the two bit for bit (default: multi, but single on the host for a scenario "
                   "longer than 10 s, whose preemptive run there takes its time in real time)")
      ->check(CLI::IsMember(names(kDualRateTaskKinds)));
  cmd_->add_option("--slow-core", slow_core_,
                   "Dual-rate, --tasks multi on a target with two cores (cortex-m33-dual): the core of the slow task, "
                   "1 (the fast task has core 0 to itself) or 0 (both on core 0, the slow task preempted as on one "
                   "core) (default: 1 there, 0 elsewhere)")
      ->check(CLI::Range(0, 1));
  cmd_->add_option("--slow-task-delay", slow_delay_ticks_,
                   "Dual-rate, for testing the overrun policy: slow job MACRO/2 busy-waits this many fast ticks")
      ->capture_default_str();
  cmd_->add_option("--icount-shift", icount_shift_,
                   fmt::format("Cortex-M dual-rate runs: QEMU's -icount shift (default: {})", kIcountShift))
      ->check(CLI::Range(0, 10));
  cmd_->add_option("--tick-cycles", tick_cycles_,
                   "Cortex-M dual-rate runs: SysTick period in the emulated board's cycles (default: h at the "
                   "part's instruction rate, --cpu-hz / --cpi)")
      ->check(CLI::Range(2L, 0x1000000L));
  cmd_->add_option("--cpu-hz", cpu_hz_,
                   "Cortex-M: clock of the part the real-time budget is estimated for (default: the target's "
                   "typical part, e.g. 168e6 for cortex-m4f's STM32F407)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--cpi", cpi_,
                   "Cortex-M: cycles per instruction assumed on that part (default: 1.25 on M3/M4/M33, 1.0 on "
                   "M7/M55)")
      ->check(CLI::PositiveNumber);
}

DesignCommand::DesignCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("design",
                            "Propose the slow/fast partition and choose the scheme, step and ratio that meet an error "
                            "tolerance at the least cost");
  cmd_->add_option("model", o_.model_path, "Model file (YAML); states: may be a plain mapping (no partition)")
      ->required();
  add_tolerance(cmd_, tolerance_,
                "The largest error allowed over the model's scenario, against the high-accuracy solution, "
                "normalized as verify does: |x - x_accurate| / max(1, max_t |x_accurate|) of each state and output "
                "(default: the model's simulation: tolerance:)");
  cmd_->add_option("--target", target_,
                   fmt::format("Also measure each candidate on {} under QEMU (instructions per step, cycles, "
                               "utilization, response times) and rank by cycles (default: the host's operation counts "
                               "only)",
                               target_names(false, "|")));
  cmd_->add_option("--cpu-hz", cpu_hz_, "With --target: the part's clock (default: the target's typical part)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--cpi", cpi_, "With --target: cycles per instruction on that part (default: the target's)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--period", period_,
                   "The ECU task's fixed period P: steps are P/k for whole k (dual-rate: the fast step) (default: "
                   "none, steps from the R10 preferred numbers)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--schemes", schemes_,
                   "Consider only these schemes, as in --schemes rk4,sp_ll (default: every scheme)")
      ->delimiter(',');
  cmd_->add_flag("--exhaustive", exhaustive_,
                 "Search every candidate to its own cheapest step within the tolerance, to cost each against the "
                 "choice (default: a step that costs more than a candidate already within the tolerance is not run; "
                 "with --target every candidate is searched)");
  cmd_->add_option("--param", o_.params,
                   "NAME=VALUE: replaces the value of parameter NAME (repeatable; not written into -o's file; "
                   "default: the file's values)");
  cmd_->add_flag("--json", json_, "Print the result as one JSON object");
  cmd_->add_option("-o,--output", out_file_,
                   "Write the model with the chosen partition and simulation: scheme, step and ratio to FILE, "
                   "every other line as it was (default: none)");
}

A2lCommand::A2lCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("a2l",
                            "Write the ASAM MCD-2 MC (ASAP2 1.71) file of a program built with the model's header, "
                            "for a calibration tool");
  add_common(cmd_, o_);
  cmd_->add_option("--elf", elf_file_,
                   "The linked program (ELF) built with the model's generated header: the addresses, byte order "
                   "and EPK come from it")
      ->required()
      ->check(CLI::ExistingFile);
  cmd_->add_option("-o,--output", out_file_, "Write the A2L file to FILE (default: standard output)");
  cmd_->add_option("--namespace", name_space_,
                   "The namespace the header was generated with (generate --namespace) (default: the model's name)")
      ->check(identifier_check);
  cmd_->add_option("--instance", instances_,
                   "SYMBOL: a model instance of the program (a global NS::Data, as its symbol table spells it, e.g. "
                   "plant or app::plant) whose states the file describes as MEASUREMENTs SYMBOL.STATE (repeatable; "
                   "default: none)");
}

FmuCommand::FmuCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("fmu",
                            "Write the model as an FMU (Functional Mock-up Unit): co-simulation with the generated "
                            "scheme inside and model exchange, for a system simulation (docs/fmi.md)");
  add_common(cmd_, o_);
  cmd_->add_option("--scalar", o_.scalar, "Scalar type of the generated code (default: double)")
      ->check(CLI::IsMember({"float", "double"}));
  cmd_->add_option("--fmi-version", fmi_version_, "FMI version of the FMU: 3 (3.0) or 2 (2.0) (default: 3)")
      ->check(CLI::IsMember({3, 2}));
  cmd_->add_option("-o,--output", out_file_, "The FMU file to write (MODEL.fmu)")->required();
  cmd_->add_flag("--scheduled", scheduled_,
                 "FMI 3.0's Scheduled Execution alone, for a dual-rate task form (mrabm4, mrabm4_parallel): the fast "
                 "and slow tasks as two model partitions on clocks of periods h and H, which the importer's scheduler "
                 "activates (default: co-simulation and model exchange)");
  cmd_->add_flag("--allow-unstable", allow_unstable_, "Build the FMU even where the scheme is unstable at the step");
}

VerifySystemCommand::VerifySystemCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("verify-system",
                            "Run several models' dual-rate tasks on one Cortex-M core, rate-monotonic, and check each "
                            "against its own sequential run (a system file lists them)");
  cmd_->add_option("system", system_file_, "System file (YAML)")->required();
  cmd_->add_option("--target", target_, target_names(true, ", ") + " (qemu-system-arm)")->capture_default_str();
  cmd_->add_option("--cpu-hz", cpu_hz_, "Clock of the part the budget is for (default: the target's)")
      ->check(CLI::PositiveNumber);
  cmd_->add_option("--cpi", cpi_, "Cycles per instruction assumed on that part (default: the target's)")
      ->check(CLI::PositiveNumber);
  cmd_->add_flag("--json", json_, "Print the result as one JSON object");
  cmd_->add_option("--keep", keep_dir_,
                   "Keep the headers, programs and traces in DIR (default: a temporary directory, removed)");
}

bool ModelCommand::parsed() const { return cmd_->parsed(); }

bool VerifySystemCommand::parsed() const { return cmd_->parsed(); }

}  // namespace dualrate::cli
