#include "fmi/fmu_glue.hpp"

#include <fmt/format.h>

#include "fmi/fmu_variables.hpp"
#include "model/cpp_names.hpp"
#include "model/tunable.hpp"

namespace dualrate {

namespace {

const char* kind_name(FmuVariable::Kind kind) {
  switch (kind) {
    case FmuVariable::Kind::kTime:
      return "kTime";
    case FmuVariable::Kind::kState:
      return "kState";
    case FmuVariable::Kind::kDerivative:
      return "kDerivative";
    case FmuVariable::Kind::kInput:
      return "kInput";
    case FmuVariable::Kind::kOutput:
      return "kOutput";
    case FmuVariable::Kind::kTunable:
      return "kTunable";
    case FmuVariable::Kind::kClock:
      return "kClock";
  }
  return "kUnknown";
}

// The variables by value reference, as the wrapper reads them.
std::string variable_table(const std::vector<FmuVariable>& variables) {
  std::string s =
      "// The variables by value reference (docs/fmi.md#variables): kind, index among its kind's (a\n"
      "// tunable's: its first value among the Calibration's), values held.\n"
      "inline constexpr dualrate::fmi::Variable kVariables[] = {\n";
  for (const FmuVariable& v : variables)
    s += fmt::format("    {{dualrate::fmi::VariableKind::{}, {}, {}}},  // {} {}\n", kind_name(v.kind), v.index,
                     v.count, v.value_reference, v.name);
  return s + "};\n";
}

// The Calibration's values: the member each index names, and the FMU's name of each.
std::string tunable_access(const std::vector<TunableValue>& values, const std::string& scalar) {
  std::string s = fmt::format("inline {}& tunable(Calibration& c, int i) {{\n  switch (i) {{\n", scalar);
  for (std::size_t i = 0; i < values.size(); ++i) s += fmt::format("    case {}: return c.{};\n", i, values[i].member);
  s += fmt::format("    default: return c.{};\n  }}\n}}\n", values.empty() ? "none" : values.front().member);
  s += fmt::format(
      "inline {} tunable(const Calibration& c, int i) {{ return tunable(const_cast<Calibration&>(c), i); }}\n", scalar);
  s += "inline const char* tunable_name(int i) {\n  static constexpr const char* names[] = {";
  for (const TunableValue& v : values) s += "\"" + v.name + "\", ";
  return s + "\"\"};\n  return names[i];\n}\n";
}

std::string slot(int i, const std::string& ns, bool dual_rate, bool tunable) {
  std::string s = fmt::format("template <>\nstruct Slot<{}> {{\n  using Model = {}::Model;\n", i, ns);
  if (dual_rate)
    s += fmt::format(
        "  struct Jobs {{\n"
        "    static constexpr Model::Scalar kStep = {0}::kStep;\n"
        "    static dualrate::Status fast({0}::Tasks& t, const Model::Input& u, bool& release) {{\n"
        "      return {0}::fast_task(t, u, release);\n"
        "    }}\n"
        "    static dualrate::Status slow({0}::Tasks& t) {{ return {0}::slow_task(t); }}\n"
        "  }};\n"
        "  using Run = dualrate::fmi::DualRateRun<Model, {0}::Tasks, Jobs>;\n",
        ns);
  else
    s += fmt::format(
        "  struct Step {{\n"
        "    static constexpr Model::Scalar kStep = {0}::kStep;\n"
        "    template <class U>\n"
        "    static dualrate::Status advance({0}::Data& d, const U& u) {{ return {0}::step(d, u); }}\n"
        "  }};\n"
        "  using Run = dualrate::fmi::SingleRateRun<Model, {0}::Data, Step>;\n",
        ns);
  // recalibrate: into the constants the instance's step reads (no task runs meanwhile);
  // hand_over: into the spare set, which the tasks take at their next release.
  s += tunable ? fmt::format(
                     "  static dualrate::calibration::Status recalibrate(const Calibration& v) {{\n"
                     "    return model::recalibrate(v, {0}::active_constants);\n  }}\n"
                     "  static dualrate::calibration::Status hand_over(const Calibration& v) {{\n"
                     "    Constants* spare = {0}::constants_handoff.spare();\n"
                     "    if (!spare) return {{dualrate::calibration::Result::kPending, -1}};\n"
                     "    const dualrate::calibration::Status s = model::recalibrate(v, *spare);\n"
                     "    if (s.applied()) {0}::constants_handoff.publish();\n"
                     "    return s;\n  }}\n"
                     "  // The generator's constants, and no set waiting from before (a reset).\n"
                     "  static void restore() {{\n"
                     "    Constants stale;\n"
                     "    {0}::constants_handoff.take(stale);\n"
                     "    {0}::active_constants = generated_constants;\n  }}\n",
                     ns)
               : "  static dualrate::calibration::Status recalibrate(const Calibration&) {\n"
                 "    return {dualrate::calibration::Result::kApplied, -1};\n  }\n"
                 "  static dualrate::calibration::Status hand_over(const Calibration& v) { return recalibrate(v); }\n"
                 "  static void restore() {}\n";
  return s + "};\n";
}

}  // namespace

std::vector<std::string> fmu_instances(const Model& model) {
  std::vector<std::string> names;
  if (has_tunable(model))
    for (int i = 0; i < kFmuSlots; ++i) names.push_back(fmt::format("fmu{}", i));
  return names;
}

std::string fmu_glue(const Model& model, const GenerateRequest& request, const FmuGlue& glue) {
  const bool tunable = has_tunable(model);
  const std::vector<TunableValue> values = tunable_values(model, request.scalar);
  const std::string ns = request.name_space.empty() ? model.name : request.name_space;
  std::string s = fmt::format(
      "// fmu_model.hpp: generated by dualrate {} for the FMU of {} (docs/fmi.md). Do not edit.\n"
      "// What targets/fmi/component.hpp needs of {}: the instance slots, the step, the\n"
      "// variables, the calibration values.\n"
      "#pragma once\n\n#include \"{}\"\n#include \"runs.hpp\"\n#include \"variables.hpp\"\n\n"
      "namespace dualrate_fmu {{\n\nnamespace model = ::{};\n\n"
      "inline constexpr char kInstantiationToken[] = \"{}\";\n"
      "inline constexpr double kStep = {:a};  // h as declared, in seconds\n"
      "inline constexpr int kRatio = {};  // a communication step is whole macro steps H = kRatio h\n"
      "inline constexpr int kSlots = {};  // instances at once\n"
      "inline constexpr int kTunables = {};\n"
      "inline constexpr bool kScheduledExecution = {};  // an FMU of Scheduled Execution alone\n\n",
      request.generator_version, model.name, glue.header_name, glue.header_name, cpp_name(ns), glue.token, request.step,
      glue.dual_rate ? request.ratio : 1, kFmuSlots, values.size(), glue.scheduled);
  s += variable_table(glue.variables);
  const std::string scalar = request.scalar == ScalarType::kFloat ? "float" : "double";
  if (tunable)
    s += "using Calibration = model::Calibration;\nusing Constants = model::Constants;\n"
         "// The model's values (the FMU never writes model::calibration) and the constants the generator\n"
         "// computed from them (constant-initialised, so copied before any instance changes its own).\n"
         "inline Calibration model_calibration() { return model::calibration; }\n"
         "inline const Constants generated_constants = model::fmu0::active_constants;\n";
  else
    s += fmt::format(
        "struct Calibration {{\n  {} none;  // the model has no tunable values\n}};\n"
        "inline Calibration model_calibration() {{ return {{}}; }}\n",
        scalar);
  s += tunable_access(values, scalar);
  s += tunable ? "inline const char* status_value_name(int i) { return model::status_value_names[i]; }\n\n"
               : "inline const char* status_value_name(int) { return \"\"; }\n\n";
  s += "template <int I>\nstruct Slot;\n";
  for (int i = 0; i < kFmuSlots; ++i)
    s += slot(i, tunable ? fmt::format("model::fmu{}", i) : "model", glue.dual_rate, tunable);
  return s + "\n}  // namespace dualrate_fmu\n";
}

}  // namespace dualrate
