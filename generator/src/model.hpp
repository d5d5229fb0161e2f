// The generator's intermediate representation of a model: what the model file says,
// checked, with every expression parsed into GiNaC. Everything downstream (reference core,
// analysis, emission) works from this.
#pragma once

#include <ginac/ginac.h>

#include <optional>
#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace dualrate {

struct Named {
  std::string name;
  SourceLoc loc;             // where the name is defined
  GiNaC::realsymbol symbol;  // stands for it in expressions
};

struct Parameter : Named {
  GiNaC::ex expr;   // as written (numbers and earlier parameters)
  double value{};   // evaluated
};

struct Input : Named {
  GiNaC::ex default_expr;
  double default_value{};
};

struct State : Named {
  bool fast = false;
  GiNaC::ex initial_expr;
  double initial_value{};
  GiNaC::ex rhs;          // d(state)/dt as written (may use variables and parameters)
  SourceLoc rhs_loc;
};

struct Variable : Named {
  GiNaC::ex expr;
};

struct Output : Named {
  GiNaC::ex expr;
};

struct InputSignal {
  std::size_t input;  // index into Model::inputs
  GiNaC::ex expr;     // of t and parameters
  SourceLoc loc;
};

struct Simulation {
  double t_end = 1.0;
  std::string scheme = "rk4";
  std::optional<double> step;  // base (fast) step h
  int ratio = 1;               // H = ratio * h
  std::string linearization = "exact";  // sp_ll: "exact" (constant blocks required) or "frozen"
  std::vector<InputSignal> inputs;
  SourceLoc loc;               // of the simulation section, or the file start
};

struct Model {
  std::string name;
  std::string description;
  std::string file;
  std::vector<Parameter> parameters;
  std::vector<Input> inputs;
  std::vector<State> states;        // slow states first, then fast, each in file order
  std::size_t slow_count = 0;
  std::vector<Variable> variables;  // in evaluation order (dependencies first)
  std::vector<Output> outputs;
  Simulation simulation;
  GiNaC::realsymbol time{"t"};

  std::size_t fast_count() const { return states.size() - slow_count; }

  // Substitutions that replace every parameter by its value.
  GiNaC::exmap parameter_values() const;
  // Substitutions that replace every variable by its expression in t, states, inputs and
  // parameters.
  GiNaC::exmap variable_definitions() const;
  // `e` with variables expanded and parameters replaced by their values: an expression of
  // t, states and inputs only.
  GiNaC::ex resolve(const GiNaC::ex& e) const;
  // Right-hand sides resolved, in state order.
  std::vector<GiNaC::ex> resolved_rhs() const;
  // The input signal for input i over time, as written (of t and parameters), or the input's
  // default value when the simulation section gives none.
  GiNaC::ex input_signal(std::size_t i) const;
};

Model load_model_file(const std::string& path);
Model load_model_text(const std::string& text, const std::string& file);

}  // namespace dualrate
