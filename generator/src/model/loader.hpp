// The model loader's internal class, shared by its source files (loader.cpp: reading the
// YAML, names and scopes, the first-order sections; second_order.cpp: the second-order form;
// simulation_section.cpp: the simulation section). Not an API: that is load_model_file and
// load_model_text in model/model.hpp. Every check reports a ModelError at the position it
// refers to.
#pragma once

#include <yaml-cpp/yaml.h>

#include <Eigen/Dense>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/expression.hpp"
#include "model/model.hpp"

namespace dualrate::loading {

// What a name of the model file is (Loader::define); text only in messages (to_string).
enum class NameKind {
  kParameter,
  kInput,
  kSlowState,
  kFastState,
  kCoordinate,    // a second-order model's position
  kVelocity,      // and its velocity, q_dot
  kAcceleration,  // q_ddot, a variable of the second-order model
  kVariable,
  kOutput,
  kTable,
};
constexpr const char* to_string(NameKind k) {
  switch (k) {
    case NameKind::kParameter:
      return "parameter";
    case NameKind::kInput:
      return "input";
    case NameKind::kSlowState:
      return "slow state";
    case NameKind::kFastState:
      return "fast state";
    case NameKind::kCoordinate:
      return "coordinate";
    case NameKind::kVelocity:
      return "velocity";
    case NameKind::kAcceleration:
      return "acceleration";
    case NameKind::kVariable:
      return "variable";
    case NameKind::kOutput:
      return "output";
    case NameKind::kTable:
      return "table";
  }
  return "";
}

inline const std::set<std::string>& cpp_keywords() {
  static const std::set<std::string> words = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq",      "main"};
  return words;
}

// Names the model language itself gives a meaning (with why).
inline const std::map<std::string, std::string>& reserved_names() {
  static const std::map<std::string, std::string> names = {
      {"t", "it is time"},
      {"pi", "it is the constant pi"},
  };
  return names;
}

inline const std::vector<std::string> kTopKeys = {"name",      "description", "parameters", "inputs",     "states",
                                                  "variables", "equations",   "outputs",    "simulation", "coordinates",
                                                  "mass",      "forces",      "small",      "tables"};
inline const std::vector<std::string> kParameterKeys = {"value", "unit", "description", "tunable", "min", "max"};
inline const std::vector<std::string> kInputKeys = {"value", "hold", "jump", "unit", "description"};
inline const std::vector<std::string> kCoordinateKeys = {"position", "velocity"};
inline const std::vector<std::string> kMassKeys = {"diagonal", "rows"};
inline const std::vector<std::string> kSmallKeys = {"coordinates", "parameter"};
inline const std::vector<std::string> kStateKeys = {"slow", "fast"};
inline const std::vector<std::string> kSimulationKeys = {"t_end",
                                                         "scheme",
                                                         "step",
                                                         "ratio",
                                                         "linearization",
                                                         "schedule",
                                                         "inputs",
                                                         "inputs_before_start",
                                                         "calibration",
                                                         "tolerance",
                                                         "absolute_tolerance",
                                                         "scheme_options"};

inline std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

// How `text` reads as a number written out in decimal, as in -0.25 or 1.5e3 (no expression):
// finite (then in `value`), not finite (.inf, .nan, beyond double's range) or not a number.
enum class NumberText { kFinite, kNotFinite, kNotANumber };
NumberText number_text(const std::string& text, double& value);

// A key and its value in a mapping.
using KeyValue = std::pair<YAML::Node, YAML::Node>;

// The limits of a tunable parameter's or table's values (min, max), and where they start.
struct Limits {
  double min = 0, max = 0;
  SourceLoc loc;
};

// clang-tidy 14 takes Entry's implicit assignment for noexcept; it is not (YAML::Node's may
// throw), and nothing relies on it being so.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Entry {
  std::string name;
  YAML::Node key;
  YAML::Node value;
};

// The writes of a calibration scenario (calibration_section.cpp): `list` read for model m (its
// parameters and tables read), positioned in `file`; `owner` is the key of an empty list.
std::vector<CalibrationWrite> read_calibration(const Model& m, const std::string& file, const YAML::Node& list,
                                               const YAML::Node& owner);

class Loader {
 public:
  Loader(std::string text, std::string file, std::vector<ParameterOverride> overrides);

  Model load();

 private:
  SourceLoc at(const YAML::Mark& m) const;
  SourceLoc at(const YAML::Node& n) const { return at(n.Mark()); }

  // The keys of a mapping, each checked against `allowed` and for duplicates.
  std::map<std::string, KeyValue> keys(const YAML::Node& node, const std::vector<std::string>& allowed,
                                       const std::string& where, const YAML::Node& owner = {});

  std::string key_name(const YAML::Node& key, const std::string& where);

  KeyValue require(const YAML::Node& root, const std::map<std::string, KeyValue>& top, const std::string& key);

  // A value given as `key: value`; an empty value is reported at its key.
  std::string scalar(const KeyValue& kv, const std::string& what);

  // An optional name: value section, in file order.
  std::vector<Entry> section(const std::map<std::string, KeyValue>& top, const std::string& key);

  std::vector<Entry> entries(const YAML::Node& node, const std::string& where);

  void read_name(const KeyValue& kv);

  Named define(const Entry& e, NameKind kind);
  // Whether `name` is defined as a `kind`.
  bool is(const std::string& name, NameKind kind) const;

  ExpressionText text_of(const YAML::Node& key, const YAML::Node& node, const std::string& what);

  GiNaC::ex expression(const YAML::Node& key, const YAML::Node& value, const ExpressionScope& scope);

  double evaluate(const GiNaC::ex& e, const YAML::Node& node, const std::string& what);

  ExpressionScope parameter_scope(const std::string& what, std::size_t available);

  ExpressionScope dynamic_scope(const std::string& what);

  void check_overrides(const std::map<std::string, KeyValue>& top);

  // parameter_section.cpp: each parameter's value (a number, an expression of earlier
  // parameters, or the mapping form with its unit, description and calibration), then the
  // command line's override.
  void read_parameters(const std::vector<Entry>& params);
  // The mapping form's unit, description and calibration into p; returns its `value`.
  KeyValue read_parameter_mapping(const Entry& e, Parameter& p);
  // The keys of a parameter's or input's mapping form (`allowed`), whose value is required
  // (`example` the hint when it is missing), with its unit and description read into `named`.
  template <class NamedValue>
  std::map<std::string, KeyValue> value_mapping(const Entry& e, const std::vector<std::string>& allowed,
                                                const std::string& owner, const std::string& example,
                                                NamedValue& named);
  // A tunable parameter's value is a number written out (checked before it is parsed).
  void check_tunable_text(const KeyValue& value, const Parameter& p);
  void apply_override(Parameter& p);
  // `tunable: true | false` of `owner` ("parameter 'R'", "table 'friction'").
  bool tunable_flag(const KeyValue& kv, const std::string& owner);
  // The min and max of `owner`, whose keys are `k`: required (else an error at `tunable_key`),
  // finite and min < max when it is tunable, an error when it is not.
  Limits read_limits(const std::map<std::string, KeyValue>& k, bool tunable, const YAML::Node& tunable_key,
                     const std::string& owner);
  double limit(const KeyValue& kv, const std::string& what);

  // table_section.cpp: each table's data, checked, registered in model_.tables.
  void read_tables(const std::vector<Entry>& entries);
  // The value of `key: word` of `owner`, one of `allowed` (the first is the default).
  std::string keyword(const KeyValue& kv, const std::string& key, const std::string& owner,
                      const std::vector<std::string>& allowed);
  double table_value(const YAML::Node& node, const std::string& what);
  void table_values(const YAML::Node& node, const Table& t, std::size_t axis, std::vector<double>& out);
  void table_values_file(const KeyValue& kv, Table& t);
  void read_breakpoints(const Entry& e, const KeyValue& bp, Table& t);
  void read_axis_units(const KeyValue& kv, Table& t);
  // A tunable table's value `v` (written `text` at `loc`) lies within its limits.
  static void check_table_limits(const Table& t, double v, const std::string& text, const SourceLoc& loc);

  void read_inputs(const std::vector<Entry>& entries);
  KeyValue read_input_mapping(const Entry& e, Input& u);

  void read_initial_values(const std::vector<Entry>& entries);

  // Parses all variables, then orders them so that each comes after the variables it uses
  // (file order otherwise); a cycle is an error.
  void read_variables(const std::vector<Entry>& entries, std::vector<Variable>& variables);

  // A model is written either in first-order form (states, equations) or in second-order
  // form (coordinates, mass, forces and optionally small), which may add first-order slow
  // states (controller integrators, filters) with their equations.
  void check_form(const YAML::Node& root, const std::map<std::string, KeyValue>& top, bool second_order);

  NameKind state_kind(const Entry& e, bool fast) const;

  // The first-order states of a second-order model: every coordinate's position, then the
  // velocities (name q_dot) of the coordinates with large inertia (slow), then those of the
  // small-inertia coordinates (fast). Initial values are the coordinates' position and velocity.
  void second_order_states(const std::map<std::string, KeyValue>& top, std::vector<Entry>& slow,
                           std::vector<Entry>& fast);

  void read_small(const KeyValue& section, SecondOrder& so);
  void read_states(const KeyValue& section, std::vector<Entry>& slow, std::vector<Entry>& fast);

  // Each coordinate's force becomes a variable named q_force (so that it is evaluated once).
  void force_entries(const std::map<std::string, KeyValue>& top, std::vector<Entry>& vars);

  // The mass matrix (constant: numbers and parameters), checked symmetric and positive
  // definite, and the first-order equations: q' = q_dot, q_dot' = (M^-1 f)_q.
  void read_second_order(const std::map<std::string, KeyValue>& top);

  // (M^-1 f)_q for a diagonal M (divided by the entry) or a constant one (M^-1 from the
  // parameter values, `m`).
  std::vector<GiNaC::ex> constant_accelerations(const Eigen::MatrixXd& m) const;

  // A full mass matrix that depends on the coordinates: the accelerations are variables
  // q_ddot solved together at run time (Variable::solved), their expressions M(q)^-1 f
  // symbolically.
  std::vector<GiNaC::ex> solve_accelerations(const KeyValue& section);

  static std::string initially(const SecondOrder& so) { return so.constant_mass ? "" : " at the initial positions"; }

  Eigen::MatrixXd read_mass(const KeyValue& section, SecondOrder& so);
  // Entry (i, j) of the mass matrix, into so.mass; returns its value at the initial positions
  // (`start`: coordinate -> initial position).
  double read_mass_entry(const YAML::Node& node, std::size_t i, std::size_t j, const GiNaC::exmap& start,
                         SecondOrder& so);
  // `kv` (mass.diagonal, mass.rows or one of its rows, named `what`) has one entry per coordinate.
  void check_mass_entries(const KeyValue& kv, const std::string& what, const SecondOrder& so) const;
  // Symmetric to rounding at the initial positions, and symbolically when it depends on them.
  void check_mass_symmetric(const KeyValue& rows, const Eigen::MatrixXd& m, const SecondOrder& so) const;
  void check_mass_positive_definite(const KeyValue& section, const Eigen::MatrixXd& m, const SecondOrder& so) const;

  void read_equations(const KeyValue& section);

  double positive(const KeyValue& kv, const std::string& what);
  // simulation: schedule: (simulation_section.cpp): the scheduling values (by), their ranges,
  // and each value's grid (points: auto, a count, or the points themselves).
  void read_schedule(const KeyValue& section);
  void read_schedule_by(const KeyValue& by, ScheduleSpec& spec);
  void read_schedule_range(const KeyValue& range, ScheduleSpec& spec);
  void read_schedule_points(const KeyValue& points, ScheduleSpec& spec);
  void read_grid_count(const YAML::Node& p, std::size_t d, ScheduleSpec& spec);
  void read_grid_points(const YAML::Node& p, std::size_t d, ScheduleSpec& spec);

  void read_simulation(const KeyValue& section);
  void read_absolute_tolerance(const KeyValue& section);
  void read_scheme_options(const KeyValue& section);

  std::string text_;
  std::string file_;
  std::vector<ParameterOverride> overrides_;
  YAML::Node small_parameter_node_;
  bool partitioned_ = true;  // states: gives slow: and fast: (Model::partitioned)
  std::vector<std::string> lines_;
  Model model_;
  GiNaC::ex time_ex_ = model_.time;
  std::map<std::string, SourceLoc> defined_;
  std::map<std::string, NameKind> kind_;
  std::vector<Variable> all_variables_;
};

}  // namespace dualrate::loading
