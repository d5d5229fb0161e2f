// The generator's intermediate representation of a model: what the model file says,
// checked, with every expression parsed into GiNaC. Everything downstream (reference core,
// analysis, emission) works from this.
#pragma once

#include <ginac/ginac.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostics.hpp"
#include "base/enum_text.hpp"
#include "model/cpp_names.hpp"
#include "model/tables.hpp"

namespace dualrate {

struct Named {
  std::string name;
  SourceLoc loc;             // where the name is defined
  GiNaC::realsymbol symbol;  // stands for it in expressions; named cpp_name(name), as generated code prints it
  std::string cpp() const { return cpp_name(name); }
};

struct Parameter : Named {
  GiNaC::ex expr;           // as written (numbers and earlier parameters), or the override's number
  double value{};           // evaluated
  bool overridden = false;  // set on the command line (--param), not by the file
  // Calibration: a tunable parameter's value may be changed on the running target, within
  // [min, max]; `value` is the one it starts from. Derived parameters (depends_on_tunable)
  // follow it.
  bool tunable = false;
  double min{}, max{};    // tunable only
  SourceLoc range_loc{};  // tunable only: of its `min:`, where its range starts
  // As written in its mapping form, or empty.
  std::string unit{}, description{};
};

// A parameter value given on the command line (--param NAME=VALUE). It replaces the file's
// value before anything is evaluated, so parameters, initial values and input signals that
// use it follow.
struct ParameterOverride {
  std::string name;
  double value{};
};

// How generated code and the reference core hold an input between its samples, which a task
// takes once per step at its start (runtime/include/dualrate/input_hold.hpp): constant (zero),
// or the polynomial through the last two (linear) or three (quadratic) samples, extrapolated
// over the step.
enum class InputHold { kZero, kLinear, kQuadratic };
const char* to_string(InputHold hold);
// The hold to_string names `name` (zero for any other name).
InputHold input_hold_named(const std::string& name);
struct Model;
// m with every input held as `hold` says.
Model with_every_input_held(const Model& m, InputHold hold);

struct Input : Named {
  GiNaC::ex default_expr;
  double default_value{};
  InputHold hold = InputHold::kZero;
  // A change between two consecutive samples larger than this is a step, which restarts a
  // multistep scheme's history (dualrate/input_jump.hpp); 0: none declared.
  double jump = 0;
  // As written in its mapping form, or empty.
  std::string unit{}, description{};
};

struct State : Named {
  bool fast = false;
  GiNaC::ex initial_expr;
  double initial_value{};
  GiNaC::ex rhs;      // d(state)/dt as written (may use variables and parameters)
  SourceLoc rhs_loc;  // of its equation (second-order models: q' = q_dot at the coordinate, q_dot' at its force)
};

struct Variable : Named {
  GiNaC::ex expr;
  // An acceleration of a second-order model whose mass matrix depends on the coordinates:
  // generated code computes all of them by one run-time solve M(q) a = f
  // (dualrate::solve_mass); expr is the symbolic solution, for analysis and the reference core.
  bool solved = false;
  SourceLoc expr_loc{};  // of its expression; a solved acceleration's is the mass section
};

struct Output : Named {
  GiNaC::ex expr;
  SourceLoc expr_loc{};  // of its expression
};

struct InputSignal {
  std::size_t input;  // index into Model::inputs
  GiNaC::ex expr;     // of t and parameters
  SourceLoc loc;
};

// simulation: schedule: the scheduling values of `linearization: scheduled`: a scheme's
// constants are computed at the points of a grid over them and interpolated at run time
// (constant_schedule/constant_schedule.hpp).
struct ScheduleSpec {
  std::vector<GiNaC::ex> by;         // 1 or 2 expressions of states, inputs, parameters, variables
  std::vector<std::string> by_text;  // as written
  std::vector<SourceLoc> by_loc;
  // Per scheduling value, [low, high]; empty: the range the scenario's reference trajectory
  // covers, widened by 5% of its width at each end.
  std::vector<std::pair<double, double>> range;
  // Per scheduling value: its grid points as listed, or empty with counts.
  std::vector<std::vector<double>> points;
  // Per scheduling value: that many uniform points over the range; 0 (with no list): auto.
  std::vector<int> counts;
  // points: auto refines a cell until the one-step map with the constants interpolated at its
  // midpoint is within this of the one with the constants computed there (relative).
  double tolerance = 1e-3;
  SourceLoc loc{}, range_loc{}, points_loc{};
};

// One value of a write: a tunable parameter's (one number) or a tunable table's (all of its
// values, first axis outermost, as Table::values holds them).
struct CalibrationValue {
  std::string name;
  std::vector<double> values;
  SourceLoc loc;       // of its name in the file
  bool table = false;  // names a table
};

// A calibration write (model/calibration.hpp): `set: {...}` from time `at` on.
struct CalibrationWrite {
  double at = 0;
  SourceLoc loc;  // of the entry in the file
  std::vector<CalibrationValue> set;
};

// The accuracy asked of a run against the high-accuracy solution: simulation: tolerance: and
// absolute_tolerance:, or verify's and design's --tolerance and --absolute-tolerance.
struct ErrorTolerance {
  // Of every state and output not named in `absolute`: |x - x_accurate| / max(1, max_t |x_accurate|).
  std::optional<double> relative;
  // Of the named states and outputs, in their own unit: |x - x_accurate|, in the order given.
  std::vector<std::pair<std::string, double>> absolute;
  bool empty() const { return !relative && absolute.empty(); }
};

// How the Jacobian blocks that a scheme's constants rest on are taken (simulation:
// linearization:, --linearization; the schemes that take each: SchemeTraits::linearizations):
// constant, as the exact blocks must be; at the initial state; or over the grid of
// simulation: schedule:, interpolated at each step.
enum class Linearization { kExact, kFrozen, kScheduled };
inline constexpr std::array<Linearization, 3> kLinearizations = {Linearization::kExact, Linearization::kFrozen,
                                                                 Linearization::kScheduled};

// Its name in model files, on the command line and in reports.
constexpr const char* to_string(Linearization l) {
  switch (l) {
    case Linearization::kExact:
      return "exact";
    case Linearization::kFrozen:
      return "frozen";
    case Linearization::kScheduled:
      return "scheduled";
  }
  return "";
}

// A value the file gives to one of its scheme's own options (simulation: scheme_options:, as
// smfe's inner_step: SchemeTraits::options), checked against the scheme by check_model_scheme.
struct GivenSchemeOption {
  std::string name;
  double value = 0;
  SourceLoc loc;  // of the option's name
};

struct Simulation {
  double t_end = 1.0;
  std::string scheme = "rk4";
  SourceLoc scheme_loc{};      // of the scheme's name in the file (check_model_scheme, registry/registry.hpp)
  std::optional<double> step;  // base (fast) step h
  int ratio = 1;               // H = ratio * h
  Linearization linearization = Linearization::kExact;
  SourceLoc linearization_loc{};
  std::vector<GivenSchemeOption> scheme_options;  // in file order, each name once
  std::optional<ScheduleSpec> schedule;
  std::vector<InputSignal> inputs;
  // simulation: inputs_before_start: sampled: the task sampled the inputs' signals at t_0 - 2h
  // and t_0 - h before its first step, so a held input's first steps extrapolate from those
  // samples; else (none) its first steps hold with the samples taken so far
  // (dualrate/input_hold.hpp).
  bool inputs_sampled_before_start = false;
  // simulation: calibration: the writes of the model's calibration scenario (replaced by
  // --calibration FILE), in file order.
  std::vector<CalibrationWrite> calibration;
  // The accuracy the model's user asks of a run: verify judges the generated trace against the
  // high-accuracy solution with it (verify's options override it), design designs for it.
  ErrorTolerance tolerance;
  SourceLoc loc;  // of the simulation section, or the file start
};

// A model written in second-order form, M q'' = f(t, q, q', u) (model file sections
// coordinates, mass, forces, small), as the file states it. The loader also lowers it to
// the first-order states every scheme runs: each coordinate q has a position state q
// (q' = q_dot) and a velocity state q_dot (q_dot' = (M^-1 f)_q, M^-1 computed from the
// parameter values); positions and the velocities of coordinates with large inertia are
// slow, the velocities of the small-inertia coordinates fast.
//
// A mass matrix that depends on the coordinates (at most kMaxSolvedCoordinates of them) is
// not inverted numerically: each q_dot' is the variable q_ddot, solved at run time.
struct SecondOrder {
  std::vector<std::string> coordinates;
  std::vector<std::size_t> position, velocity;  // state index of each coordinate's q and q_dot
  std::vector<std::vector<GiNaC::ex>> mass;     // n x n, of numbers, parameters and (if !constant_mass) coordinates
  bool constant_mass = true;
  std::vector<GiNaC::ex> accelerations;  // !constant_mass: the symbols of the q_ddot variables
  bool diagonal = false;                 // the file gives only the diagonal
  std::vector<GiNaC::ex> forces;         // each coordinate's force: the symbol of variable <q>_force
  std::vector<std::size_t> small;        // coordinates whose inertia is small
  std::string small_parameter;           // the parameter that makes it small (eps), or empty
  SourceLoc mass_loc;
  SourceLoc small_loc;  // of the small section, when there is one
};

// The symbolic inverse a q-dependent mass matrix's solution carries grows like n!.
constexpr std::size_t kMaxSolvedCoordinates = 4;

struct Model {
  std::string name;
  std::string description;
  std::string file;
  std::vector<Parameter> parameters;
  std::vector<std::shared_ptr<const Table>> tables;  // in file order; callable in every expression
  std::vector<Input> inputs;
  std::vector<State> states;  // slow states first, then fast, each in file order
  std::size_t slow_count = 0;
  // The file gives the slow/fast partition (states: slow: fast:, or a second-order model's
  // small coordinates). false: states: is a plain mapping, every state counted slow, and the
  // schemes that need the partition refuse the model (`dualrate design` proposes one).
  bool partitioned = true;
  std::vector<Variable> variables;  // in evaluation order (dependencies first)
  std::vector<Output> outputs;
  Simulation simulation;
  std::optional<SecondOrder> second_order;
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
  // What computing variable v reads: its expression, or for a solved acceleration the mass
  // matrix's entries and the forces (the operands of the run-time solve).
  GiNaC::ex operands(const Variable& v) const;
  // The input signal for input i over time, as written (of t and parameters), or the input's
  // default value when the simulation section gives none.
  GiNaC::ex input_signal(std::size_t i) const;
  // Whether an equation, output or input signal uses t (the generated Model's Time is then
  // double, else Scalar).
  bool uses_time() const;
  // Whether an input's hold is not zero (dualrate/input_hold.hpp: the generated Model declares
  // input_holds, and its Time is double, where a stage's offset from the step's start is taken).
  bool holds_inputs() const;
  // Whether an input declares a jump (dualrate/input_jump.hpp: the generated Model declares
  // input_jumps).
  bool detects_jumps() const;
  // Whether a scenario input signal (simulation: inputs) varies in time: how the inputs are held
  // between samples then matters.
  bool inputs_vary() const;
  // The states' names, then the outputs': the columns after the time in a run's trace.
  std::vector<std::string> state_and_output_names() const;
  // The canonical form of `e` (canonical_form) with each largest subexpression of t and
  // parameters that contains t (and no table) marked as a time term (dr_time,
  // model/functions.hpp): what the emitter prints and the reference core evaluates.
  GiNaC::ex with_time_terms(const GiNaC::ex& e) const;
};

// Whether p's value follows a calibration: its expression uses a tunable parameter or a
// tunable table, directly or through other parameters. (A tunable parameter's own expression
// is a number: it does not depend on one.)
bool depends_on_tunable(const Model& m, const Parameter& p);

// A scheduling value (simulation: schedule: by, or --schedule-by) parsed in the model's scope
// (states, inputs, parameters, variables, tables; not time) from `text` found at `loc`, and
// the check that it depends on a state or an input (a ModelError at loc otherwise).
GiNaC::ex parse_scheduling_value(const Model& m, const std::string& text, const SourceLoc& loc);
void check_scheduling_value(const Model& m, const GiNaC::ex& e, const SourceLoc& loc, const std::string& what);

// Throws ModelError, positioned at the parameters section, when an override names no parameter.
Model load_model_file(const std::string& path, const std::vector<ParameterOverride>& overrides = {});
Model load_model_text(const std::string& text, const std::string& file,
                      const std::vector<ParameterOverride>& overrides = {});

}  // namespace dualrate
