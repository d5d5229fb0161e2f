// Equation-to-code traceability. The equations of a model are its state derivatives, outputs
// and variables, each known by the line of its expression in the model file, and its tables'
// data, known by the line of the table's name. Every emitted
// statement that computes one ends in a comment naming its source, `// FILE:LINE` (FILE the
// model file's name without its directory, so that no machine path enters the header;
// `// FILE:L1,L2` for a statement that serves several equations), and generate_traced_header
// (emit/cpp_emitter.hpp) records the header lines of each equation's statements in a SourceMap,
// with the scheme constants and the analysis each came from; `generate --trace` writes it
// as JSON (source_map_json).
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

enum class EquationKind { kDerivative, kOutput, kVariable, kTable, kSchedule };
const char* to_string(EquationKind kind);  // "derivative", "output", "variable", "table", "schedule"

struct Equation {
  EquationKind kind = EquationKind::kDerivative;
  std::string name;  // the state's, output's, variable's or table's
  int line = 0;      // of its expression in the model file (a table: of its name)
};

// Ordered by line, then kind and name.
bool operator<(const Equation& a, const Equation& b);
bool operator==(const Equation& a, const Equation& b);

Equation derivative_equation(const State& x);
Equation output_equation(const Output& y);
Equation variable_equation(const Variable& v);
Equation table_equation(const Table& t);

// The model's equations: derivatives in state order, variables in evaluation order, outputs,
// tables in file order.
std::vector<Equation> model_equations(const Model& m);
// The scheduling values of simulation: schedule: by (traced when the constants are scheduled),
// named by their text.
std::vector<Equation> schedule_equations(const Model& m);

// `// FILE:L1,L2`: the comment that ends a statement serving `sources` (ascending lines, each
// once); empty when there is none.
std::string source_comment(const std::string& file_name, const std::vector<Equation>& sources);

struct TracedEquation {
  Equation equation;
  std::vector<int> lines;  // of the generated header (1-based), ascending
};

// A constant the scheme's precompute hook put into SchemeConstants.
struct TracedConstant {
  std::string name;    // as emitted
  std::string origin;  // the analysis that produced it, as the hook says
};

struct SourceMap {
  std::string model_file;                 // as the header's first line names it
  std::string comment_file;               // as the comments name it
  std::string header;                     // the generated header's file name
  std::vector<TracedEquation> equations;  // model_equations' order
  std::vector<TracedConstant> constants;  // in emission order

  // Adds header line `line` to the equation `e` (std::logic_error when the model has no such
  // equation).
  void record(const Equation& e, int line);
};

// One JSON object: {"model_file", "comment_file", "header", "equations": [{"kind", "name",
// "line", "generated_lines": [...]}], "constants": [{"name", "origin"}]}, in SourceMap's order.
std::string source_map_json(const SourceMap& map);

}  // namespace dualrate
