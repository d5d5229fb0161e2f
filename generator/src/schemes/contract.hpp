// The contract between the generator and its schemes: what generation asks of a scheme
// (GenerateRequest), what the scheme's design chose for it (SchemeDesign, returned by its
// precompute hook), and what a scheme tells the generator, the reference core, the analysis
// and verify about itself (SchemeInfo and its hooks). Each
// scheme's folder (schemes/NAME/) fills one SchemeInfo; the registry (registry.hpp) lists
// them. Nothing outside a scheme's folder and the registry names a scheme: the layers above
// ask the registry and call the hooks.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <algorithm>
#include <any>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/overrun_handling.hpp"
#include "ir/linear_map.hpp"
#include "ir/op_count.hpp"
#include "model/model.hpp"
#include "model/scalar_type.hpp"
#include "numeric/linearization.hpp"
#include "numeric/ode.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "reference/reference_model.hpp"
#include "reference/sampled_trajectory.hpp"

namespace dualrate {

// An integer or boolean constant of a scheme (C++ type `type`: int or bool).
struct SchemeInteger {
  std::string name, type;
  long value = 0;
  std::string what;
  std::string origin{};  // the analysis that produced it (SourceMap's constants)
};

// A real constant of a scheme (emitted as `static constexpr Scalar name`), or, scheduled, its
// values at the schedule's grid points (emitted as the member `name` of SchemeConstants'
// Schedule, interpolated at each step).
struct SchemeReal {
  std::string name;
  double value = 0;
  std::string what;
  std::string origin{};  // the analysis that produced it (SourceMap's constants)
  std::vector<double> scheduled{};
};

// A function of (t, x, u) a scheme evaluates besides the model's: `type` dxdt_ with
// dxdt_[i] = roots[i], the roots in t, states, inputs, parameters and `model`'s variables.
struct SchemeFunction {
  std::string name, type, what;
  std::vector<GiNaC::ex> roots;
  std::vector<std::size_t> root_states{};  // the state whose equation each root derives from (its source)
};

// An option a scheme declares for itself (SchemeTraits::options): a positive real number the model
// file gives under simulation: scheme_options: and the model commands take as a flag (which
// overrides the file's), kept in SchemeOptions under `name`, which the scheme reads into its
// own typed options (smfe: SmfeOptions). Not given, the scheme chooses (the help says how).
struct SchemeOption {
  std::string name;  // as in the model file: inner_step
  std::string help;  // what it is, and what the scheme chooses when it is not given
  // On the command line: --inner-step.
  std::string flag() const {
    std::string f = "--" + name;
    std::replace(f.begin(), f.end(), '_', '-');
    return f;
  }
};

// What generation is asked for: the scheme, its step and options, and how the code is emitted.
// Filled by the commands; the scheme's precompute hook reads it and returns a SchemeDesign.
struct GenerateRequest {
  std::string scheme;
  double step = 0;  // h
  int ratio = 1;
  ScalarType scalar = ScalarType::kDouble;
  std::string generator_version;
  SchemeOptions scheme_options{};  // the scheme's own options as given
  OverrunHandling overrun_handling =
      OverrunHandling::kSkip;  // dual-rate tasks: a release that finds the slow job running
  std::string name_space{};    // of the generated code and the header's name (empty: the model's name)
  bool jacobian = false;       // also emit Model::jacobian (--jacobian)
  // A model with tunable values: the names of its instances (--instances), each a namespace
  // within the generated one with its own Model and constants; none: one instance, the namespace.
  std::vector<std::string> instances{};
  // Scheduled constants (linearization: scheduled): the scenario's end, whose reference
  // trajectory gives the operating points (0: the model's simulation.t_end), and whether an
  // unstable schedule is generated anyway.
  double t_end = 0;
  bool allow_unstable = false;
};

// One step of what generated code computes on the target to recompute a design's matrices
// from new calibrated values (docs/calibration.md): in double, on fixed-size matrices named by
// `out` and `in` (a design's matrix, which the step then writes into the constants, or a
// temporary of an earlier step), with no heap and a fixed number of operations.
struct RecomputeStep {
  enum class Kind {
    kEvaluate,     // out[0] = the rows x cols matrix of `entries` (row by row), in the calibrated parameters
    kInverse,      // out[0] = in[0]^-1 (refused when singular)
    kProduct,      // out[0] = in[0] in[1]
    kSum,          // out[0] = in[0] + in[1]
    kPhiBlocks,    // out = e^{hZ}, h phi_1(hZ), h^2 phi_2(hZ) for Z = in[0] and h = step, from one
                   // exponential of Padé degree `degree` with `squarings` squarings, for every write
    kExponential,  // out[0] = e^{hZ} for Z = in[0], h = step, planned as kPhiBlocks
  };
  Kind kind = Kind::kEvaluate;
  std::vector<std::string> out, in;
  long rows = 0, cols = 0;  // kEvaluate
  std::vector<GiNaC::ex> entries{};
  double step = 0;
  int degree = 0, squarings = 0;
};

// What a scheme's design chose for a request: the constants it precomputed, which the emitter
// writes into SchemeConstants and verify and the cost model read. One value the scheme owns.
struct SchemeDesign {
  // Each emitted as a function v -> M v over its nonzeros (linear_map).
  std::vector<NamedMatrix> matrices;
  std::string notes;  // how the constants were obtained (comment in the header)
  // The scheme's options as the design fixed them (smfe: the h_s it chose), for analyses that
  // rebuild the design elsewhere (verify's one-step maps); precompute_scheme adds those the
  // request gives that the design left alone.
  SchemeOptions options{};
  int evaluations = 0;  // right-hand-side evaluations per step as designed (0: SchemeTraits::evaluations)
  std::vector<SchemeInteger> integers{};
  std::vector<SchemeReal> reals{};
  // SchemeConstants then derives from Model (its types and parameters); written from
  // `function_model`'s variables (a scheme's reduced form of the model).
  std::vector<SchemeFunction> functions{};
  std::shared_ptr<const Model> function_model{};
  // Scheduled constants: the schedule designed (each matrix's and real's `scheduled` values are
  // its grid's).
  std::shared_ptr<const ConstantSchedule> schedule{};
  // Calibration: how generated code recomputes the matrices that depend on tunable values
  // (empty: none does, and the matrices stay literals).
  std::vector<RecomputeStep> recompute{};
  // The design found for itself which of its constants depend on tunable values (and recomputes
  // those): the generic check by perturbation (refuse_lost_tunability) is not needed.
  bool calibration_checked = false;
  // A float build's compensated states (dualrate/compensated_sum.hpp: Model::compensated_states),
  // one flag per state, or empty: none (precompute_scheme sets it: compensated_states).
  std::vector<bool> compensated{};
  // The scheme's own typed account of what it chose (smfe: its h_s and N), made once by its
  // precompute and read by its hooks through designed<T>; empty for a scheme without one.
  std::any chosen{};
};

// The typed account a scheme's precompute left in `design` (SchemeDesign::chosen); throws
// std::logic_error when the design holds none of type T.
template <class T>
const T& designed(const SchemeDesign& design) {
  if (const T* chosen = std::any_cast<T>(&design.chosen)) return *chosen;
  throw std::logic_error("the design holds no account of this scheme's choice");
}

// Whether generated code recomputes the design's matrix `name` on the target (a RecomputeStep
// writes it).
bool recomputed(const SchemeDesign& design, const std::string& name);
// The arithmetic of one product with the design's matrix `name` as emitted: over its exact
// nonzeros, or, recomputed, over every entry its structure allows (calibrated_linear_map).
OpCount product_ops(const SchemeDesign& design, const std::string& name);

// With held inputs (dualrate/input_hold.hpp), what a step adds to form every held input's
// polynomial from the samples (linear: a difference and a quotient; quadratic: 3 additions, 4
// products and 2 quotients) and to evaluate every input's polynomial at `times` stage times
// past the step's start (an offset, then 2 additions and 2 products per input); none without.
OpCount held_input_ops(const Model& model, int times);
// Of those, one evaluation at a stage time: held_input_ops(model, 1) - held_input_ops(model, 0).
OpCount held_input_evaluation_ops(const Model& model);

// One call of the scheme function `name` that the design holds (SchemeFunction), as emitted.
// Throws std::logic_error when there is none.
OpCount function_ops(const SchemeDesign& design, const std::string& name);

// A scheme that has no design at a step (smfe: no number of inner steps is stable): the
// analysis counts the step as unstable, verify has no one-step map for its tolerance.
class SchemeDesignError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a scheme's reference step is prepared with.
struct ReferenceSetup {
  const Model* model = nullptr;  // the model, or null when analysing a bare Jacobian
  std::size_t slow = 0;          // states before the fast ones
  // The Jacobian at (t, x), or (analysis) the analysed constant Jacobian. A scheme whose
  // constants rest on the model's linearization takes it as `linearization` says.
  std::function<Eigen::MatrixXd(double t, const std::vector<double>& x)> jacobian;
  SchemeOptions options{};  // the scheme's own options as given
  // The inputs the step holds from its start time t (null when analysing a bare Jacobian).
  std::function<std::vector<double>(double t)> inputs;
  // For a model with held inputs (Model::holds_inputs): their polynomials over the step from t
  // (ReferenceModel::held_inputs_of_step), and d(dx/dt)/du where `jacobian` is taken; null
  // otherwise.
  std::function<HeldInputs<double>(double t)> held_inputs{};
  std::function<Eigen::MatrixXd(double t, const std::vector<double>& x)> input_jacobian{};
  // Scheduled constants (linearization: scheduled): the scheme's constants interpolated at the
  // scheduling values of (t, x) and the inputs held from t, and the step they are computed for;
  // null otherwise.
  std::function<std::vector<NamedMatrix>(double t, const std::vector<double>& x)> scheduled{};
  double scheduled_step = 0;
  // The count a scheduled design fixed for its grid (ConstantSchedule::iterations: smfe's N,
  // quasistatic's Newton steps): with `scheduled`, the schedule's; without, a run that
  // re-designs at every step what the schedule interpolates, with that count (0: neither).
  int iterations = 0;
  // The generator's design at the step (verify's exact step check: float_reference confirms its
  // constants with the reference core's own, confirmed_constants); null otherwise.
  const SchemeDesign* design = nullptr;
  Linearization linearization = Linearization::kExact;  // the run's (Simulation::linearization)
  std::vector<double> initial_state{};                  // the run's state at t = 0
};

// One step of size h from (t, x) on the right-hand side f (inputs held over the step).
using ReferenceStep =
    std::function<std::vector<double>(const RightHandSide& f, double t, double h, const std::vector<double>& x)>;

// Which of a scheme's states its update x_{n+1} = x_n + dx adds (SchemeTraits::compensated_update).
enum class CompensatedUpdate { kNone, kAllStates, kSlowStates };

// What a step in the build's arithmetic T evaluates of the model, as generated code does: the
// right-hand side (inputs held over the step), and for scheduled constants the scheduling values
// (Model::scheduling_values) with the same inputs.
template <class T>
struct ModelIn {
  RightHandSideIn<T> f;
  std::function<std::vector<T>(double t, const std::vector<T>& x)> scheduling_values{};
  std::vector<double> inputs{};  // the step's held inputs (a scheme's reduced form evaluates at them)
  HeldInputs<T> held{};          // a model with held inputs: their polynomials over the step (else empty)
  // A build with compensated sums: which states (Model::compensated_states) and their carries at
  // the step's start (else both empty).
  std::vector<bool> compensated{};
  std::vector<T> carry{};
};

// x + dx for the update of state i as the runtime's Sum adds it: a compensated state's carry c
// taken into its increment, x + (dx - c) (dualrate::CompensatedSum), any other's x + dx.
template <class T>
T compensated_add(const ModelIn<T>& model, std::size_t i, T x, T dx) {
  if (i < model.compensated.size() && model.compensated[i]) return x + (dx - model.carry[i]);
  return x + dx;
}
// (x + a) + b likewise: a compensated state takes a + b as its increment.
template <class T>
T compensated_add(const ModelIn<T>& model, std::size_t i, T x, T a, T b) {
  if (i < model.compensated.size() && model.compensated[i]) return x + ((a + b) - model.carry[i]);
  return x + a + b;
}
using FloatModel = ModelIn<float>;

// The same step in T's arithmetic, operation for operation as the runtime's step computes it
// in a build of that Scalar (numeric/ode.hpp's *_step_in<T>, prk25's prk_step_in<T>).
template <class T>
using StepIn = std::function<std::vector<T>(const ModelIn<T>& model, double t, T h, const std::vector<T>& x)>;
using FloatStep = StepIn<float>;

// The multistep and dual-rate schemes' reference runs, tied to the grid t_i = i h, in the
// arithmetic T (double: the reference core's runs; float: a float build's, verify's exact step
// check). dx/dt at grid time t_i = i h with the inputs sampled at t_i.
template <class T>
using GridRhsIn = std::function<void(long i, const std::vector<T>& x, std::vector<T>& dxdt)>;
// One RK4 step of the whole state from grid time t_i (inputs held at t_i): the start-up.
template <class T>
using StartStepIn = std::function<std::vector<T>(long i, const std::vector<T>& x)>;
// dx/dt at t with the inputs sampled at input_tick h (held over a task's release), on the model
// in effect at that tick: the task that samples them runs on the constants of its release.
template <class T>
using TickRhsIn = std::function<void(long input_tick, double t, const std::vector<T>& x, std::vector<T>& dxdt)>;
using GridRhs = GridRhsIn<double>;
using StartStep = StartStepIn<double>;
using TickRhs = TickRhsIn<double>;

// What the reference core gives a grid-tied scheme's run (SchemeHooks::reference_run).
template <class T>
struct GridSetupIn {
  std::size_t slow = 0;  // states before the fast ones
  T h = 0;               // the fast step
  int ratio = 1;         // H = ratio h
  GridRhsIn<T> f;
  TickRhsIn<T> held;
  StartStepIn<T> start;
  std::function<bool(long tick)> jumped;  // a model with input jumps: whether tick's sample stepped
  // Dual-rate task forms: called before each fast tick with the fast task's state (ReferenceCore::tick_trace).
  std::function<void(long tick, const std::vector<T>& x)> each_tick;
  // The compensated states of the build the run is compared with (RunOptions::compensated):
  // the dual-rate task forms' slow job adds their corrections with compensated sums.
  std::vector<bool> compensated;
};
using GridSetup = GridSetupIn<double>;

// The run: advance(i, x) moves x from grid index i to the index it returns; every index an
// advance returns after the start-up is a multiple of `stride` (so must be the run's end).
// Dual-rate task forms also `restore` the run from everything the generated tasks keep at a
// macro boundary (the runtime scheme's Kept: verify's local check), so that the next advance
// starts from it; null for the others.
template <class T>
struct GridRunIn {
  int stride = 1;
  std::function<long(long i, std::vector<T>& x)> advance;
  std::function<void(const std::vector<T>& kept)> restore{};
};
using GridRun = GridRunIn<double>;

// What an entry of a scheme's one-step map's vector is: a value of state `state`, or its
// derivative; `compared` marks the entries that are the state a run reports.
struct StepMapEntry {
  std::size_t state;
  bool derivative;
  bool compared;
};

// The entries of a scheme's one-step map, and how many steps of h one application takes.
struct StepMapLayout {
  std::vector<StepMapEntry> entries;
  int substeps = 1;
};

// How the largest stable step is searched for a scheme whose stability at a step is not the
// spectral radius of one fixed map (smfe: whether a design exists at that step). `result`
// set: that is the answer (with `bounded`); else [from, to] is scanned with `stable`.
struct StableStepScan {
  double from = 0, to = 0;
  std::function<bool(double step)> stable;
  std::optional<double> result;
  bool bounded = true;
};

// What a scheme adds to the stability report (analyze): JSON members (each starting with a
// comma) and text lines.
struct SchemeAnalysis {
  std::string json, text;
};

// The defaults of the SchemeHooks a scheme may leave as they are, each doing nothing or giving
// nothing, so that callers call them unconditionally.
std::string no_float_reference_gap(const SchemeDesign& design);
void no_trajectory_check(const Model& model, const ScenarioTrajectory& trajectory);
SchemeAnalysis no_scheme_analysis(const Model& model, double h, const SchemeOptions& options);
std::string no_generate_note(const Model& model, const GenerateRequest& request, const SchemeDesign& design,
                             const ScenarioTrajectory& trajectory);

// How verify holds a scheme's builds to the reference core (verify/tolerance.hpp,
// verify/local_check.hpp).
struct VerifyPolicy {
  double double_tolerance = 1e-12;  // the bound of a double build
  // Verify's local check holds its float builds to one (macro) step's share of the step-map
  // bound (local_step_tolerance: stages rounding relative to their terms, solved fast states
  // relative to g_z^-1 times theirs); false: to the first-order bound of one step, for a scheme
  // whose rounding that share does not cover (quasistatic's Newton-solved fast velocities:
  // docs/verification.md).
  bool local_step_map = true;
  // Its fast states pass through g_z^-1 applied to the fast right-hand side (sp_ll's sigma,
  // quasistatic's solve for the quasi-steady fast state): their rounding is relative to
  // |g_z^-1| times the terms of g, which exceed a step's h |g| terms when h |g_z| < 1
  // (verify's float tolerances add them).
  bool fast_states_solved = false;
  // Its only constants are the step h and one factor h/c of the whole increment (euler, rk2,
  // rk4: dualrate::Rk4::step): their float rounding moves a step by at most
  // u_f (|h d step/dh| + |step - x|), which verify's float tolerances take from the reference
  // core's steps along the run. Otherwise 2 u_f |Phi - I| X: a worst case over each row's
  // terms, for constants that multiply parts of a step apart (matrices, stage weights).
  bool step_scaled_constants = false;
};

// Who a scheme is: its name and the runtime's class that implements it.
struct SchemeIdentity {
  const char* name = "";
  const char* runtime_class = "";  // class template in the runtime, instantiated with the model
  const char* header = "";         // runtime header that defines it
  const char* summary = "";
};

// What a scheme is and takes: its order and cost, its form (dual-rate, grid-tied, ...), the
// constants, linearizations and held inputs it takes, and its own options.
struct SchemeTraits {
  int order = 1;
  int evaluations = 1;           // right-hand-side evaluations per step
  bool takes_constants = false;  // instantiated as <Model, SchemeConstants> with its design's constants
  bool dual_rate = false;        // runs as a fast and a slow task (dualrate::DualRate), H = ratio h
  bool parallel = false;         // dual-rate: the parallel two-track variant
  // Treats every state alike (no slow/fast split): its one-step map for J decouples along J's
  // eigenvectors, so the analysis checks it per eigenvalue (on a 1x1 or 2x2 real block).
  bool uniform = false;
  // Generated code exists for it; false: only the reference core runs it (simulate: the
  // paper's form of a scheme whose generated code is another), and analyze when `analysable`.
  bool generated = true;
  bool analysable = true;
  // Its steps are tied to the grid (multistep, dual-rate): a run cannot end with a shortened step.
  bool grid_tied = false;
  // The linearizations (Simulation::linearization) of the Jacobian blocks its constants rest on
  // that it takes besides a schedule (`schedulable`), in the order design tries them when one
  // refuses the model: sp_ll's exact blocks (its constants are then every point's own), and
  // the blocks at the initial state. Empty: its constants are the initial state's whatever the
  // model's linearization (smfe, quasistatic).
  std::vector<Linearization> linearizations{};
  // Computes its constants over a grid of scheduling values (linearization: scheduled).
  bool schedulable = false;
  // Evaluates held inputs (Model::input_holds, dualrate/input_hold.hpp) at its stages' times;
  // false: a model with held inputs is refused (check_input_holds).
  bool held_inputs = false;
  // The highest degree of hold (0 zero, 1 linear, 2 quadratic) whose accuracy its steps keep:
  // design tries it with the holds up to that degree.
  int hold_degree = 0;
  // The states whose update x + dx its step adds with a Sum (dualrate/compensated_sum.hpp), and
  // its float_reference as a compensated float build does (compensated_add): none, all, or the
  // slow ones (a scheme whose fast states are solved, not summed; the dual-rate task forms'
  // slow job, whose reference_run adds them so: GridSetupIn::compensated).
  CompensatedUpdate compensated_update = CompensatedUpdate::kNone;
  // Its own options (SchemeOption), which the CLI offers and its hooks read.
  std::vector<SchemeOption> options{};
};

// What a scheme does for the generator, the reference core, the analysis and verify. A hook
// that only checks or reports defaults to one that does nothing (no_trajectory_check, ...);
// the others are null when the scheme has nothing to do there (the comment says what then).
struct SchemeHooks {
  // Designs the constants for a request; throws ModelError when the model does not suit it.
  // The design's options are those the design fixed (precompute_scheme adds the request's).
  SchemeDesign (*precompute)(const Model& model, const GenerateRequest& request) = nullptr;
  // The reference core's transcription of one step at step h (single-step schemes).
  ReferenceStep (*reference_step)(const ReferenceSetup& setup, double h) = nullptr;
  // `reference_step` at step h in float, when it is written in the runtime's order of
  // operations with the runtime's constants (h, the tableau's weights rounded to float; a
  // scheme with `takes_constants`, setup.design's confirmed by its own), for verify's exact step
  // check; null otherwise.
  FloatStep (*float_reference)(const ReferenceSetup& setup, double h) = nullptr;
  // Why float_reference cannot reproduce the generated step of this design, or empty (the
  // default: it always can). A run with calibration writes steps each segment with the design at
  // its values.
  std::string (*float_reference_gap)(const SchemeDesign& design) = no_float_reference_gap;
  // float_reference's step in double, for a scheme whose reference_step applies constants of its
  // own, which agree with the design's only to the rounding of two computations: the design's
  // constants confirmed by the reference core's (confirmed_constants in double) and applied as a
  // double build's generated code applies them; float_reference_gap applies. Null: a double
  // build of a design with matrices has no exact step check.
  StepIn<double> (*double_reference)(const ReferenceSetup& setup, double h) = nullptr;
  // The reference core's run of a grid-tied scheme (instead of `reference_step`).
  GridRun (*reference_run)(const GridSetup& setup) = nullptr;
  // `reference_run` in float, operation for operation as a float build's generated code (verify's
  // exact step check restarts a dual-rate task form's from what its tasks keep); null: not
  // transcribed.
  GridRunIn<float> (*float_reference_run)(const GridSetupIn<float>& setup) = nullptr;
  // Arithmetic of one step of the runtime's implementation and its lower bound (step_cost),
  // with the design's constants; of a dual-rate scheme, one macro step (request.ratio fast
  // ticks and one slow job) past the start-up.
  StepCost (*cost)(const Model& model, const GenerateRequest& request, const SchemeDesign& design) = nullptr;
  // The Jacobian at the design point of what the scheme integrates, when that is not the
  // model's right-hand side (quasistatic: its reduced form); analysis linearizes this one.
  Eigen::MatrixXd (*analysed_jacobian)(const Model& model) = nullptr;
  // The one-step map for dx/dt = J x split after `slow` states, when the scheme builds it
  // faster than analysis's n reference steps (one_step_map); null otherwise.
  Eigen::MatrixXd (*step_map)(const Eigen::MatrixXd& j, std::size_t slow, double h) = nullptr;
  // A scheme with constants: the one-step map of its generated code for dx/dt = J x split after
  // `slow` states, with the design's constants (computed at the initial state) whatever J is, at
  // step h (smfe: the macro step). stability_along_trajectory judges it at each point's J.
  Eigen::MatrixXd (*design_step_map)(const SchemeDesign& design, const Eigen::MatrixXd& j, std::size_t slow,
                                     double h) = nullptr;
  // Grid-tied schemes: the map of one step (abm4) or macro step (the dual-rate ones) after the
  // start-up on everything the run keeps, and what each of its entries is.
  Eigen::MatrixXd (*grid_step_map)(const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) = nullptr;
  StepMapLayout (*step_map_layout)(const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) = nullptr;
  // The search of the largest stable step, when it is not the map's radius's (above).
  StableStepScan (*stable_step_scan)(const Spectra& spectra, const SchemeOptions& options, double to) = nullptr;
  // Checks, independent of the step, that the scheme can follow the scenario's trajectory
  // (quasistatic: Newton's solve at each of its points); throws ModelError when it cannot.
  // generate (without --allow-unstable), verify, verify-system and design run it once per model;
  // precompute, which design repeats at each step it tries, does not.
  // The default checks nothing.
  void (*check_trajectory)(const Model& model, const ScenarioTrajectory& trajectory) = no_trajectory_check;
  // Checks the model suits the scheme at h and what it adds to the stability report; throws
  // ModelError when it does not suit. The default adds nothing.
  SchemeAnalysis (*analyse)(const Model& model, double h, const SchemeOptions& options) = no_scheme_analysis;
  // A note for generate's standard error on what the design rests on (sp_ll's blocks at the
  // initial state: how much they vary; smfe: its design along the trajectory), or empty (the
  // default).
  std::string (*generate_note)(const Model& model, const GenerateRequest& request, const SchemeDesign& design,
                               const ScenarioTrajectory& trajectory) = no_generate_note;
};

// Each scheme's folder fills one, part by part and field by field by name: who it is, what it
// is, how verify holds it, and its hooks.
struct SchemeInfo {
  SchemeIdentity identity{};
  SchemeTraits traits{};
  VerifyPolicy verify{};
  SchemeHooks hooks{};
};

// Whether the scheme's constants take `linearization` (SchemeTraits::linearizations and schedulable).
bool takes(const SchemeInfo& scheme, Linearization linearization);

}  // namespace dualrate
