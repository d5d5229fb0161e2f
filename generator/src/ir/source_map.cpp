#include "ir/source_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "base/text_io.hpp"

namespace dualrate {

const char* to_string(EquationKind kind) {
  switch (kind) {
    case EquationKind::kDerivative:
      return "derivative";
    case EquationKind::kOutput:
      return "output";
    case EquationKind::kVariable:
      return "variable";
    case EquationKind::kTable:
      return "table";
    case EquationKind::kSchedule:
      return "schedule";
  }
  return "";
}

bool operator<(const Equation& a, const Equation& b) {
  return std::tie(a.line, a.kind, a.name) < std::tie(b.line, b.kind, b.name);
}

bool operator==(const Equation& a, const Equation& b) {
  return a.kind == b.kind && a.name == b.name && a.line == b.line;
}

Equation derivative_equation(const State& x) { return {EquationKind::kDerivative, x.name, x.rhs_loc.line}; }
Equation output_equation(const Output& y) { return {EquationKind::kOutput, y.name, y.expr_loc.line}; }
Equation variable_equation(const Variable& v) { return {EquationKind::kVariable, v.name, v.expr_loc.line}; }
Equation table_equation(const Table& t) { return {EquationKind::kTable, t.name, t.loc.line}; }

std::vector<Equation> schedule_equations(const Model& m) {
  std::vector<Equation> all;
  if (!m.simulation.schedule) return all;
  const ScheduleSpec& s = *m.simulation.schedule;
  for (std::size_t d = 0; d < s.by.size(); ++d)
    all.push_back({EquationKind::kSchedule, s.by_text[d], s.by_loc[d].line});
  return all;
}

std::vector<Equation> model_equations(const Model& m) {
  std::vector<Equation> all;
  for (const auto& x : m.states) all.push_back(derivative_equation(x));
  for (const auto& v : m.variables) all.push_back(variable_equation(v));
  for (const auto& y : m.outputs) all.push_back(output_equation(y));
  for (const auto& t : m.tables) all.push_back(table_equation(*t));
  return all;
}

std::string source_comment(const std::string& file_name, const std::vector<Equation>& sources) {
  std::vector<int> lines;
  lines.reserve(sources.size());
  for (const auto& e : sources) lines.push_back(e.line);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  if (lines.empty()) return "";
  return fmt::format("// {}:{}", file_name, fmt::join(lines, ","));
}

void SourceMap::record(const Equation& e, int line) {
  const auto traced = std::find_if(equations.begin(), equations.end(), [&](const TracedEquation& t) {
    return t.equation.kind == e.kind && t.equation.name == e.name;
  });
  if (traced == equations.end())
    throw std::logic_error(fmt::format("source map: the model has no {} '{}'", to_string(e.kind), e.name));
  auto& lines = traced->lines;
  const auto at = std::lower_bound(lines.begin(), lines.end(), line);
  if (at == lines.end() || *at != line) lines.insert(at, line);
}

std::string source_map_json(const SourceMap& map) {
  std::string s = "{\"model_file\":" + json_string(map.model_file);
  s += ",\"comment_file\":" + json_string(map.comment_file);
  s += ",\"header\":" + json_string(map.header);
  s += ",\"equations\":[";
  for (std::size_t i = 0; i < map.equations.size(); ++i) {
    const TracedEquation& t = map.equations[i];
    s += fmt::format("{}{{\"kind\":{},\"name\":{},\"line\":{},\"generated_lines\":[{}]}}", i ? "," : "",
                     json_string(to_string(t.equation.kind)), json_string(t.equation.name), t.equation.line,
                     fmt::join(t.lines, ","));
  }
  s += "],\"constants\":[";
  for (std::size_t i = 0; i < map.constants.size(); ++i)
    s += fmt::format("{}{{\"name\":{},\"origin\":{}}}", i ? "," : "", json_string(map.constants[i].name),
                     json_string(map.constants[i].origin));
  return s + "]}";
}

}  // namespace dualrate
