#include "fmi/model_description.hpp"

#include <fmt/format.h>

#include <pugixml.hpp>

#include <algorithm>
#include <sstream>

namespace dualrate {

namespace {

using Kind = FmuVariable::Kind;

std::string number(double v) { return fmt::format("{:.17g}", v); }

const char* causality(const FmuVariable& v) {
  switch (v.kind) {
    case Kind::kTime:
      return "independent";
    case Kind::kInput:
      return "input";
    case Kind::kOutput:
      return "output";
    case Kind::kTunable:
      return "parameter";
    default:
      return "local";
  }
}

const char* variability(const FmuVariable& v) { return v.kind == Kind::kTunable ? "tunable" : "continuous"; }

// The initial attribute where its default does not hold: a state with a start value is exact,
// one the task forms calculate is calculated.
const char* initial(const FmuVariable& v) {
  switch (v.kind) {
    case Kind::kState:
      return v.start ? "exact" : "calculated";
    case Kind::kTunable:
      return "exact";
    case Kind::kDerivative:
    case Kind::kOutput:
      return "calculated";
    default:
      return nullptr;
  }
}

// What initialization computes (ModelStructure's InitialUnknown): the outputs, the
// derivatives, and the states the task forms calculate.
bool initial_unknown(const FmuVariable& v) {
  return v.kind == Kind::kOutput || v.kind == Kind::kDerivative || (v.kind == Kind::kState && !v.start);
}

void attributes(pugi::xml_node n, const FmuVariable& v) {
  if (v.start) n.append_attribute("start") = number(*v.start).c_str();
  if (!v.array_start.empty()) {
    std::string starts;
    for (const double x : v.array_start) starts += (starts.empty() ? "" : " ") + number(x);
    n.append_attribute("start") = starts.c_str();
  }
  if (v.min) n.append_attribute("min") = number(*v.min).c_str();
  if (v.max) n.append_attribute("max") = number(*v.max).c_str();
}

void common_attributes(pugi::xml_node root, const Model& model, const FmuDescription& d) {
  root.append_attribute("fmiVersion") = d.fmi_version == 3 ? "3.0" : "2.0";
  root.append_attribute("modelName") = model.name.c_str();
  root.append_attribute(d.fmi_version == 3 ? "instantiationToken" : "guid") = d.token.c_str();
  root.append_attribute("description") = d.description.c_str();
  root.append_attribute("generationTool") = fmt::format("dualrate {}", d.generator_version).c_str();
  root.append_attribute("variableNamingConvention") = "flat";
  if (d.fmi_version == 2) root.append_attribute("numberOfEventIndicators") = "0";
}

void interfaces(pugi::xml_node root, const FmuDescription& d) {
  if (d.scheduled) {
    root.append_child("ScheduledExecution").append_attribute("modelIdentifier") = d.model_identifier.c_str();
    return;
  }
  if (d.model_exchange) {
    pugi::xml_node me = root.append_child("ModelExchange");
    me.append_attribute("modelIdentifier") = d.model_identifier.c_str();
    if (d.fmi_version == 3)
      me.append_attribute("needsCompletedIntegratorStep") = "false";
    else
      me.append_attribute("completedIntegratorStepNotNeeded") = "true";
  }
  pugi::xml_node cs = root.append_child("CoSimulation");
  cs.append_attribute("modelIdentifier") = d.model_identifier.c_str();
  if (d.fmi_version == 3) {
    cs.append_attribute("fixedInternalStepSize") = number(d.internal_step).c_str();
    cs.append_attribute("canHandleVariableCommunicationStepSize") = "true";
  } else {
    cs.append_attribute("canHandleVariableCommunicationStepSize") = "true";
    cs.append_attribute("canInterpolateInputs") = "true";
    cs.append_attribute("maxOutputDerivativeOrder") = "0";
  }
}

void log_categories(pugi::xml_node root) {
  pugi::xml_node categories = root.append_child("LogCategories");
  pugi::xml_node c = categories.append_child("Category");
  c.append_attribute("name") = "logStatusError";
  c.append_attribute("description") = "a call refused: wrong mode, unknown value reference, value out of limits";
  pugi::xml_node w = categories.append_child("Category");
  w.append_attribute("name") = "logStatusWarning";
  w.append_attribute("description") = "a task overrun in Scheduled Execution (the release skipped, counted)";
}

void default_experiment(pugi::xml_node root, const Model& model, const FmuDescription& d) {
  pugi::xml_node e = root.append_child("DefaultExperiment");
  e.append_attribute("startTime") = "0";
  e.append_attribute("stopTime") = number(model.simulation.t_end).c_str();
  e.append_attribute("stepSize") = number(d.step).c_str();
}

// A Scheduled Execution FMU's clocks, and the variables the fast task's partition computes.
void clock(pugi::xml_node vars, const FmuVariable& v) {
  pugi::xml_node n = vars.append_child("Clock");
  n.append_attribute("name") = v.name.c_str();
  n.append_attribute("valueReference") = v.value_reference;
  n.append_attribute("description") = v.description.c_str();
  n.append_attribute("causality") = "input";
  n.append_attribute("intervalVariability") = "constant";
  n.append_attribute("priority") = v.priority;
  n.append_attribute("intervalDecimal") = number(v.interval).c_str();
}

std::uint32_t fast_clock(const FmuDescription& d) {
  for (const FmuVariable& v : d.variables)
    if (v.kind == Kind::kClock) return v.value_reference;
  return 0;
}

void fmi3_variables(pugi::xml_node root, const FmuDescription& d) {
  pugi::xml_node vars = root.append_child("ModelVariables");
  for (const FmuVariable& v : d.variables) {
    if (v.kind == Kind::kClock) {
      clock(vars, v);
      continue;
    }
    // Scheduled Execution: what the fast task reads and gives is discrete, on its clock.
    const bool clocked = d.scheduled && v.kind != Kind::kTime && v.kind != Kind::kTunable;
    pugi::xml_node n = vars.append_child("Float64");
    n.append_attribute("name") = v.name.c_str();
    n.append_attribute("valueReference") = v.value_reference;
    if (!v.description.empty()) n.append_attribute("description") = v.description.c_str();
    n.append_attribute("causality") = causality(v);
    n.append_attribute("variability") = clocked ? "discrete" : variability(v);
    if (clocked) n.append_attribute("clocks") = fast_clock(d);
    if (v.kind == Kind::kTunable || v.kind == Kind::kState) n.append_attribute("initial") = initial(v);
    if (!v.unit.empty()) n.append_attribute("unit") = v.unit.c_str();
    if (v.kind == Kind::kDerivative && !d.scheduled) n.append_attribute("derivative") = v.derivative_of;
    attributes(n, v);
    if (!v.array_start.empty())
      n.append_child("Dimension").append_attribute("start") = static_cast<unsigned long long>(v.array_start.size());
  }
  pugi::xml_node s = root.append_child("ModelStructure");
  for (const FmuVariable& v : d.variables)
    if (v.kind == Kind::kOutput) s.append_child("Output").append_attribute("valueReference") = v.value_reference;
  if (d.scheduled) return;
  for (const FmuVariable& v : d.variables)
    if (v.kind == Kind::kDerivative)
      s.append_child("ContinuousStateDerivative").append_attribute("valueReference") = v.value_reference;
  for (const FmuVariable& v : d.variables)
    if (initial_unknown(v)) s.append_child("InitialUnknown").append_attribute("valueReference") = v.value_reference;
}

void fmi2_variables(pugi::xml_node root, const FmuDescription& d) {
  pugi::xml_node vars = root.append_child("ModelVariables");
  for (const FmuVariable& v : d.variables) {
    pugi::xml_node sv = vars.append_child("ScalarVariable");
    sv.append_attribute("name") = v.name.c_str();
    sv.append_attribute("valueReference") = v.value_reference;
    if (!v.description.empty()) sv.append_attribute("description") = v.description.c_str();
    sv.append_attribute("causality") = causality(v);
    sv.append_attribute("variability") = variability(v);
    if (const char* i = initial(v)) sv.append_attribute("initial") = i;
    pugi::xml_node r = sv.append_child("Real");
    if (!v.unit.empty()) r.append_attribute("unit") = v.unit.c_str();
    // FMI 2.0 names a derivative's state by its 1-based index among ModelVariables.
    if (v.kind == Kind::kDerivative) r.append_attribute("derivative") = v.derivative_of + 1;
    attributes(r, v);
  }
  pugi::xml_node s = root.append_child("ModelStructure");
  pugi::xml_node outputs = s.append_child("Outputs");
  for (const FmuVariable& v : d.variables)
    if (v.kind == Kind::kOutput) outputs.append_child("Unknown").append_attribute("index") = v.value_reference + 1;
  pugi::xml_node derivatives = s.append_child("Derivatives");
  for (const FmuVariable& v : d.variables)
    if (v.kind == Kind::kDerivative)
      derivatives.append_child("Unknown").append_attribute("index") = v.value_reference + 1;
  pugi::xml_node initial_unknowns = s.append_child("InitialUnknowns");
  for (const FmuVariable& v : d.variables)
    if (initial_unknown(v)) initial_unknowns.append_child("Unknown").append_attribute("index") = v.value_reference + 1;
}

// The units the variables name.
void units(pugi::xml_node root, const FmuDescription& d) {
  std::vector<std::string> seen;
  for (const FmuVariable& v : d.variables)
    if (!v.unit.empty() && std::find(seen.begin(), seen.end(), v.unit) == seen.end()) seen.push_back(v.unit);
  if (seen.empty()) return;
  pugi::xml_node defs = root.append_child("UnitDefinitions");
  for (const std::string& u : seen) defs.append_child("Unit").append_attribute("name") = u.c_str();
}

std::string text(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace

std::string model_description_xml(const Model& model, const FmuDescription& d) {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("fmiModelDescription");
  common_attributes(root, model, d);
  interfaces(root, d);
  units(root, d);
  log_categories(root);
  default_experiment(root, model, d);
  if (d.fmi_version == 3)
    fmi3_variables(root, d);
  else
    fmi2_variables(root, d);
  return text(doc);
}

std::string build_description_xml(const FmuDescription& d, const FmuSources& sources) {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("fmiBuildDescription");
  root.append_attribute("fmiVersion") = "3.0";
  pugi::xml_node config = root.append_child("BuildConfiguration");
  config.append_attribute("modelIdentifier") = d.model_identifier.c_str();
  pugi::xml_node set = config.append_child("SourceFileSet");
  set.append_attribute("language") = "C++17";
  set.append_attribute("compiler") = "c++";
  set.append_attribute("compilerOptions") =
      "-std=c++17 -O2 -ffp-contract=off -fvisibility=hidden -fno-exceptions -fno-rtti";
  for (const std::string& f : sources.files) set.append_child("SourceFile").append_attribute("name") = f.c_str();
  for (const auto& [name, value] : sources.defines) {
    pugi::xml_node def = set.append_child("PreprocessorDefinition");
    def.append_attribute("name") = name.c_str();
    if (!value.empty()) def.append_attribute("value") = value.c_str();
  }
  for (const std::string& dir : sources.include_directories)
    set.append_child("IncludeDirectory").append_attribute("name") = dir.c_str();
  return text(doc);
}

}  // namespace dualrate
