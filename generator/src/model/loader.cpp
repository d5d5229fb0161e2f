// Model file (YAML) -> Model. Every check reports a ModelError at the position it refers to.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <Eigen/Dense>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "model/expression.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "schemes/registry.hpp"

namespace dualrate {

namespace {

const std::set<std::string>& cpp_keywords() {
  static const std::set<std::string> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
      "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval",
      "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
      "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
      "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
      "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
      "public", "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "main"};
  return words;
}

// Names the generated code or its environment already uses (with why).
const std::map<std::string, std::string>& reserved_names() {
  static const std::map<std::string, std::string> names = {
      {"t", "it is time"},
      {"pi", "it is the constant pi"},
      {"std", "it is the C++ standard library's namespace"},
      {"Eigen", "it is Eigen's namespace"},
      {"dualrate", "it is the runtime's namespace"},
      {"Scalar", "the generated code uses it for the scalar type"},
      {"Model", "the generated code uses it"},
      {"State", "the generated code uses it"},
      {"Input", "the generated code uses it"},
      {"Output", "the generated code uses it"},
      {"Data", "the generated code uses it"},
      {"Scheme", "the generated code uses it"},
      {"kSlow", "the generated code uses it"},
      {"kFast", "the generated code uses it"},
      {"kStates", "the generated code uses it"},
      {"kInputs", "the generated code uses it"},
      {"kOutputs", "the generated code uses it"},
      {"kStep", "the generated code uses it"},
      {"initial_state", "the generated code uses it"},
      {"default_inputs", "the generated code uses it"},
      {"derivatives", "the generated code uses it"},
      {"slow_derivatives", "the generated code uses it"},
      {"SlowState", "the generated code uses it"},
      {"outputs", "the generated code uses it"},
      {"scenario_inputs", "the generated code uses it"},
      {"state_names", "the generated code uses it"},
      {"input_names", "the generated code uses it"},
      {"output_names", "the generated code uses it"},
      {"NULL", "it is a C macro"},
      {"EOF", "it is a C macro"},
      {"NAN", "it is a C macro"},
      {"INFINITY", "it is a C macro"},
      {"HUGE_VAL", "it is a C macro"},
      {"errno", "it is a C macro"},
      {"assert", "it is a C macro"},
  };
  return names;
}

const std::vector<std::string> kTopKeys = {"name",      "description", "parameters", "inputs",  "states",
                                           "variables", "equations",   "outputs",    "simulation", "coordinates",
                                           "mass",      "forces",      "small"};
const std::vector<std::string> kCoordinateKeys = {"position", "velocity"};
const std::vector<std::string> kMassKeys = {"diagonal", "rows"};
const std::vector<std::string> kSmallKeys = {"coordinates", "parameter"};
const std::vector<std::string> kStateKeys = {"slow", "fast"};
const std::vector<std::string> kSimulationKeys = {"t_end", "scheme", "step", "ratio", "linearization", "inputs"};

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

class Loader {
 public:
  Loader(std::string text, std::string file, std::vector<ParameterOverride> overrides)
      : text_(std::move(text)), file_(std::move(file)), overrides_(std::move(overrides)) {
    std::istringstream in(text_);
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }

  Model load() {
    YAML::Node root;
    try {
      root = YAML::Load(text_);
    } catch (const YAML::DeepRecursion& e) {
      throw ModelError(at(e.mark), "invalid YAML: nested more than " + std::to_string(e.depth()) + " levels deep");
    } catch (const YAML::Exception& e) {
      const SourceLoc loc = at(e.mark);
      bool tab = false;  // in the indentation of the line the error is on
      if (static_cast<std::size_t>(loc.line) <= lines_.size()) {
        const std::string& line = lines_[loc.line - 1];
        tab = line.substr(0, line.find_first_not_of(" \t")).find('\t') != std::string::npos;
      }
      throw ModelError(loc, "invalid YAML: " + e.msg, tab ? "indent with spaces: YAML does not allow tabs there" : "");
    }
    if (!root || root.IsNull())
      throw ModelError({file_, 1, 1}, "empty model file",
                       "a model needs at least 'name', 'states' and 'equations'");
    if (!root.IsMap())
      throw ModelError(at(root.Mark()), "a model file must be a YAML mapping",
                       "start with 'name: my_model', then 'states:' and 'equations:'");
    model_.file = file_;
    model_.simulation.loc = {file_, 1, 1};
    const auto top = keys(root, kTopKeys, "top level");
    read_name(require(root, top, "name"));
    if (top.count("description")) model_.description = scalar(top.at("description"), "description");
    const bool second_order = top.count("coordinates") > 0;
    check_form(root, top, second_order);

    // Names first (all sections share one namespace), then expressions.
    const auto params = section(top, "parameters");
    const auto inputs = section(top, "inputs");
    auto vars = section(top, "variables");
    const auto outs = section(top, "outputs");
    std::vector<Entry> slow, fast;
    if (second_order) {
      second_order_states(top, slow, fast);
      force_entries(top, vars);
    } else {
      const auto states = keys(top.at("states").second, kStateKeys, "states", top.at("states").first);
      if (states.count("slow")) slow = entries(states.at("slow").second, "states.slow");
      if (states.count("fast")) fast = entries(states.at("fast").second, "states.fast");
      if (slow.empty() && fast.empty())
        throw ModelError(at(top.at("states").first), "the model has no states",
                         "list them under states: slow: (and fast: for a two-time-scale model)");
    }

    for (const auto& e : params) model_.parameters.push_back({define(e, "parameter"), {}, {}});
    for (const auto& e : inputs) model_.inputs.push_back({define(e, "input"), {}, {}});
    for (const auto& e : slow) model_.states.push_back({define(e, state_kind(e, false)), false, {}, {}, {}, {}});
    for (const auto& e : fast) model_.states.push_back({define(e, state_kind(e, true)), true, {}, {}, {}, {}});
    model_.slow_count = slow.size();
    std::vector<Variable> variables;
    variables.reserve(vars.size());
    for (const auto& e : vars) variables.push_back({define(e, "variable"), {}});
    for (const auto& e : outs) model_.outputs.push_back({define(e, "output"), {}});

    check_overrides(top);
    read_parameters(params);
    read_constants(inputs, model_.inputs, "default value of input");
    std::vector<Entry> all_states = slow;
    all_states.insert(all_states.end(), fast.begin(), fast.end());
    read_initial_values(all_states);
    read_variables(vars, variables);
    if (second_order) read_second_order(top);
    if (top.count("equations")) read_equations(top.at("equations"));
    for (std::size_t i = 0; i < outs.size(); ++i) {
      model_.outputs[i].expr = expression(outs[i].key, outs[i].value, dynamic_scope("output '" + outs[i].name + "'"));
      model_.outputs[i].expr_loc = at(outs[i].value);
    }
    if (top.count("simulation")) read_simulation(top.at("simulation"));
    return std::move(model_);
  }

 private:
  using KeyValue = std::pair<YAML::Node, YAML::Node>;
  // clang-tidy 14 takes Entry's implicit assignment for noexcept; it is not (YAML::Node's may
  // throw), and nothing relies on it being so.
  // NOLINTNEXTLINE(bugprone-exception-escape)
  struct Entry {
    std::string name;
    YAML::Node key;
    YAML::Node value;
  };

  SourceLoc at(const YAML::Mark& m) const {
    if (m.line < 0) return {file_, 1, 1};
    return {file_, m.line + 1, m.column + 1};
  }
  SourceLoc at(const YAML::Node& n) const { return at(n.Mark()); }

  // The keys of a mapping, each checked against `allowed` and for duplicates.
  std::map<std::string, KeyValue> keys(const YAML::Node& node, const std::vector<std::string>& allowed,
                                       const std::string& where, const YAML::Node& owner = {}) {
    if (!node.IsMap())
      throw ModelError(at(node.IsNull() && owner ? owner : node), where + " must be a mapping",
                       "expected one of: " + join(allowed));
    std::map<std::string, KeyValue> found;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = key_name(it->first, where);
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        throw ModelError(at(it->first), "unknown key '" + key + "' in " + where,
                         did_you_mean(key, allowed, "expected one of: " + join(allowed)));
      if (found.count(key))
        throw ModelError(at(it->first), "duplicate key '" + key + "' in " + where,
                         "first given at line " + std::to_string(at(found.at(key).first).line));
      found[key] = {it->first, it->second};
    }
    return found;
  }

  std::string key_name(const YAML::Node& key, const std::string& where) {
    if (!key.IsScalar()) throw ModelError(at(key), "keys in " + where + " must be plain names");
    return key.Scalar();
  }

  KeyValue require(const YAML::Node& root, const std::map<std::string, KeyValue>& top, const std::string& key) {
    if (!top.count(key))
      throw ModelError(at(root.size() ? root.begin()->first : root), "missing required key '" + key + "'",
                       "a model needs 'name', 'states' and 'equations' (in second-order form: 'name', "
                       "'coordinates', 'mass' and 'forces')");
    return top.at(key);
  }

  // A value given as `key: value`; an empty value is reported at its key.
  std::string scalar(const KeyValue& kv, const std::string& what) {
    if (kv.second.IsNull()) throw ModelError(at(kv.first), what + " is missing");
    if (!kv.second.IsScalar()) throw ModelError(at(kv.second), what + " must be a single value");
    return kv.second.Scalar();
  }

  // An optional name: value section, in file order.
  std::vector<Entry> section(const std::map<std::string, KeyValue>& top, const std::string& key) {
    if (!top.count(key)) return {};
    return entries(top.at(key).second, key);
  }

  std::vector<Entry> entries(const YAML::Node& node, const std::string& where) {
    if (node.IsNull()) return {};
    if (!node.IsMap())
      throw ModelError(at(node), where + " must be a mapping of name: value",
                       "write one entry per line, as in 'R: 1.0'");
    std::vector<Entry> result;
    for (auto it = node.begin(); it != node.end(); ++it)
      result.push_back({key_name(it->first, where), it->first, it->second});
    return result;
  }

  void read_name(const KeyValue& kv) {
    const YAML::Node& node = kv.second;
    const std::string name = scalar(kv, "name");
    static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
    if (!std::regex_match(name, identifier) || name.back() == '_')
      throw ModelError(at(node), "invalid model name '" + name + "'",
                       "the name is the C++ namespace of the generated code: a letter, then letters, digits or '_'");
    if (cpp_keywords().count(name) || reserved_names().count(name))
      throw ModelError(at(node), "invalid model name '" + name + "': it is reserved in C++ or by dualrate");
    model_.name = name;
  }

  Named define(const Entry& e, const std::string& kind) {
    const SourceLoc loc = at(e.key);
    static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
    const std::string hint = "names are C identifiers: a letter, then letters, digits or '_', not ending in '_'";
    if (!std::regex_match(e.name, identifier) || e.name.back() == '_')
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "'", hint);
    if (cpp_keywords().count(e.name))
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is a C++ keyword", "choose another name");
    if (find_model_function(e.name))
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is a function name", "choose another name");
    if (auto r = reserved_names().find(e.name); r != reserved_names().end())
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': reserved because " + r->second,
                       "choose another name");
    if (e.name.rfind("M_", 0) == 0 || e.name == "linux" || e.name == "unix")
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': reserved because <cmath> or the compiler "
                            "defines it as a macro", "choose another name");
    if (e.name == model_.name)
      throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is the model's name",
                       "the model name is the generated namespace; choose another name");
    if (auto d = defined_.find(e.name); d != defined_.end())
      throw ModelError(loc, "duplicate name '" + e.name + "'",
                       "already defined as " + kind_.at(e.name) + " at line " + std::to_string(d->second.line));
    defined_[e.name] = loc;
    kind_[e.name] = kind;
    return {e.name, loc, GiNaC::realsymbol(e.name)};
  }

  ExpressionText text_of(const YAML::Node& key, const YAML::Node& node, const std::string& what) {
    if (node.IsNull()) throw ModelError(at(key), what + " is missing", "write a number or an expression");
    if (!node.IsScalar())
      throw ModelError(at(node), what + " must be a number or an expression, not a " +
                                     (node.IsSequence() ? "list" : "mapping"));
    const std::string& s = node.Scalar();
    static const std::regex special("[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)");
    if (std::regex_match(s, special)) throw ModelError(at(node), what + " is not finite", "use a finite number");
    const YAML::Mark m = node.Mark();
    ExpressionText t{s, at(m), false};
    if (m.line >= 0 && static_cast<std::size_t>(m.line) < lines_.size()) {
      const std::string& line = lines_[m.line];
      const auto col = static_cast<std::size_t>(m.column);
      if (line.compare(col, s.size(), s) == 0) {
        t.exact = true;
      } else if (col + 1 <= line.size() && line.compare(col + 1, s.size(), s) == 0) {
        t.loc = t.loc.shifted(1);
        t.exact = true;
      }
    }
    return t;
  }

  GiNaC::ex expression(const YAML::Node& key, const YAML::Node& value, const ExpressionScope& scope) {
    return parse_expression(text_of(key, value, scope.what), scope);
  }

  double evaluate(const GiNaC::ex& e, const YAML::Node& node, const std::string& what) {
    GiNaC::ex v;
    try {
      v = e.subs(model_.parameter_values()).evalf();
    } catch (const std::exception& ex) {
      throw ModelError(at(node), "cannot evaluate " + what + ": " + ex.what());
    }
    if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
      throw ModelError(at(node), what + " does not evaluate to a real number");
    const double d = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
    if (!std::isfinite(d)) throw ModelError(at(node), what + " is not finite", "use a finite number");
    return d;
  }

  ExpressionScope parameter_scope(const std::string& what, std::size_t available) {
    ExpressionScope scope;
    scope.what = what;
    for (std::size_t i = 0; i < model_.parameters.size(); ++i) {
      const auto& p = model_.parameters[i];
      if (i < available) scope.allowed[p.name] = p.symbol;
      else scope.forbidden[p.name] = "parameter '" + p.name + "' is defined later; move it up";
    }
    for (const auto& [name, kind] : kind_)
      if (kind != "parameter")
        scope.forbidden[name] = "'" + name + "' is a " + kind + "; " + what + " may use only numbers and parameters";
    return scope;
  }

  ExpressionScope dynamic_scope(const std::string& what) {
    ExpressionScope scope;
    scope.what = what;
    scope.time = &time_ex_;
    for (const auto& p : model_.parameters) scope.allowed[p.name] = p.symbol;
    for (const auto& u : model_.inputs) scope.allowed[u.name] = u.symbol;
    for (const auto& x : model_.states) scope.allowed[x.name] = x.symbol;
    for (const auto& v : all_variables_) scope.allowed[v.name] = v.symbol;
    for (const auto& y : model_.outputs)
      scope.forbidden[y.name] = "'" + y.name + "' is an output; to reuse it, make it a variable";
    return scope;
  }

  void check_overrides(const std::map<std::string, KeyValue>& top) {
    std::vector<std::string> names;
    for (const auto& p : model_.parameters) names.push_back(p.name);
    for (const auto& o : overrides_) {
      if (std::find(names.begin(), names.end(), o.name) != names.end()) continue;
      const SourceLoc loc = top.count("parameters") ? at(top.at("parameters").first) : SourceLoc{file_, 1, 1};
      throw ModelError(loc, "--param " + o.name + ": the model has no parameter '" + o.name + "'",
                       names.empty() ? "this model has no parameters section"
                                     : did_you_mean(o.name, names, "its parameters are: " + join(names)));
    }
  }

  void read_parameters(const std::vector<Entry>& params) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      auto& p = model_.parameters[i];
      const std::string what = "the value of parameter '" + p.name + "'";
      p.expr = expression(params[i].key, params[i].value, parameter_scope(what, i));
      p.value = evaluate(p.expr, params[i].value, what);
      for (const auto& o : overrides_)
        if (o.name == p.name) {
          p.expr = GiNaC::numeric(o.value);
          p.value = o.value;
          p.overridden = true;
        }
    }
  }

  void read_constants(const std::vector<Entry>& entries, std::vector<Input>& inputs, const std::string& what) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const std::string w = "the " + what + " '" + inputs[i].name + "'";
      inputs[i].default_expr = expression(entries[i].key, entries[i].value, parameter_scope(w, model_.parameters.size()));
      inputs[i].default_value = evaluate(inputs[i].default_expr, entries[i].value, w);
    }
  }

  void read_initial_values(const std::vector<Entry>& entries) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      auto& x = model_.states[i];
      const std::string w = "the initial value of state '" + x.name + "'";
      x.initial_expr = expression(entries[i].key, entries[i].value, parameter_scope(w, model_.parameters.size()));
      x.initial_value = evaluate(x.initial_expr, entries[i].value, w);
    }
  }

  // Parses all variables, then orders them so that each comes after the variables it uses
  // (file order otherwise); a cycle is an error.
  void read_variables(const std::vector<Entry>& entries, std::vector<Variable>& variables) {
    all_variables_ = variables;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      variables[i].expr = expression(entries[i].key, entries[i].value, dynamic_scope("variable '" + variables[i].name + "'"));
      variables[i].expr_loc = at(entries[i].value);
    }
    enum class Mark { kNew, kActive, kDone };
    std::vector<Mark> mark(variables.size(), Mark::kNew);
    std::vector<std::size_t> path;
    std::function<void(std::size_t)> visit = [&](std::size_t i) {
      if (mark[i] == Mark::kDone) return;
      path.push_back(i);
      if (mark[i] == Mark::kActive) {
        std::vector<std::string> cycle;
        auto first = std::find(path.begin(), path.end(), i);
        for (auto it = first; it != path.end(); ++it) cycle.push_back(variables[*it].name);
        throw ModelError(variables[i].loc, "cyclic variables: " + join(cycle, " -> "),
                         "a variable cannot depend on itself; break the cycle with a state or a parameter");
      }
      mark[i] = Mark::kActive;
      for (std::size_t j = 0; j < variables.size(); ++j)
        if (variables[i].expr.has(variables[j].symbol)) visit(j);
      mark[i] = Mark::kDone;
      path.pop_back();
      model_.variables.push_back(variables[i]);
    };
    for (std::size_t i = 0; i < variables.size(); ++i) visit(i);
  }

  // A model is written either in first-order form (states, equations) or in second-order
  // form (coordinates, mass, forces and optionally small), which may add first-order slow
  // states (controller integrators, filters) with their equations.
  void check_form(const YAML::Node& root, const std::map<std::string, KeyValue>& top, bool second_order) {
    const std::vector<std::string> other = second_order ? std::vector<std::string>{}
                                                        : std::vector<std::string>{"mass", "forces", "small"};
    if (second_order && top.count("states")) require(root, top, "equations");
    if (second_order && top.count("equations")) require(root, top, "states");
    for (const auto& k : other)
      if (top.count(k))
        throw ModelError(at(top.at(k).first),
                         "'" + k + (second_order ? "' in a second-order model (it has 'coordinates')" : "' without 'coordinates'"),
                         "write a model either in first-order form (states, equations) or in second-order form "
                         "(coordinates, mass, forces)");
    for (const auto& k : second_order ? std::vector<std::string>{"mass", "forces"}
                                      : std::vector<std::string>{"states", "equations"})
      require(root, top, k);
  }

  std::string state_kind(const Entry& e, bool fast) const {
    if (model_.second_order) {
      const auto& c = model_.second_order->coordinates;
      if (std::find(c.begin(), c.end(), e.name) != c.end()) return "coordinate";
      for (const auto& q : c)
        if (e.name == q + "_dot") return "velocity";
    }
    return fast ? "fast state" : "slow state";
  }

  // The first-order states of a second-order model: every coordinate's position, then the
  // velocities (name q_dot) of the coordinates with large inertia (slow), then those of the
  // small-inertia coordinates (fast). Initial values are the coordinates' position and velocity.
  void second_order_states(const std::map<std::string, KeyValue>& top, std::vector<Entry>& slow,
                           std::vector<Entry>& fast) {
    const KeyValue& section = top.at("coordinates");
    const auto coords = entries(section.second, "coordinates");
    if (coords.empty())
      throw ModelError(at(section.first), "the model has no coordinates",
                       "list each generalized coordinate with its initial values, as in 'x: {position: 0, velocity: 0}'");
    SecondOrder so;
    for (const auto& c : coords) so.coordinates.push_back(c.name);
    if (top.count("small")) read_small(top.at("small"), so);
    std::vector<Entry> velocities;
    for (std::size_t i = 0; i < coords.size(); ++i) {
      const Entry& c = coords[i];
      const auto k = keys(c.value, kCoordinateKeys, "coordinate '" + c.name + "'", c.key);
      for (const auto& need : kCoordinateKeys)
        if (!k.count(need))
          throw ModelError(at(c.key), "coordinate '" + c.name + "' has no initial " + need,
                           "write '" + c.name + ": {position: 0, velocity: 0}' with its initial values");
      slow.push_back({c.name, c.key, k.at("position").second});
      Entry v{c.name + "_dot", c.key, k.at("velocity").second};
      (std::count(so.small.begin(), so.small.end(), i) ? fast : velocities).push_back(v);
    }
    slow.insert(slow.end(), velocities.begin(), velocities.end());
    model_.second_order = so;
    if (!top.count("states")) return;
    const auto states = keys(top.at("states").second, kStateKeys, "states", top.at("states").first);
    if (states.count("fast"))
      throw ModelError(at(states.at("fast").first), "fast first-order states in a second-order model",
                       "the fast states of a second-order model are the velocities of its small coordinates (small: "
                       "coordinates); list added first-order states under states: slow:");
    if (states.count("slow")) {
      const auto extra = entries(states.at("slow").second, "states.slow");
      slow.insert(slow.end(), extra.begin(), extra.end());
    }
  }

  void read_small(const KeyValue& section, SecondOrder& so) {
    const auto k = keys(section.second, kSmallKeys, "small", section.first);
    so.small_loc = at(section.first);
    const std::string hint = "list the coordinates whose inertia is small, as in 'coordinates: [zl, zr]'";
    if (!k.count("coordinates")) throw ModelError(at(section.first), "small has no coordinates", hint);
    const YAML::Node& list = k.at("coordinates").second;
    if (!list.IsSequence() || list.size() == 0)
      throw ModelError(at(list.IsNull() ? k.at("coordinates").first : list),
                       "small.coordinates must be a list of coordinate names", hint);
    for (const auto& item : list) {
      if (!item.IsScalar()) throw ModelError(at(item), "small.coordinates must be a list of coordinate names", hint);
      const std::string name = item.Scalar();
      const auto it = std::find(so.coordinates.begin(), so.coordinates.end(), name);
      if (it == so.coordinates.end())
        throw ModelError(at(item), "small coordinate '" + name + "' is not a coordinate",
                         did_you_mean(name, so.coordinates, "the coordinates are: " + join(so.coordinates)));
      const auto index = static_cast<std::size_t>(it - so.coordinates.begin());
      if (std::count(so.small.begin(), so.small.end(), index))
        throw ModelError(at(item), "small coordinate '" + name + "' is listed twice");
      so.small.push_back(index);
    }
    if (so.small.size() == so.coordinates.size())
      throw ModelError(at(list), "every coordinate is small",
                       "the small coordinates are the ones whose inertia is small against the others'");
    if (k.count("parameter")) {
      so.small_parameter = scalar(k.at("parameter"), "small.parameter");
      small_parameter_node_ = k.at("parameter").second;
    }
  }

  // Each coordinate's force becomes a variable named q_force (so that it is evaluated once).
  void force_entries(const std::map<std::string, KeyValue>& top, std::vector<Entry>& vars) {
    const auto& coordinates = model_.second_order->coordinates;
    const KeyValue& section = top.at("forces");
    const auto forces = keys(section.second, coordinates, "forces", section.first);
    std::vector<std::string> missing;
    for (const auto& c : coordinates)
      if (!forces.count(c)) missing.push_back(c);
    if (!missing.empty())
      throw ModelError(at(section.first), "missing force for coordinate" + std::string(missing.size() > 1 ? "s " : " ") +
                                              join(missing),
                       "each coordinate needs its generalized force f in M q'' = f");
    for (const auto& c : coordinates) vars.push_back({c + "_force", forces.at(c).first, forces.at(c).second});
  }

  // The mass matrix (constant: numbers and parameters), checked symmetric and positive
  // definite, and the first-order equations: q' = q_dot, q_dot' = (M^-1 f)_q.
  void read_second_order(const std::map<std::string, KeyValue>& top) {
    SecondOrder& so = *model_.second_order;
    if (!so.small_parameter.empty() && (!kind_.count(so.small_parameter) || kind_.at(so.small_parameter) != "parameter")) {
      std::vector<std::string> names;
      for (const auto& p : model_.parameters) names.push_back(p.name);
      throw ModelError(at(small_parameter_node_), "small.parameter '" + so.small_parameter + "' is not a parameter",
                       did_you_mean(so.small_parameter, names,
                                    "name the parameter that makes the small inertia small, as in 'parameter: m_N'"));
    }
    const std::size_t n = so.coordinates.size();
    const Eigen::MatrixXd m = read_mass(top.at("mass"), so);

    std::vector<SourceLoc> force_locs;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& c = so.coordinates[i];
      const auto index = [&](const std::string& name) {
        for (std::size_t s = 0; s < model_.states.size(); ++s)
          if (model_.states[s].name == name) return s;
        throw std::logic_error("second-order state " + name + " was not defined");
      };
      so.position.push_back(index(c));
      so.velocity.push_back(index(c + "_dot"));
      for (const auto& v : model_.variables)
        if (v.name == c + "_force") {
          so.forces.push_back(v.symbol);
          force_locs.push_back(v.loc);
        }
    }
    const std::vector<GiNaC::ex> accelerations =
        so.diagonal || so.constant_mass ? constant_accelerations(m) : solve_accelerations(top.at("mass"));
    for (std::size_t i = 0; i < n; ++i) {
      State& q = model_.states[so.position[i]];
      State& v = model_.states[so.velocity[i]];
      q.rhs = v.symbol;
      q.rhs_loc = q.loc;
      v.rhs = accelerations[i];
      v.rhs_loc = force_locs[i];
    }
  }

  // (M^-1 f)_q for a diagonal M (divided by the entry) or a constant one (M^-1 from the
  // parameter values, `m`).
  std::vector<GiNaC::ex> constant_accelerations(const Eigen::MatrixXd& m) const {
    const SecondOrder& so = *model_.second_order;
    const std::size_t n = so.coordinates.size();
    std::vector<GiNaC::ex> a(n, 0);
    if (so.diagonal) {
      for (std::size_t i = 0; i < n; ++i) a[i] = so.forces[i] / so.mass[i][i];
      return a;
    }
    const Eigen::MatrixXd inverse = m.llt().solve(Eigen::MatrixXd::Identity(m.rows(), m.cols()));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const double w = inverse(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
        if (w != 0) a[i] += GiNaC::numeric(w) * so.forces[j];
      }
    return a;
  }

  // A full mass matrix that depends on the coordinates: the accelerations are variables
  // q_ddot solved together at run time (Variable::solved), their expressions M(q)^-1 f
  // symbolically.
  std::vector<GiNaC::ex> solve_accelerations(const KeyValue& section) {
    SecondOrder& so = *model_.second_order;
    const std::size_t n = so.coordinates.size();
    if (n > kMaxSolvedCoordinates)
      throw ModelError(at(section.first),
                       fmt::format("a mass matrix that depends on the coordinates is supported for at most {} "
                                   "coordinates, not {}",
                                   kMaxSolvedCoordinates, n),
                       "the analysis differentiates its symbolic inverse, which grows like n!; make the matrix "
                       "constant or diagonal, or split the model");
    GiNaC::matrix mass(static_cast<unsigned>(n), static_cast<unsigned>(n));
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = 0; j < n; ++j) mass(i, j) = so.mass[i][j];
    const GiNaC::matrix inverse = mass.inverse();
    for (std::size_t i = 0; i < n; ++i) {
      GiNaC::ex a = 0;
      for (std::size_t j = 0; j < n; ++j) a += inverse(static_cast<unsigned>(i), static_cast<unsigned>(j)) * so.forces[j];
      Variable v{define({so.coordinates[i] + "_ddot", section.first, section.second}, "acceleration"), a, true,
                 so.mass_loc};
      so.accelerations.push_back(v.symbol);
      model_.variables.push_back(std::move(v));
    }
    return so.accelerations;
  }

  static std::string initially(const SecondOrder& so) { return so.constant_mass ? "" : " at the initial positions"; }

  Eigen::MatrixXd read_mass(const KeyValue& section, SecondOrder& so) {
    const std::size_t n = so.coordinates.size();
    const auto size = static_cast<Eigen::Index>(n);
    so.mass_loc = at(section.first);
    const auto k = keys(section.second, kMassKeys, "mass", section.first);
    const std::string form_hint =
        "give 'diagonal: [m1, m2, ...]' for a diagonal mass matrix or 'rows: [[m11, m12], [m21, m22]]' for a full "
        "one, in the order of the coordinates";
    if (k.size() != 1) throw ModelError(at(section.first), "mass needs exactly one of 'diagonal' and 'rows'", form_hint);
    so.diagonal = k.count("diagonal") > 0;
    so.mass.assign(n, std::vector<GiNaC::ex>(n, GiNaC::ex(0)));
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(size, size);
    // Entries may use the coordinates (not their velocities); checks hold at the initial positions.
    GiNaC::exmap start;
    for (const auto& x : model_.states)
      if (kind_.at(x.name) == "coordinate") start[x.symbol] = GiNaC::numeric(x.initial_value);
    const auto entry = [&](const YAML::Node& node, std::size_t i, std::size_t j) {
      const std::string what = "mass matrix entry (" + so.coordinates[i] + ", " + so.coordinates[j] + ")";
      ExpressionScope scope = parameter_scope(what, model_.parameters.size());
      for (const auto& x : model_.states)
        if (kind_.at(x.name) == "coordinate") {
          scope.forbidden.erase(x.name);
          scope.allowed[x.name] = x.symbol;
        }
      for (auto& [name, why] : scope.forbidden)
        if (kind_.count(name) && kind_.at(name) == "velocity")
          why = "'" + name + "' is a velocity; " + what + " may use numbers, parameters and coordinates";
      so.mass[i][j] = expression(node, node, scope);
      for (const auto& [q, value] : start) so.constant_mass = so.constant_mass && !so.mass[i][j].has(q);
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          evaluate(so.mass[i][j].subs(start), node, what + " at the initial positions");
    };
    const auto sequence = [&](const KeyValue& kv, const std::string& what) {
      if (!kv.second.IsSequence() || kv.second.size() != n)
        throw ModelError(at(kv.second.IsNull() ? kv.first : kv.second),
                         what + " needs " + std::to_string(n) + " entries, one per coordinate (" +
                             join(so.coordinates) + ")" +
                             (kv.second.IsSequence() ? ", not " + std::to_string(kv.second.size()) : ""),
                         form_hint);
    };
    if (so.diagonal) {
      const KeyValue& d = k.at("diagonal");
      sequence(d, "mass.diagonal");
      for (std::size_t i = 0; i < n; ++i) entry(d.second[i], i, i);
      for (std::size_t i = 0; i < n; ++i)
        if (!(m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) > 0))
          throw ModelError(at(d.second[i]),
                           "the mass of coordinate '" + so.coordinates[i] + "' is not positive" + initially(so),
                           "a mass matrix must be positive definite");
      return m;
    }
    const KeyValue& rows = k.at("rows");
    sequence(rows, "mass.rows");
    for (std::size_t i = 0; i < n; ++i) {
      const YAML::Node row = rows.second[i];
      sequence({row, row}, "row " + std::to_string(i + 1) + " of mass.rows");
      for (std::size_t j = 0; j < n; ++j) entry(row[j], i, j);
    }
    // Symmetry to rounding: entries written differently (m2*L and L*m2/1) may differ in the
    // last bits; 1e-12 relative is far below any asymmetry a model could mean.
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = i + 1; j < size; ++j)
        if (std::abs(m(i, j) - m(j, i)) > 1e-12 * std::max(std::abs(m(i, j)), std::abs(m(j, i))))
          throw ModelError(at(rows.second[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)]),
                           fmt::format("the mass matrix is not symmetric{}: entry ({}, {}) is {:.17g}, entry ({}, {}) is "
                                       "{:.17g}",
                                       initially(so),
                                       so.coordinates[static_cast<std::size_t>(j)],
                                       so.coordinates[static_cast<std::size_t>(i)], m(j, i),
                                       so.coordinates[static_cast<std::size_t>(i)],
                                       so.coordinates[static_cast<std::size_t>(j)], m(i, j)),
                           "a mass matrix is symmetric: write the same expression on both sides of the diagonal");
    // Of the coordinates: also away from the initial positions, symbolically.
    for (std::size_t i = 0; i < n && !so.constant_mass; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (!(so.mass[i][j] - so.mass[j][i]).expand().is_zero() &&
            !(so.mass[i][j] - so.mass[j][i]).subs(model_.parameter_values()).normal().is_zero())
          throw ModelError(at(rows.second[j][i]),
                           "the mass matrix is not symmetric: entry (" + so.coordinates[j] + ", " + so.coordinates[i] +
                               ") differs from entry (" + so.coordinates[i] + ", " + so.coordinates[j] +
                               ") away from the initial positions",
                           "a mass matrix is symmetric: write the same expression on both sides of the diagonal");
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m, Eigen::EigenvaluesOnly);
    const double smallest = eig.eigenvalues().minCoeff(), largest = eig.eigenvalues().maxCoeff();
    // Numerically positive definite: the smallest eigenvalue above the rounding of the largest.
    if (!(smallest > static_cast<double>(n) * std::numeric_limits<double>::epsilon() * largest))
      throw ModelError(at(section.first),
                       fmt::format("the mass matrix is not positive definite{}: its smallest eigenvalue is {:.6g} "
                                   "(largest {:.6g})",
                                   initially(so), smallest, largest),
                       "a mass matrix is symmetric positive definite (kinetic energy q_dot' M q_dot / 2 > 0); check "
                       "the off-diagonal couplings against the diagonal");
    return m;
  }

  void read_equations(const KeyValue& section) {
    const YAML::Node& node = section.second;
    if (!node.IsMap())
      throw ModelError(at(node.IsNull() ? section.first : node), "equations must be a mapping of state: d(state)/dt",
                       "one line per state, as in 'omega: (torque - b*omega)/J'");
    std::vector<std::string> state_names;
    for (const auto& x : model_.states) state_names.push_back(x.name);
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string name = key_name(it->first, "equations");
      auto x = std::find_if(model_.states.begin(), model_.states.end(), [&](const State& s) { return s.name == name; });
      if (x == model_.states.end()) {
        const std::string kind = kind_.count(name) ? " ('" + name + "' is a " + kind_.at(name) + ")" : "";
        throw ModelError(at(it->first), "equation for '" + name + "', which is not a state" + kind,
                         did_you_mean(name, state_names, "equations give d(state)/dt, one per state"));
      }
      if (!seen.insert(name).second)
        throw ModelError(at(it->first), "duplicate equation for state '" + name + "'");
      const std::string kind = kind_.at(name);
      if (kind == "coordinate" || kind == "velocity")
        throw ModelError(at(it->first), "equation for '" + name + "', which is a " + kind + " of the second-order model",
                         "its motion follows from mass and forces; equations are for the added first-order states");
      x->rhs = expression(it->first, it->second, dynamic_scope("the equation of '" + name + "'"));
      x->rhs_loc = at(it->second);
    }
    std::vector<std::string> missing;
    for (const auto& x : model_.states)
      if (!seen.count(x.name) && kind_.at(x.name) != "coordinate" && kind_.at(x.name) != "velocity")
        missing.push_back(x.name);
    if (!missing.empty())
      throw ModelError(at(section.first), "missing equation" + std::string(missing.size() > 1 ? "s" : "") +
                                              " for state" + (missing.size() > 1 ? "s " : " ") + join(missing),
                       "each state needs exactly one equation: its time derivative");
  }

  double positive(const KeyValue& kv, const std::string& what) {
    const GiNaC::ex e = expression(kv.first, kv.second, parameter_scope(what, model_.parameters.size()));
    const double v = evaluate(e, kv.second, what);
    if (!(v > 0)) throw ModelError(at(kv.second), what + " must be positive", "got " + kv.second.Scalar());
    return v;
  }

  void read_simulation(const KeyValue& section) {
    auto& sim = model_.simulation;
    sim.loc = at(section.first);
    if (section.second.IsNull()) return;
    const auto k = keys(section.second, kSimulationKeys, "simulation", section.first);
    if (k.count("t_end")) sim.t_end = positive(k.at("t_end"), "simulation.t_end");
    if (k.count("step")) sim.step = positive(k.at("step"), "simulation.step");
    if (k.count("ratio")) {
      const auto& node = k.at("ratio").second;
      const std::string s = scalar(k.at("ratio"), "simulation.ratio");
      static const std::regex integer("[0-9]+");
      if (!std::regex_match(s, integer) || s.size() > 6 || std::stoi(s) < 1)
        throw ModelError(at(node), "simulation.ratio must be a positive integer", "H = ratio * h; got " + s);
      sim.ratio = std::stoi(s);
    }
    if (k.count("scheme")) {
      const auto& node = k.at("scheme").second;
      const std::string s = scalar(k.at("scheme"), "simulation.scheme");
      if (!find_scheme(s) && s != "reference") {
        // Of equally close names, suggest the highest-order scheme (rk5 -> rk4).
        std::vector<SchemeInfo> by_order = schemes();
        std::stable_sort(by_order.begin(), by_order.end(), [](const SchemeInfo& a, const SchemeInfo& b) { return a.order > b.order; });
        std::vector<std::string> names;
        names.reserve(by_order.size());
        for (const auto& scheme : by_order) names.emplace_back(scheme.name);
        throw ModelError(at(node), "unknown scheme '" + s + "'",
                         did_you_mean(s, names, "known schemes: " + join(scheme_names(), " ")));
      }
      sim.scheme = s;
    }
    if (k.count("linearization")) {
      const auto& node = k.at("linearization").second;
      const std::string s = scalar(k.at("linearization"), "simulation.linearization");
      if (s != "exact" && s != "frozen")
        throw ModelError(at(node), "simulation.linearization must be 'exact' or 'frozen', not '" + s + "'",
                         did_you_mean(s, {"exact", "frozen"},
                                      "exact: sp_ll requires constant f_z, g_x, g_z; frozen: takes them at the initial state"));
      sim.linearization = s;
    }
    if (k.count("inputs")) {
      std::vector<std::string> input_names;
      for (const auto& u : model_.inputs) input_names.push_back(u.name);
      std::set<std::string> seen;
      for (const auto& e : entries(k.at("inputs").second, "simulation.inputs")) {
        auto u = std::find(input_names.begin(), input_names.end(), e.name);
        if (u == input_names.end())
          throw ModelError(at(e.key), "'" + e.name + "' in simulation.inputs is not an input",
                           did_you_mean(e.name, input_names, "declare it under inputs: with a default value"));
        if (!seen.insert(e.name).second) throw ModelError(at(e.key), "duplicate input signal for '" + e.name + "'");
        ExpressionScope scope = parameter_scope("the signal of input '" + e.name + "'", model_.parameters.size());
        scope.time = &time_ex_;
        sim.inputs.push_back({static_cast<std::size_t>(u - input_names.begin()), expression(e.key, e.value, scope), at(e.value)});
      }
    }
  }

  std::string text_;
  std::string file_;
  std::vector<ParameterOverride> overrides_;
  YAML::Node small_parameter_node_;
  std::vector<std::string> lines_;
  Model model_;
  GiNaC::ex time_ex_ = model_.time;
  std::map<std::string, SourceLoc> defined_;
  std::map<std::string, std::string> kind_;
  std::vector<Variable> all_variables_;
};

}  // namespace

GiNaC::exmap Model::parameter_values() const {
  GiNaC::exmap m;
  for (const auto& p : parameters) m[p.symbol] = GiNaC::numeric(p.value);
  return m;
}

GiNaC::exmap Model::variable_definitions() const {
  GiNaC::exmap m;
  for (const auto& v : variables) m[v.symbol] = v.expr.subs(m);
  return m;
}

GiNaC::ex Model::resolve(const GiNaC::ex& e) const {
  return e.subs(variable_definitions()).subs(parameter_values());
}

std::vector<GiNaC::ex> Model::resolved_rhs() const {
  const GiNaC::exmap vars = variable_definitions();
  const GiNaC::exmap params = parameter_values();
  std::vector<GiNaC::ex> rhs;
  for (const auto& x : states) rhs.push_back(x.rhs.subs(vars).subs(params));
  return rhs;
}

GiNaC::ex Model::operands(const Variable& v) const {
  if (!v.solved) return v.expr;
  GiNaC::lst all;
  for (const auto& row : second_order->mass)
    for (const auto& entry : row) all.append(entry);
  for (const auto& f : second_order->forces) all.append(f);
  return all;
}

GiNaC::ex Model::input_signal(std::size_t i) const {
  for (const auto& s : simulation.inputs)
    if (s.input == i) return s.expr;
  return GiNaC::numeric(inputs[i].default_value);
}

Model load_model_text(const std::string& text, const std::string& file,
                      const std::vector<ParameterOverride>& overrides) {
  return Loader(text, file, overrides).load();
}

Model load_model_file(const std::string& path, const std::vector<ParameterOverride>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 1, 1}, "cannot read model file", "check the path");
  std::ostringstream s;
  s << in.rdbuf();
  return load_model_text(s.str(), path, overrides);
}

}  // namespace dualrate
