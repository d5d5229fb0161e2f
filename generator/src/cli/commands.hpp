// The subcommands of the dualrate CLI, one unit each for what it does (generate.cpp,
// analyze.cpp, simulate.cpp, verify.cpp, verify_system.cpp, a2l.cpp): each defines its options on the
// application when it is constructed (command_line.cpp, with the options they share) and runs
// after parsing. Internal to cli/.
#pragma once

#include <optional>
#include <string>

#include "campaign/campaign.hpp"
#include "cli/command_line.hpp"
#include "model/model.hpp"

namespace dualrate::cli {

// The longest scenario (s) whose dual-rate tasks verify runs preemptively on the host by
// default: that run keeps the scenario's time.
constexpr double kHostRealTime = 10;

// A subcommand on one model file: main loads the model (with --param) and calls run.
class ModelCommand {
 public:
  virtual ~ModelCommand() = default;
  bool parsed() const;
  const Overrides& overrides() const { return o_; }
  // The exit status: 0, 2 when verification fails; errors are thrown.
  virtual int run(const Model& model) = 0;

 protected:
  CLI::App* cmd_ = nullptr;
  Overrides o_;
};

// dualrate generate: the C++ header (and --trace's source map) for a model.
class GenerateCommand : public ModelCommand {
 public:
  explicit GenerateCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  std::string out_dir_, name_space_, trace_file_;
  std::vector<std::string> instances_, cost_targets_;
  bool emit_jacobian_ = false, allow_unstable_ = false;
};

// dualrate analyze: eigenvalues, separation and the scheme's stability at a step.
class AnalyzeCommand : public ModelCommand {
 public:
  explicit AnalyzeCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  bool json_ = false;
};

// dualrate simulate: the reference core's trace, as CSV or MAT-file.
class SimulateCommand : public ModelCommand {
 public:
  explicit SimulateCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  std::string out_trace_, calibration_file_;
};

// dualrate verify: generated code compiled and run (host or target), compared with the
// reference core.
class VerifyCommand : public ModelCommand {
 public:
  explicit VerifyCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  std::string target_ = "host", report_dir_, keep_dir_, header_file_, tasks_, calibration_file_;
  long slow_delay_ticks_ = 0, tick_cycles_ = 0;
  int slow_core_ = -1;  // -1: the target's (1 where it has two cores)
  int icount_shift_ = -1;
  double cpu_hz_ = 0, cpi_ = 0;
  ToleranceOptions tolerance_;  // the accuracy verdict's, over the model's simulation: tolerance
  bool json_ = false;
};

// dualrate design: the partition, and the cheapest scheme, step and ratio within a tolerance.
class DesignCommand : public ModelCommand {
 public:
  explicit DesignCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  ToleranceOptions tolerance_;  // over the model's simulation: tolerance
  double cpu_hz_ = 0, cpi_ = 0;
  std::optional<double> period_;
  std::vector<std::string> schemes_;
  bool exhaustive_ = false;
  std::string target_, out_file_;
  bool json_ = false;
};

// dualrate a2l: the ASAP2 description of a program built with the model's header, for a
// calibration tool.
class A2lCommand : public ModelCommand {
 public:
  explicit A2lCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  std::string elf_file_, out_file_, name_space_;
  std::vector<std::string> instances_;
};

// dualrate fmu: the model as an FMU (FMI 3.0 or 2.0, co-simulation and model exchange).
class FmuCommand : public ModelCommand {
 public:
  explicit FmuCommand(CLI::App& app);
  int run(const Model& model) override;

 private:
  std::string out_file_;
  int fmi_version_ = 3;
  bool allow_unstable_ = false, scheduled_ = false;
};

// dualrate verify-system: several models' tasks on one Cortex-M core.
class VerifySystemCommand {
 public:
  explicit VerifySystemCommand(CLI::App& app);
  bool parsed() const;
  int run();

 private:
  CLI::App* cmd_ = nullptr;
  std::string system_file_, target_ = "cortex-m4f", keep_dir_;
  double cpu_hz_ = 0, cpi_ = 0;
  bool json_ = false;
};

// dualrate campaign: the project of a campaign file, one point's run, the merged report.
class CampaignCommand {
 public:
  explicit CampaignCommand(CLI::App& app);
  bool parsed() const;
  int run();

 private:
  CLI::App *cmd_ = nullptr, *report_ = nullptr, *point_ = nullptr;
  std::string file_, out_dir_;
  CampaignReportOptions report_options_;
  std::string point_dir_, point_id_, results_dir_;
};

}  // namespace dualrate::cli
