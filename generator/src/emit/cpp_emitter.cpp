// Size: one function per section of the generated header, in emission order, and the Code and
// statement emission (emit_body) they all print through: the header's layout reads in one place.
#include "emit/cpp_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "emit/calibration.hpp"
#include "emit/constants.hpp"
#include "ir/straight_line.hpp"
#include "model/functions.hpp"
#include "model/printing.hpp"
#include "model/tunable.hpp"
#include "numeric/calibrated_jacobian.hpp"
#include "numeric/linearization.hpp"
#include "schemes/compensated_states.hpp"
#include "registry/registry.hpp"

namespace dualrate {

constexpr int kRuntimeApi = 9;  // DUALRATE_RUNTIME_API of the runtime the emitted code is written for

using GiNaC::ex;

namespace {

std::string names_array(const std::string& member, const std::string& size, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + ("\"" + n + "\"");
  return fmt::format("  static constexpr std::array<const char*, {}> {}{{{{{}}}}};\n", size, member, list);
}

// The model file as the source comments name it: its file name, without the directory the
// command line gave (a machine path).
std::string comment_file(const Model& m) { return std::filesystem::path(m.file).filename().string(); }

// Generated code, and which of its lines are statements of model equations.
class Code {
 public:
  explicit Code(std::string comment_file) : comment_file_(std::move(comment_file)) {}

  Code& operator<<(const std::string& text) {
    text_ += text;
    lines_ += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    return *this;
  }
  Code& operator<<(const Code& code) {
    for (const auto& [line, sources] : code.statements_) statements_.emplace_back(lines_ + line, sources);
    return *this << code.text_;
  }
  // One line, `code` and the comment naming the equations it serves.
  void statement(const std::string& code, std::vector<Equation> sources) {
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    const std::string comment = source_comment(comment_file_, sources);
    statements_.emplace_back(lines_, std::move(sources));
    *this << code + (comment.empty() ? "" : "  " + comment) + "\n";
  }

  const std::string& text() const { return text_; }
  // Each statement's line (0-based) and sources.
  const std::vector<std::pair<int, std::vector<Equation>>>& statements() const { return statements_; }

 private:
  std::string comment_file_;
  std::string text_;
  int lines_ = 0;
  std::vector<std::pair<int, std::vector<Equation>>> statements_;
};

// The run-time solve M(q) a = f of a second-order model's q-dependent mass matrix, each line a
// statement of the accelerations it solves for (`sources`).
void mass_solve(const Model& m, const std::vector<Equation>& sources, Code& code) {
  const SecondOrder& so = *m.second_order;
  const std::size_t n = so.coordinates.size();
  code.statement(fmt::format("    Eigen::Matrix<Scalar, {0}, {0}> mass_;", n), sources);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      code.statement(fmt::format("    mass_({}, {}) = {};", i, j, cpp_expression(m.with_time_terms(so.mass[i][j]))),
                     sources);
  code.statement(fmt::format("    Eigen::Matrix<Scalar, {}, 1> force_;", n), sources);
  for (std::size_t i = 0; i < n; ++i)
    code.statement(fmt::format("    force_[{}] = {};", i, cpp_expression(m.with_time_terms(so.forces[i]))), sources);
  code.statement(
      fmt::format("    const Eigen::Matrix<Scalar, {}, 1> acceleration_ = dualrate::solve_mass(mass_, force_);", n),
      sources);
}

// The body of a function of (t, x_, u_) that assigns `targets[i] = roots[i]`.
struct Body {
  Code code;
  bool uses_time = false;
  bool uses_inputs = false;
  bool uses_states = false;
};

// Each root's source is root_sources[i]; a model variable's local is its own equation's
// statement, a shared term's serves the equations of the variables and roots it is computed
// for (served).
Body emit_body(const Model& m, const std::vector<ex>& roots, const std::vector<Equation>& root_sources,
               const std::string& target) {
  Body b{Code(comment_file(m))};
  const StraightLine body = straight_line(m, roots);
  const std::vector<Served> serving = served(body);
  const auto sources = [&](std::size_t local) {
    std::vector<Equation> s;
    for (const Variable* v : serving[local].variables) s.push_back(variable_equation(*v));
    for (std::size_t r : serving[local].results) s.push_back(root_sources.at(r));
    return s;
  };
  std::vector<Equation> solve_sources;  // the accelerations the mass solve computes
  for (const auto& l : body.locals)
    if (l.solved()) solve_sources.push_back(variable_equation(*l.variable));
  std::vector<ex> all = body.results;
  for (const auto& l : body.locals) all.push_back(l.solved() ? m.operands(*l.variable) : l.value);
  const auto used = [&](const ex& symbol) {
    for (const auto& e : all)
      if (e.has(symbol)) return true;
    return false;
  };
  Code& out = b.code;
  for (std::size_t i = 0; i < m.states.size(); ++i)
    if (used(m.states[i].symbol)) {
      out << fmt::format("    const Scalar {} = x_[{}];\n", m.states[i].cpp(), i);
      b.uses_states = true;
    }
  for (std::size_t i = 0; i < m.inputs.size(); ++i)
    if (used(m.inputs[i].symbol)) {
      out << fmt::format("    const Scalar {} = u_[{}];\n", m.inputs[i].cpp(), i);
      b.uses_inputs = true;
    }
  bool solved = false;  // the accelerations share one solve
  for (std::size_t i = 0; i < body.locals.size(); ++i) {
    const Local& l = body.locals[i];
    if (!l.solved()) {
      out.statement(fmt::format("    const Scalar {} = {};", l.name(), cpp_expression(l.value)), sources(i));
      continue;
    }
    if (!solved) mass_solve(m, solve_sources, out);
    solved = true;
    const auto& a = m.second_order->accelerations;
    out.statement(fmt::format("    const Scalar {} = acceleration_[{}];", l.name(),
                              std::find(a.begin(), a.end(), l.variable->symbol) - a.begin()),
                  sources(i));
  }
  for (std::size_t i = 0; i < body.results.size(); ++i)
    out.statement(fmt::format("    {}[{}] = {};", target, i, cpp_expression(body.results[i])), {root_sources.at(i)});
  b.uses_time = used(m.time);
  return b;
}

// The derivative equations of states [begin, end).
std::vector<Equation> derivative_sources(const Model& m, std::size_t begin, std::size_t end) {
  std::vector<Equation> sources;
  for (std::size_t i = begin; i < end; ++i) sources.push_back(derivative_equation(m.states[i]));
  return sources;
}

// `static void NAME(t, x_, u_, TYPE& dxdt_)` assigning dxdt_[i] = roots[i] (a statement of
// root_sources[i]), after `// COMMENT`.
Code rate_function(const Model& m, const std::string& comment, const std::string& name, const std::string& type,
                   const std::vector<ex>& roots, const std::vector<Equation>& root_sources) {
  const Body b = emit_body(m, roots, root_sources, "dxdt_");
  Code code(comment_file(m));
  code << fmt::format("  // {}\n  static void {}(Time {}, const State& {}, const Input& {}, {}& {}) noexcept {{\n",
                      comment, name, b.uses_time ? "t" : "/*t*/", b.uses_states ? "x_" : "/*x_*/",
                      b.uses_inputs ? "u_" : "/*u_*/", type, roots.empty() ? "/*dxdt_*/" : "dxdt_");
  code << b.code << "  }\n";
  return code;
}

// `static void jacobian(t, x_, u_, j_, dfdt_)`: d(state)/dt's Jacobian in the states and its
// partial derivative in t (inputs held), over the Jacobian's nonzero entries; an entry's
// statements are those of its row's equation.
Code jacobian_function(const Model& m) {
  if (m.second_order && !m.second_order->constant_mass)
    throw ModelError(m.second_order->mass_loc,
                     "--jacobian needs a constant mass matrix: this one depends on the coordinates, and the "
                     "accelerations are solved at run time",
                     "generate without --jacobian");
  // With tunable values: the calibrated parameters by name, so that the Jacobian follows them.
  const bool calibrated = has_tunable(m);
  const GiNaC::matrix j = calibrated ? calibrated_jacobian(m, state_symbols(m)) : jacobian(m, state_symbols(m));
  const GiNaC::matrix dfdt = calibrated ? calibrated_jacobian(m, {m.time}) : jacobian(m, {m.time});
  std::vector<ex> roots;
  std::vector<Equation> sources;
  std::vector<std::pair<unsigned, unsigned>> entries;
  for (unsigned r = 0; r < j.rows(); ++r)
    for (unsigned c = 0; c < j.cols(); ++c) {
      if (j(r, c).is_zero()) continue;
      roots.push_back(j(r, c));
      sources.push_back(derivative_equation(m.states[r]));
      entries.emplace_back(r, c);
    }
  for (unsigned r = 0; r < dfdt.rows(); ++r) {
    roots.push_back(dfdt(r, 0));
    sources.push_back(derivative_equation(m.states[r]));
  }
  const Body b = emit_body(m, roots, sources, "e_");
  Code s(comment_file(m));
  s << fmt::format(
      "  // d(state)/dt's Jacobian in the states (j_, {} nonzero entries) and its partial derivative in t\n"
      "  // with the inputs held (dfdt_): for implicit integrators (e.g. Boost.Odeint's rosenbrock4).\n"
      "  static void jacobian(Time {}, const State& {}, const Input& {}, Eigen::Matrix<Scalar, kStates, kStates>& j_,\n"
      "                       State& dfdt_) noexcept {{\n"
      "    Eigen::Matrix<Scalar, {}, 1> e_;\n",
      entries.size(), b.uses_time ? "t" : "/*t*/", b.uses_states ? "x_" : "/*x_*/", b.uses_inputs ? "u_" : "/*u_*/",
      roots.size());
  s << b.code << "    j_.setZero();\n";
  for (std::size_t k = 0; k < entries.size(); ++k)
    s.statement(fmt::format("    j_({}, {}) = e_[{}];", entries[k].first, entries[k].second, k), {sources[k]});
  for (unsigned r = 0; r < dfdt.rows(); ++r)
    s.statement(fmt::format("    dfdt_[{}] = e_[{}];", r, entries.size() + r), {sources[entries.size() + r]});
  s << "  }\n\n";
  return s;
}

// The tables' data as constexpr arrays of Scalar (in flash on a target) and each table's
// function, which calls dualrate::lookup::table: T(x...) its value, T<S>(x...) with S = 1 << d
// its partial derivative in x_d.
void table_definitions(const Model& m, ScalarType scalar, Code& h) {
  if (m.tables.empty()) return;
  h << "\n  // Tables (data fixed at generation; interpolation: dualrate/lookup.hpp).\n";
  for (const auto& tp : m.tables) {
    const Table& t = *tp;
    const std::vector<Equation> source = {table_equation(t)};
    std::string shape, params, args;
    for (std::size_t d = 0; d < t.axes(); ++d) {
      shape += (d ? " x " : "") + std::to_string(t.breakpoints[d].size());
      params += fmt::format("{}Scalar x{}_", d ? ", " : "", d);
      args += fmt::format(", {}, x{}_", cpp_array(t.name, "axis" + std::to_string(d)), d);
    }
    h << fmt::format("  // {}: {} breakpoints, {} interpolation, {} extrapolation.\n", t.name, shape,
                     Table::to_string(t.interpolation), Table::to_string(t.extrapolation));
    for (std::size_t d = 0; d < t.axes(); ++d) {
      const std::vector<double>& b = t.breakpoints[d];
      if (const std::size_t i = equal_in_scalar(b, scalar))
        throw ModelError(t.breakpoints_loc,
                         fmt::format("breakpoints {:.17g} and {:.17g} of axis {} of table '{}' are equal in {}",
                                     b[i - 1], b[i], d + 1, t.name, to_string(scalar)),
                         "space them further apart, or generate with --scalar double");
      h.statement(axis_definition(cpp_array(t.name, "axis" + std::to_string(d)), b, scalar), source);
    }
    const std::size_t row = t.breakpoints.back().size();
    if (!t.values_file.empty())
      h << fmt::format("  // {}'s values: {}, next to the model file.\n", t.name, t.values_file);
    if (t.tunable) {
      const std::string member = calibrated_table_values_member(t);
      const std::size_t declaration = member.rfind('\n') + 1;
      h << member.substr(0, declaration);
      h.statement(member.substr(declaration), source);
    } else {
      h.statement(fmt::format("  static constexpr Scalar {}[{}] = {{", cpp_array(t.name, "values"), t.values.size()),
                  source);
      for (std::size_t i = 0; i < t.values.size(); i += row) {
        std::string line;
        for (std::size_t j = i; j < i + row; ++j) line += (j > i ? ", " : "") + scalar_literal(t.values[j]);
        h << "      " + line + ",\n";
      }
      h << "  };\n";
    }
    h << fmt::format("  template <unsigned S = 0>\n  static Scalar {}({}) noexcept {{\n", cpp_name(t.name), params);
    h << fmt::format(
        "    return dualrate::lookup::table<dualrate::lookup::Interpolation::{}, "
        "dualrate::lookup::Extrapolation::{}, S>(\n        {}{});\n  }}\n",
        t.interpolation == Table::Interpolation::kLinear ? "kLinear" : "kFlat",
        t.extrapolation == Table::Extrapolation::kClamp ? "kClamp" : "kLinear", cpp_array(t.name, "values"), args);
  }
}

// Model::scheduling_values, the model file's simulation: schedule: by (scheduled constants only).
void scheduling_values_function(const Model& m, Code& h) {
  const ScheduleSpec& spec = *m.simulation.schedule;
  const Body b = emit_body(m, spec.by, schedule_equations(m), "s_");
  std::string names;
  for (const auto& t : spec.by_text) names += (names.empty() ? "" : ", ") + t;
  h << fmt::format("  // Scheduling values (simulation: schedule: by): {}.\n", names);
  h << fmt::format("  using ScheduleValues = Eigen::Matrix<Scalar, {}, 1>;\n", spec.by.size());
  h << fmt::format("  static ScheduleValues scheduling_values(Time {}, const State& {}, const Input& {}) noexcept {{\n",
                   b.uses_time ? "t" : "/*t*/", b.uses_states ? "x_" : "/*x_*/", b.uses_inputs ? "u_" : "/*u_*/");
  h << "    ScheduleValues s_;\n" << b.code << "    return s_;\n  }\n\n";
}

std::string comment_lines(const std::string& text, const std::string& indent) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    out += indent + "//" + (line.empty() ? "" : " " + line) + "\n";
  }
  return out;
}

}  // namespace

std::string generated_namespace(const Model& m, const GenerateRequest& request) {
  return request.name_space.empty() ? m.name : request.name_space;
}

std::string generate_header(const Model& m, const GenerateRequest& request, const SchemeDesign& design) {
  return generate_traced_header(m, request, design).text;
}

namespace {

// The map of the header `code`: each statement's line under each of its sources, the scheme's
// constants in emission order.
SourceMap source_map(const Model& m, const GenerateRequest& request, const SchemeDesign& design, const Code& code) {
  SourceMap map;
  map.model_file = m.file;
  map.comment_file = comment_file(m);
  map.header = generated_namespace(m, request) + ".hpp";
  for (const auto& e : model_equations(m)) map.equations.push_back({e, {}});
  if (design.schedule)
    for (const auto& e : schedule_equations(m)) map.equations.push_back({e, {}});
  for (const auto& [line, sources] : code.statements())
    for (const auto& e : sources) map.record(e, line + 1);
  for (const auto& c : design.matrices) map.constants.push_back({c.name, c.origin});
  for (const auto& r : design.reals) map.constants.push_back({r.name, r.origin});
  for (const auto& i : design.integers) map.constants.push_back({i.name, i.origin});
  return map;
}

// The banner (what read_header_banner reads), the model's description, the includes and the
// check of the runtime's API.
void preamble(const Model& m, const GenerateRequest& o, const SchemeInfo& scheme, const std::string& ns, Code& h) {
  h << fmt::format(
      "// {}.hpp: generated by dualrate {} from {} (the model file as named on the command line). Do "
      "not edit; regenerate.\n",
      ns, o.generator_version, m.file);
  h << fmt::format("// Scheme {} ({}), step h = {:.17g}, scalar {}.\n", scheme.identity.name, scheme.identity.summary,
                   o.step, to_string(o.scalar));
  if (!m.description.empty()) {
    h << "//\n";
    h << comment_lines(m.description, "");
  }
  h << "#pragma once\n\n#include <array>\n#include <cmath>\n\n#include <dualrate/runtime.hpp>\n\n";
  h << fmt::format("#if !defined(DUALRATE_RUNTIME_API) || DUALRATE_RUNTIME_API != {}\n", kRuntimeApi);
  h << fmt::format(
      "#error \"{}.hpp was generated for dualrate runtime API {}: use the matching runtime or regenerate\"\n", ns,
      kRuntimeApi);
  h << "#endif\n\n";
}

// Model's Scalar and Time, its sizes, the vector types of its states, inputs and outputs, and
// their names.
void model_types(const Model& m, ScalarType scalar, Code& h) {
  h << fmt::format("  using Scalar = {};\n", to_string(scalar));
  if (m.uses_time())
    h << "  using Time = double;  // of t: the terms of t and parameters are computed in it, then rounded to Scalar\n";
  else if (m.holds_inputs())
    h << "  using Time = double;  // of t: a stage's offset from the step's start is taken in it (held inputs)\n";
  else
    h << "  using Time = Scalar;  // of t, which no equation or input signal uses\n";
  h << fmt::format("  static constexpr int kSlow = {};\n", m.slow_count);
  h << fmt::format("  static constexpr int kFast = {};\n", m.fast_count());
  h << "  static constexpr int kStates = kSlow + kFast;\n";
  h << fmt::format("  static constexpr int kInputs = {};\n", m.inputs.size());
  h << fmt::format("  static constexpr int kOutputs = {};\n", m.outputs.size());
  h << "  using State = Eigen::Matrix<Scalar, kStates, 1>;  // [slow; fast]\n";
  h << "  using Input = Eigen::Matrix<Scalar, kInputs, 1>;\n";
  h << "  using Output = Eigen::Matrix<Scalar, kOutputs, 1>;\n";
  h << "  using SlowState = Eigen::Matrix<Scalar, kSlow, 1>;\n";
  h << "  using FastState = Eigen::Matrix<Scalar, kFast, 1>;\n\n";

  std::vector<std::string> names;
  for (const auto& x : m.states) names.push_back(x.name);
  h << names_array("state_names", "kStates", names);
  names.clear();
  for (const auto& u : m.inputs) names.push_back(u.name);
  h << names_array("input_names", "kInputs", names);
  if (m.holds_inputs()) {
    std::string holds;
    for (const auto& u : m.inputs) holds += fmt::format("{}{}", holds.empty() ? "" : ", ", static_cast<int>(u.hold));
    h << "  // Each input's hold between its samples (dualrate/input_hold.hpp): 0 zero, 1 linear, 2 quadratic.\n";
    h << fmt::format("  static constexpr std::array<int, kInputs> input_holds{{{{{}}}}};\n", holds);
  }
  if (m.detects_jumps()) {
    std::string jumps;
    for (const auto& u : m.inputs) jumps += fmt::format("{}{}", jumps.empty() ? "" : ", ", scalar_literal(u.jump));
    h << "  // A change between two samples larger than this is a step (dualrate/input_jump.hpp; 0: none).\n";
    h << fmt::format("  static constexpr std::array<Scalar, kInputs> input_jumps{{{{{}}}}};\n", jumps);
  }
  names.clear();
  for (const auto& y : m.outputs) names.push_back(y.name);
  h << names_array("output_names", "kOutputs", names);
}

// The parameters as constants of Scalar, each with its value in decimal.
void parameter_definitions(const Model& m, Code& h) {
  if (!m.parameters.empty()) h << "\n  // Parameters (values fixed at generation).\n";
  for (const auto& p : m.parameters)
    if (p.tunable || depends_on_tunable(m, p))
      h << calibrated_parameter_member(p);
    else
      h << fmt::format("  static constexpr Scalar {} = {};  // {:.17g}{}\n", p.cpp(), scalar_literal(p.value), p.value,
                       p.overridden ? " (--param)" : "");
}

// initial_state() and default_inputs(): the states' initial values and the inputs' defaults.
void initial_values(const Model& m, Code& h) {
  h << "\n  static State initial_state() noexcept {\n    State x_;\n";
  for (std::size_t i = 0; i < m.states.size(); ++i)
    h << fmt::format("    x_[{}] = {};  // {}\n", i, scalar_literal(m.states[i].initial_value), m.states[i].name);
  h << "    return x_;\n  }\n\n";

  h << "  static Input default_inputs() noexcept {\n    Input u_;\n";
  for (std::size_t i = 0; i < m.inputs.size(); ++i)
    h << fmt::format("    u_[{}] = {};  // {}\n", i, scalar_literal(m.inputs[i].default_value), m.inputs[i].name);
  h << "    return u_;\n  }\n\n";
}

// derivatives, slow_derivatives and fast_derivatives: the states' right-hand sides, all of
// them, the slow ones and the fast ones.
void derivative_functions(const Model& m, Code& h) {
  std::vector<ex> rhs;
  for (const auto& x : m.states) rhs.push_back(x.rhs);
  const auto slow_end = rhs.begin() + static_cast<long>(m.slow_count);
  h << rate_function(m, "d(state)/dt: the model's equations.", "derivatives", "State", rhs,
                     derivative_sources(m, 0, m.states.size()))
    << "\n";
  h << rate_function(m, "d(slow state)/dt alone (f of x' = f(x, z)), for schemes that evaluate only the slow part.",
                     "slow_derivatives", "SlowState", {rhs.begin(), slow_end}, derivative_sources(m, 0, m.slow_count))
    << "\n";
  h << rate_function(m, "d(fast state)/dt alone (g of z' = g(x, z)), for schemes that evaluate only the fast part.",
                     "fast_derivatives", "FastState", {slow_end, rhs.end()},
                     derivative_sources(m, m.slow_count, m.states.size()))
    << "\n";
}

// outputs(t, x_, u_, y_): the model's outputs.
void outputs_function(const Model& m, Code& h) {
  std::vector<ex> outs;
  std::vector<Equation> out_sources;
  for (const auto& y : m.outputs) {
    outs.push_back(y.expr);
    out_sources.push_back(output_equation(y));
  }
  const Body y = emit_body(m, outs, out_sources, "y_");
  h << fmt::format("  static void outputs(Time {}, const State& {}, const Input& {}, Output& {}) noexcept {{\n",
                   y.uses_time ? "t" : "/*t*/", y.uses_states ? "x_" : "/*x_*/", y.uses_inputs ? "u_" : "/*u_*/",
                   m.outputs.empty() ? "/*y_*/" : "y_");
  h << y.code << "  }\n\n";
}

// scenario_inputs(t): the input signals of the model file's simulation section.
void scenario_inputs_function(const Model& m, Code& h) {
  std::vector<ex> signals;
  bool signal_uses_time = false;
  for (std::size_t i = 0; i < m.inputs.size(); ++i) {
    const ex s = m.input_signal(i);
    signal_uses_time = signal_uses_time || s.has(m.time);
    signals.push_back(s);
  }
  h << "  // Input signals of the model file's simulation section (defaults where none is given).\n";
  h << fmt::format("  static Input scenario_inputs(Time {}) noexcept {{\n    Input u_;\n",
                   signal_uses_time ? "t" : "/*t*/");
  for (std::size_t i = 0; i < signals.size(); ++i)
    h << fmt::format("    u_[{}] = {};  // {}\n", i, cpp_expression(m.with_time_terms(signals[i])), m.inputs[i].name);
  h << "    return u_;\n  }\n";
  if (m.holds_inputs() && m.simulation.inputs_sampled_before_start)
    h << "  // The scenario's task took scenario_inputs(t_0 - 2h) and scenario_inputs(t_0 - h) before its first\n"
         "  // step (simulation: inputs_before_start: sampled): Data::samples.took() them first.\n"
         "  static constexpr bool scenario_sampled_before_start = true;\n";
}

// struct Model: the model's types, constants, tables and functions (the Jacobian when the
// request asks for it, the scheduling values when the design schedules its constants).
void model_struct(const Model& m, const GenerateRequest& o, const SchemeDesign& design, Code& h) {
  h << "struct Model {\n";
  model_types(m, o.scalar, h);
  if (!design.compensated.empty()) {
    std::string flags;
    for (const bool c : design.compensated) flags += fmt::format("{}{}", flags.empty() ? "" : ", ", c);
    h << fmt::format("  // The states whose steps' sums are compensated (dualrate/compensated_sum.hpp): {}.\n",
                     compensated_names(m, design.compensated));
    h << fmt::format("  static constexpr std::array<bool, kStates> compensated_states{{{{{}}}}};\n", flags);
  }
  parameter_definitions(m, h);
  table_definitions(m, o.scalar, h);
  initial_values(m, h);
  derivative_functions(m, h);
  if (o.jacobian) h << jacobian_function(m);
  if (design.schedule) scheduling_values_function(m, h);
  outputs_function(m, h);
  scenario_inputs_function(m, h);
  h << "};\n\n";
}

// A dual-rate scheme's ratio, Scheme and Tasks, and the fast and slow tasks that run them.
void task_pair(const GenerateRequest& o, const SchemeInfo& scheme, bool calibrated, Code& h) {
  h << fmt::format("constexpr int kRatio = {};  // H = kRatio h = {:.17g}\n", o.ratio, o.ratio * o.step);
  h << fmt::format("using Scheme = {}<Model, kRatio, {}>;\n", scheme.identity.runtime_class, scheme.traits.parallel);
  h << fmt::format("using Tasks = dualrate::DualRate<Scheme, dualrate::OverrunPolicy::{}{}>;\n\n",
                   o.overrun_handling == OverrunHandling::kDefer ? "kDefer" : "kSkip",
                   calibrated ? ", TakeConstants" : "");
  h << "// The two tasks (data transfer and overrun policy: dualrate/dual_rate.hpp; equations:\n";
  h << fmt::format("// {}). One Tasks object per model instance, constructed as Tasks(kStep).\n",
                   scheme.identity.header);
  h << "// Fast task, every h at tick n: reads u(t_n) and the slow end points latched at the last\n";
  h << "// release; writes the snapshot of t_k at release ticks n = k kRatio. Returns true in\n";
  h << "// `release` when slow job k has to be released now.\n";
  h << "[[nodiscard]] inline dualrate::Status fast_task(Tasks& tasks, const Model::Input& u, bool& release) noexcept "
       "{\n";
  h << "  return tasks.fast(u, release);\n}\n\n";
  h << "// Slow task, once per release k, preemptible by the fast task: reads the snapshot of t_k,\n";
  h << "// writes x_r(t_k) (tasks.row()) and the end points of macro step k + 1, due by t_{k+1}.\n";
  h << "[[nodiscard]] inline dualrate::Status slow_task(Tasks& tasks) noexcept { return tasks.slow(); }\n\n";
  if (calibrated)
    h << "// A Tasks object's size and where it keeps the fast task's state, which `dualrate a2l\n"
         "// --instance` reads from the program to describe a Tasks object the program defines.\n"
         "inline constexpr std::uint32_t tasks_layout[] __attribute__((used)) = {sizeof(Tasks), "
         "Tasks::state_offset()};\n\n";
}

// struct SchemeConstants: the constants the scheme's design computed at the step (its notes,
// schedule, matrices, reals, integers and functions), in `scalar`.
void scheme_constants(const SchemeDesign& o, ScalarType scalar, const SchemeInfo& scheme, Code& h) {
  h << fmt::format(
      "\n// Constants of {} at step h, computed by the generator; each matrix M as the function\n"
      "// v -> M v over M's nonzero entries.\n",
      scheme.identity.name);
  if (!o.notes.empty()) h << comment_lines(o.notes, "");
  if (o.functions.empty()) {
    h << "struct SchemeConstants {\n  using Scalar = Model::Scalar;\n";
  } else {
    h << "struct SchemeConstants : Model {\n";
    h << "  using FastSquare = Eigen::Matrix<Scalar, kFast * kFast, 1>;  // kFast x kFast, column-major\n";
  }
  std::vector<LinearMap> maps;
  for (const auto& c : o.matrices) maps.push_back(recomputed(o, c.name) ? calibrated_linear_map(c) : linear_map(c));
  h << (o.recompute.empty() ? schedule_definitions(o, scalar, maps) : calibrated_schedule());
  for (const auto& map : maps) h << matrix_function(map);
  for (const auto& r : o.reals)
    if (r.scheduled.empty())
      h << fmt::format("  // {}\n  static constexpr Scalar {} = {};  // {:.17g}\n", r.what, r.name,
                       scalar_literal(r.value), r.value);
  for (const auto& i : o.integers)
    h << fmt::format("  // {}\n  static constexpr {} {} = {};\n", i.what, i.type, i.name,
                     i.type == "bool" ? (i.value ? "true" : "false") : std::to_string(i.value));
  for (const auto& f : o.functions) {
    std::vector<Equation> sources;
    for (std::size_t i : f.root_states) sources.push_back(derivative_equation(o.function_model->states.at(i)));
    h << "\n" << rate_function(*o.function_model, f.what, f.name, f.type, f.roots, sources);
  }
  h << "};\n";
}

// A single-rate scheme's Scheme (with SchemeConstants when it has constants), Data, and the
// task's step function.
void step_function(const Model& m, const SchemeInfo& scheme, bool calibrated, Code& h) {
  h << fmt::format("using Scheme = {}<Model{}>;\n", scheme.identity.runtime_class,
                   scheme.traits.takes_constants ? ", SchemeConstants" : "");
  h << "using Data = dualrate::Data<Model>;\n\n";
  if (!m.holds_inputs()) {
    h << "// One period of the task: advances d by h with the inputs u held over the step.\n";
  } else {
    h << "// One period of the task: advances d by h with the inputs u sampled at the step's start, each\n"
         "// held as Model::input_holds says (from the samples d keeps).\n";
  }
  h << "[[nodiscard]] inline dualrate::Status step(Data& d, const Model::Input& u) noexcept {\n";
  if (calibrated) h << take_constants_statement();
  h << "  return dualrate::advance<Scheme>(d, kStep, u);\n}\n\n";
  if (!m.holds_inputs()) return;
  h << "// The same with the inputs over the step as the caller knows them (their rates at its start).\n";
  h << "[[nodiscard]] inline dualrate::Status step(Data& d, const dualrate::HeldInput<Model>& u) noexcept {\n";
  if (calibrated) h << take_constants_statement();
  h << "  return dualrate::advance<Scheme>(d, kStep, u);\n}\n\n";
}

}  // namespace

HeaderBanner read_header_banner(const std::string& text) {
  static const std::regex banner(
      R"(^// (\w+)\.hpp: generated by dualrate [^\n]*\n// Scheme (\w+) \([^\n]*\), step h = )"
      R"(([-+.0-9eE]+), scalar (float|double)\.\n)");
  std::smatch match;
  HeaderBanner b;
  if (!std::regex_search(text, match, banner)) return b;
  b.generated = true;
  b.ns = match[1];
  b.scheme = match[2];
  b.step = std::strtod(match[3].str().c_str(), nullptr);
  b.scalar = match[4];
  return b;
}

TracedHeader generate_traced_header(const Model& m, const GenerateRequest& o, const SchemeDesign& design) {
  const SchemeInfo* scheme = find_scheme(o.scheme);
  if (!scheme) throw std::invalid_argument("unknown scheme '" + o.scheme + "'");
  check_calibratable(m, o.scalar);
  const bool calibrated = has_tunable(m);
  const std::string ns = generated_namespace(m, o);
  Code h(comment_file(m));
  preamble(m, o, *scheme, ns, h);
  h << fmt::format("namespace {} {{\n\n", ns);
  if (calibrated) h << calibration_declarations(m, o, design, ns) << recalibration_function(m, o, design);
  const std::vector<std::string> instances = o.instances.empty() ? std::vector<std::string>{""} : o.instances;
  for (const std::string& instance : instances) {
    if (!instance.empty())
      h << fmt::format(
          "{}{}: its own constants, and its own types, which the step\n"
          "// of another instance does not take.\nnamespace {} {{\n\n",
          kInstanceBanner, instance, instance);
    if (calibrated) h << instance_constants(m, o, design, *scheme);
    model_struct(m, o, design, h);
    h << "// Declared rate and scheme.\n";
    h << fmt::format("constexpr Model::Scalar kStep = Model::{};  // h = {:.17g}\n", scalar_literal(o.step), o.step);
    if (scheme->traits.dual_rate) {
      task_pair(o, *scheme, calibrated, h);
    } else {
      if (scheme->traits.takes_constants) scheme_constants(design, o.scalar, *scheme, h);
      step_function(m, *scheme, calibrated, h);
    }
    if (!instance.empty()) h << fmt::format("}}  // namespace {}\n\n", instance);
  }
  if (calibrated) h << calibrate_function(m, o, *scheme);
  h << fmt::format("}}  // namespace {}\n", ns);
  return {h.text(), source_map(m, o, design, h)};
}

}  // namespace dualrate
