#include "schemes/sp_ll/sp_ll.hpp"

#include <fmt/format.h>

#include <set>

#include "numeric/linearization.hpp"
#include "numeric/decompositions.hpp"
#include "schemes/contract.hpp"
#include "ir/counted_arithmetic.hpp"
#include "ir/function_cost.hpp"
#include "reference/reference_model.hpp"
#include "reference/sampled_trajectory.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "model/tunable.hpp"
#include "schemes/sp_ll/calibration.hpp"
#include "schemes/sp_ll/runtime_step.hpp"
#include "schemes/sp_ll/step_formula.hpp"

namespace dualrate {

using Eigen::MatrixXd;
using Eigen::VectorXd;

void phi_blocks(const MatrixXd& z, double h, MatrixXd& e, MatrixXd& p1, MatrixXd& p2) {
  const auto n = z.rows();
  MatrixXd big = MatrixXd::Zero(3 * n, 3 * n);
  big.topLeftCorner(n, n) = z;
  big.block(0, n, n, n).setIdentity();
  big.block(n, 2 * n, n, n).setIdentity();
  const MatrixXd ex = matrix_exponential(h * big);
  e = ex.topLeftCorner(n, n);
  p1 = ex.block(0, n, n, n);
  p2 = ex.block(0, 2 * n, n, n);
}

namespace {

// Seed 000's local linearization: first order in the slow step (SchemeTraits::order).
constexpr int kSpLlOrder = 1;

struct Block {
  const char* name;
  std::size_t row0, rows, col0, cols;
};

using SymbolSet = std::set<GiNaC::ex, GiNaC::ex_is_less>;

// The blocks of the Jacobian that sp_ll precomputes.
std::vector<Block> constant_blocks(const Model& m) {
  const std::size_t ns = m.slow_count, nf = m.fast_count();
  return {{"g_z", ns, nf, ns, nf}, {"g_x", ns, nf, 0, ns}, {"f_z", 0, ns, ns, nf}};
}

// The states' and inputs' symbols (and time's, with_time).
SymbolSet dynamic_symbols(const Model& m, bool with_time) {
  SymbolSet dynamic;
  if (with_time) dynamic.insert(m.time);
  for (const auto& x : m.states) dynamic.insert(x.symbol);
  for (const auto& u : m.inputs) dynamic.insert(u.symbol);
  return dynamic;
}

// The symbols of `among` in block b of j; *first_row is the first row with one.
SymbolSet block_symbols(const GiNaC::matrix& j, const Block& b, const SymbolSet& among,
                        std::size_t* first_row = nullptr) {
  SymbolSet found;
  for (std::size_t r = b.row0; r < b.row0 + b.rows; ++r)
    for (std::size_t c = b.col0; c < b.col0 + b.cols; ++c) {
      const GiNaC::ex& entry = j(static_cast<unsigned>(r), static_cast<unsigned>(c));
      for (auto node = entry.preorder_begin(); node != entry.preorder_end(); ++node)
        if (among.count(*node) && found.insert(*node).second && first_row && found.size() == 1) *first_row = r;
    }
  return found;
}

// g_u of a model with held inputs into b (SpLlBlocks): the fast rows of d(dx/dt)/du at (0, x0,
// u0), the columns of inputs held at their sample zeroed; constant unless `frozen` (else a
// ModelError at the first fast equation whose row depends on t, a state or an input).
void held_input_block(const Model& m, bool frozen, const std::vector<double>& x0, const std::vector<double>& u0,
                      SpLlBlocks& b) {
  const GiNaC::matrix ju = jacobian(m, input_symbols(m));
  const std::size_t ns = m.slow_count, nf = m.fast_count(), ni = m.inputs.size();
  const Block block{"g_u", ns, nf, 0, ni};
  if (!frozen) {
    std::size_t row = 0;
    const SymbolSet symbols = block_symbols(ju, block, dynamic_symbols(m, true), &row);
    if (!symbols.empty())
      throw ModelError(m.states[row].rhs_loc,
                       "sp_ll with held inputs needs a constant g_u = dg/du, but the equation of '" +
                           m.states[row].name + "' is not linear in its inputs",
                       "freeze the linearization at the initial state ('linearization: frozen'), or hold the inputs "
                       "at their samples (no 'hold:')");
  }
  b.gu = held_input_columns(m, evaluate(m, ju, 0, x0, u0), ns);
  b.gu_structure =
      symbolic_structure(ju, static_cast<unsigned>(ns), 0, static_cast<unsigned>(nf), static_cast<unsigned>(ni));
  for (std::size_t k = 0; k < ni; ++k)
    if (m.inputs[k].hold == InputHold::kZero) b.gu_structure.col(static_cast<Eigen::Index>(k)).setConstant(false);
}

}  // namespace

SpLlBlocks sp_ll_blocks(const Model& m, bool frozen) {
  const std::size_t ns = m.slow_count, nf = m.fast_count();
  if (ns == 0 || nf == 0)
    throw ModelError(
        m.states.empty() ? SourceLoc{m.file, 1, 1} : m.states.front().loc,
        "sp_ll needs both slow and fast states (" + std::to_string(ns) + " slow, " + std::to_string(nf) + " fast)",
        "list the fast states under states: fast:, or use rk4 for a single-time-scale model");
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  const SymbolSet dynamic = dynamic_symbols(m, true);
  const std::vector<Block> blocks = constant_blocks(m);
  if (!frozen) {
    for (const auto& b : blocks) {
      std::size_t row = 0;
      const SymbolSet symbols = block_symbols(j, b, dynamic, &row);
      if (!symbols.empty()) {
        std::set<std::string> sorted;
        for (const auto& s : symbols) sorted.insert(GiNaC::ex_to<GiNaC::symbol>(s).get_name());
        std::string names;
        for (const auto& s : sorted) names += (names.empty() ? "" : ", ") + s;
        throw ModelError(m.states[row].rhs_loc,
                         std::string("sp_ll needs a constant ") + b.name + ", but " + b.name + " depends on " + names +
                             " (through the equation of '" + m.states[row].name + "')",
                         "to schedule the constants over the operating range, set 'simulation: linearization: "
                         "scheduled' with 'schedule: by: [EXPR]' (or --linearization scheduled --schedule-by EXPR); "
                         "to freeze them at the initial state, 'linearization: frozen'");
      }
    }
  }
  const InitialPoint p = initial_point(m);
  SpLlBlocks out = split_jacobian(evaluate(m, j, 0, p.x, p.u), ns);
  const auto structure = [&](const Block& b) {
    return symbolic_structure(j, static_cast<unsigned>(b.row0), static_cast<unsigned>(b.col0),
                              static_cast<unsigned>(b.rows), static_cast<unsigned>(b.cols));
  };
  out.gz_structure = structure(blocks[0]);
  out.gx_structure = structure(blocks[1]);
  out.fz_structure = structure(blocks[2]);
  if (m.holds_inputs()) held_input_block(m, frozen, p.x, p.u, out);
  if (!FullPivotLu(out.gz).invertible())
    throw ModelError(
        m.states[ns].rhs_loc, "sp_ll needs an invertible g_z, but g_z is singular at the initial state",
        "every fast state must appear in the fast equations so that g(x, z) = 0 defines the slow manifold");
  return out;
}

std::vector<NamedMatrix> sp_ll_constants(const SpLlBlocks& b, double h) {
  const MatrixXd gz_inv = partial_pivot_inverse(b.gz);
  const MatrixXd k = gz_inv * b.gx;
  const MatrixXd a = b.gz + k * b.fz;
  MatrixXd e_gz, p1, p2, e_a, q1, q2;
  phi_blocks(b.gz, h, e_gz, p1, p2);
  phi_blocks(a, h, e_a, q1, q2);
  const std::string blocks = ", from the Jacobian's blocks (sp_ll_blocks)";
  const std::string expm = " at h: expm of h [[Z, I, 0], [0, 0, I], [0, 0, 0]] (phi_blocks)";
  std::vector<NamedMatrix> c = {
      {"gz_inv", gz_inv, "g_z^-1", {}, "sp_ll: inverse of g_z" + blocks},
      {"k", k, "g_z^-1 g_x", {}, "sp_ll: g_z^-1 g_x" + blocks},
      {"fz", b.fz, "f_z", {}, "sp_ll: f_z" + blocks},
      {"a", a, "A = g_z + g_z^-1 g_x f_z (eq. 40)", {}, "sp_ll: g_z + g_z^-1 g_x f_z" + blocks},
      {"p1", p1, "h phi1(h g_z) = g_z^-1 (e^{h g_z} - I) (eq. 43)", {}, "sp_ll: Z = g_z" + expm},
      {"p2", p2, "h^2 phi2(h g_z): J_1 = p2 gamma (eq. 44)", {}, "sp_ll: Z = g_z" + expm},
      {"q1", q1, "h phi1(h A) (eq. 47)", {}, "sp_ll: Z = A" + expm},
      {"q2", q2, "h^2 phi2(h A) (eq. 47)", {}, "sp_ll: Z = A" + expm}};
  if (b.gu.cols() > 0)
    c.push_back({"ku", gz_inv * b.gu, "K_u = g_z^-1 g_u (held inputs)", {}, "sp_ll: g_z^-1 g_u" + blocks});
  if (b.gz_structure.size() == 0) return c;
  const Pattern gz_functions = pattern_closure(b.gz_structure);  // g_z^-1 and the phi-functions of h g_z
  const Pattern k_structure = pattern_product(gz_functions, b.gx_structure);
  const Pattern a_structure = pattern_sum(b.gz_structure, pattern_product(k_structure, b.fz_structure));
  const Pattern a_functions = pattern_closure(a_structure);
  const Pattern structures[] = {gz_functions, k_structure,  b.fz_structure, a_structure,
                                gz_functions, gz_functions, a_functions,    a_functions};
  for (std::size_t i = 0; i < std::size(structures); ++i) c[i].structure = structures[i];
  if (b.gu.cols() > 0) c.back().structure = pattern_product(gz_functions, b.gu_structure);
  return c;
}

MatrixXd sp_ll_step_map(const MatrixXd& j, std::size_t slow, double h) {
  return sp_ll_step_map_with(sp_ll_constants(split_jacobian(j, slow), h), j, slow, h);
}

namespace {

// A linear plant x' = J x (step_formula.hpp): each vector a matrix of n columns, the step's
// image of the identity's; the constants as given.
struct LinearArithmetic {
  using Scalar = double;
  using Time = double;
  struct Input {};  // the plant takes none
  using Vector = MatrixXd;

  const std::vector<NamedMatrix>& constants;
  const MatrixXd& j;
  Eigen::Index ns, nf;

  static Input input_sample(Time) { return {}; }
  static Input inputs_at(Time) { return {}; }
  Vector rate(Input u, const Vector& xs, const Vector& zs) const {
    Vector d(ns + nf, xs.cols());
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    d << slow_rate(u, xs, zs), j.bottomLeftCorner(nf, ns) * xs + j.bottomRightCorner(nf, nf) * zs;
    return d;
  }
  Vector slow_rate(Input, const Vector& xs, const Vector& zs) const {
    return j.topLeftCorner(ns, ns) * xs + j.topRightCorner(ns, nf) * zs;
  }
  Vector slow_rows(const Vector& d) const { return d.topRows(ns); }
  Vector fast_rows(const Vector& d) const { return d.bottomRows(nf); }
  Vector fast_zero() const { return MatrixXd::Zero(nf, ns + nf); }
  Vector product(SpLlConstant c, const Vector& v) const { return named(constants, name_of(c)).value * v; }
  static bool holds_inputs() { return false; }
  Vector input_rate() const { return fast_zero(); }
  Vector input_curvature() const { return fast_zero(); }
  static Vector update(const Vector& xn, const Vector& rk4, const Vector& fz) { return xn + rk4 + fz; }
  static Vector stack(const Vector& xs, const Vector& zs) {
    Vector x(xs.rows() + zs.rows(), xs.cols());
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    x << xs, zs;
    return x;
  }
};

}  // namespace

MatrixXd sp_ll_step_map_with(const std::vector<NamedMatrix>& constants, const MatrixXd& j, std::size_t slow, double h) {
  const auto ns = static_cast<Eigen::Index>(slow), n = j.rows(), nf = n - ns;
  const MatrixXd identity = MatrixXd::Identity(n, n);
  const LinearArithmetic a{constants, j, ns, nf};
  return sp_ll_step(a, 0.0, h, identity.topRows(ns), identity.bottomRows(nf));
}

std::vector<std::pair<std::string, double>> sp_ll_variation(const std::vector<MatrixXd>& jacobians, std::size_t slow) {
  std::vector<SpLlBlocks> all;
  for (const auto& j : jacobians) all.push_back(split_jacobian(j, slow));
  const auto variation = [&all](MatrixXd SpLlBlocks::*block) {
    const MatrixXd& then = all.front().*block;
    double change = 0, largest = 0;
    for (const SpLlBlocks& now : all) {
      change = std::max(change, (now.*block - then).norm());
      largest = std::max(largest, (now.*block).norm());
    }
    const double scale = then.norm() > 0 ? then.norm() : largest;
    return scale > 0 ? change / scale : 0.0;
  };
  return {
      {"f_z", variation(&SpLlBlocks::fz)}, {"g_x", variation(&SpLlBlocks::gx)}, {"g_z", variation(&SpLlBlocks::gz)}};
}

namespace {

// The states and inputs the blocks f_z, g_x, g_z depend on.
SymbolSet block_dependencies(const Model& m) {
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  const SymbolSet dynamic = dynamic_symbols(m, false);
  SymbolSet found;
  for (const auto& b : constant_blocks(m)) found.merge(block_symbols(j, b, dynamic));
  return found;
}

SchemeDesign precompute(const Model& model, const GenerateRequest& request) {
  SchemeDesign d;
  if (model.simulation.linearization != Linearization::kScheduled) {
    const bool frozen = model.simulation.linearization == Linearization::kFrozen;
    const SpLlBlocks blocks = sp_ll_blocks(model, frozen);
    if (has_tunable(model)) {
      d.recompute = sp_ll_calibration_steps(model, request.step);
      d.calibration_checked = true;
    }
    d.matrices = sp_ll_constants(blocks, request.step);
    if (!d.recompute.empty()) {
      const RecomputeStep& phi = d.recompute.back();
      d.notes = fmt::format(
          "f_z, g_x and g_z depend on tunable values: computed here at the model's values, and by\n"
          "recalibrate() on the target for new ones (exponentials of Padé degree {} with {}\n"
          "squarings for every write, from bounds over the whole calibration range).",
          phi.degree, phi.squarings);
      return d;
    }
    d.notes = frozen
                  ? "Linearization frozen at the initial state (simulation: linearization: frozen): f_z, g_x and g_z\n"
                    "vary with the state; 'dualrate generate' reports by how much along the reference trajectory."
                  : "f_z, g_x and g_z are constant (checked symbolically).";
    return d;
  }
  if (model.holds_inputs())
    throw ModelError(model.simulation.schedule->loc,
                     "sp_ll's scheduled constants hold the inputs at their samples: it takes no input hold ('hold:')",
                     "freeze the linearization (linearization: frozen), or leave out the holds");
  if (has_tunable(model) && !sp_ll_calibration_steps(model, request.step).empty())
    throw ModelError(model.simulation.schedule->loc,
                     "sp_ll's scheduled constants depend on tunable values: generated code cannot recompute a "
                     "schedule on the target",
                     "freeze the linearization (linearization: frozen), or make the parameters in f_z, g_x and g_z "
                     "fixed");
  const SpLlBlocks initial = sp_ll_blocks(model, true);
  const std::size_t ns = model.slow_count;
  const double h = request.step;
  const SourceLoc where = model.simulation.schedule->loc;
  SchedulableScheme scheme;
  scheme.step = h;
  scheme.order = kSpLlOrder;
  scheme.constants = [&](const OperatingPoint&, const MatrixXd& j) {
    SpLlBlocks b = split_jacobian(j, ns);
    if (!FullPivotLu(b.gz).invertible())
      throw ModelError(where,
                       "sp_ll needs an invertible g_z, but g_z is singular at an operating point of the schedule",
                       "narrow the schedule's range to where the fast dynamics are well defined");
    b.fz_structure = initial.fz_structure;
    b.gx_structure = initial.gx_structure;
    b.gz_structure = initial.gz_structure;
    return sp_ll_constants(b, h);
  };
  scheme.step_map = [ns, h](const std::vector<NamedMatrix>& c, const OperatingPoint&, const MatrixXd& j) {
    return sp_ll_step_map_with(c, j, ns, h);
  };
  scheme.depends_on = block_dependencies(model);
  const double t_end = request.t_end > 0 ? request.t_end : model.simulation.t_end;
  auto schedule = std::make_shared<ConstantSchedule>(design_schedule(model, t_end, scheme, request.allow_unstable));
  schedule->step = h;
  d.matrices = scheduled_matrices(*schedule);
  d.notes =
      "f_z, g_x and g_z computed at the operating points of a grid of scheduling values (simulation:\n"
      "linearization: scheduled); the constants are interpolated linearly at each step.\n" +
      schedule_summary(*schedule);
  d.schedule = std::move(schedule);
  return d;
}

// The setup with its Jacobians taken as its linearization says: at the initial state when
// frozen, else where the step asks.
ReferenceSetup linearized(const ReferenceSetup& s) {
  if (s.linearization != Linearization::kFrozen) return s;
  ReferenceSetup frozen = s;
  frozen.jacobian = [j = s.jacobian(0, s.initial_state)](double, const std::vector<double>&) { return j; };
  if (s.input_jacobian)
    frozen.input_jacobian = [j = s.input_jacobian(0, s.initial_state)](double, const std::vector<double>&) {
      return j;
    };
  return frozen;
}

ReferenceStep reference(const ReferenceSetup& setup, double) {
  const ReferenceSetup s = linearized(setup);
  if (s.scheduled) {
    return [constants = s.scheduled, slow = s.slow, step = s.scheduled_step](const RightHandSide& f, double t, double h,
                                                                             const std::vector<double>& x) {
      if (h != step)
        throw SimulationError(
            fmt::format("sp_ll's scheduled constants are computed for the step {:.17g}, not {:.17g}", step, h));
      return sp_ll_constants_step(f, constants(t, x), slow, t, h, x);
    };
  }
  const Linearize blocks = [s](double t, const std::vector<double>& x) {
    SpLlBlocks b = split_jacobian(s.jacobian(t, x), s.slow);
    if (s.input_jacobian) b.gu = held_input_columns(*s.model, s.input_jacobian(t, x), s.slow);
    return b;
  };
  return [blocks, slow = s.slow, held = s.held_inputs](const RightHandSide& f, double t, double h,
                                                       const std::vector<double>& x) {
    return sp_ll_reference_step(f, blocks, slow, t, h, x, held ? held(t) : HeldInputs<double>{});
  };
}

// Sizes only (step_formula.hpp): each product and right-hand side evaluation counts as work
// (StepCost::add_work) at its cost as emitted, the vector arithmetic between them as ops.
struct CountingArithmetic {
  using Scalar = CountedScalar;
  using Time = CountedScalar;
  struct Input {};
  using Vector = CountedVector;

  const Model& model;
  const SchemeDesign& design;
  StepCost& cost;
  Eigen::Index ns, nf, inputs;

  static Input input_sample(const Time&) { return {}; }
  Input inputs_at(const Time&) const {
    cost.ops += held_input_evaluation_ops(model);
    return {};
  }
  Vector rate(Input, const Vector&, const Vector&) const { return work(derivative_ops(model, Rows::kAll), ns + nf); }
  Vector slow_rate(Input, const Vector&, const Vector&) const { return work(derivative_ops(model, Rows::kSlow), ns); }
  Vector slow_rows(const Vector&) const { return {ns, cost.ops}; }
  Vector fast_rows(const Vector&) const { return {nf, cost.ops}; }
  Vector fast_zero() const { return {nf, cost.ops}; }
  Vector product(SpLlConstant c, const Vector&) const {
    return work(product_ops(design, name_of(c)), named(design.matrices, name_of(c)).value.rows());
  }
  bool holds_inputs() const { return model.holds_inputs(); }
  Vector input_rate() const { return {inputs, cost.ops}; }
  Vector input_curvature() const { return {inputs, cost.ops}; }
  static Vector update(const Vector& xn, const Vector& rk4, const Vector& fz) { return xn + rk4 + fz; }
  Vector stack(const Vector& xs, const Vector& zs) const { return {xs.rows() + zs.rows(), cost.ops}; }

 private:
  Vector work(const OpCount& ops, Eigen::Index rows) const {
    cost.add_work(ops);
    return {rows, cost.ops};
  }
};

// The runtime's step counted (CountingArithmetic), with the schedule's lookup before it.
StepCost cost(const Model& model, const GenerateRequest&, const SchemeDesign& d) {
  StepCost c;
  const auto ns = static_cast<Eigen::Index>(model.slow_count);
  const auto nf = static_cast<Eigen::Index>(model.fast_count());
  CountingArithmetic a{model, d, c, ns, nf, static_cast<Eigen::Index>(model.inputs.size())};
  c.ops += held_input_ops(model, 0);  // the held inputs' polynomials, formed before the step
  sp_ll_step(a, CountedScalar(c.ops), CountedScalar(c.ops), CountedVector(ns, c.ops), CountedVector(nf, c.ops));
  if (d.schedule) c.add_work(schedule_ops(model, d.matrices, 0, *d.schedule));
  return c;
}

}  // namespace

namespace {

// analyze: the model must suit the scheme (its Jacobian blocks, taken at the initial state).
SchemeAnalysis analyse(const Model& model, double, const SchemeOptions&) {
  sp_ll_blocks(model, true);
  return {};
}

// For a frozen linearization: how much f_z, g_x, g_z vary along the high-accuracy reference
// trajectory, relative to their values at the initial state.
std::string generate_note(const Model& model, const GenerateRequest&, const SchemeDesign&,
                          const ScenarioTrajectory& trajectory) {
  if (model.simulation.linearization != Linearization::kFrozen) return "";
  const ReferenceModel core(model);
  const double t_end = trajectory.t_end();
  std::vector<Eigen::MatrixXd> jacobians;
  for (const TrajectorySample& at : trajectory.samples()) jacobians.push_back(core.jacobian_at(at.t, at.x, at.u));
  std::string parts;
  for (const auto& [name, v] : sp_ll_variation(jacobians, model.slow_count))
    parts += fmt::format("{}{} {:.3g}", parts.empty() ? "" : ", ", name, v);
  return fmt::format(
      "note: sp_ll linearization frozen at the initial state; along the reference trajectory to t = {:.6g} the "
      "matrices vary by (max ||M(t) - M(0)|| / ||M(0)||, or where M(0) = 0 / max ||M(t)||): {}\n",
      t_end, parts);
}

}  // namespace

SchemeInfo sp_ll_scheme() {
  // Generated code uses precomputed phi-functions, the reference core per-step block
  // exponentials (Eigen's Pade approximant): they agree to rounding of those, bound 1e-10.
  SchemeInfo s;
  s.identity.name = "sp_ll";
  s.identity.runtime_class = "dualrate::SpLl";
  s.identity.header = "dualrate/schemes/sp_ll.hpp";
  s.traits.order = kSpLlOrder;
  s.identity.summary = "singular-perturbation local linearization, seed 000";
  s.traits.evaluations = 6;
  s.traits.takes_constants = true;
  s.verify.double_tolerance = 1e-10;
  s.verify.fast_states_solved = true;
  s.hooks.precompute = precompute;
  s.hooks.reference_step = reference;
  s.hooks.float_reference = sp_ll_reference_in<float>;
  s.hooks.double_reference = sp_ll_reference_in<double>;
  s.hooks.cost = cost;
  s.hooks.step_map = sp_ll_step_map;
  s.hooks.design_step_map = [](const SchemeDesign& design, const Eigen::MatrixXd& j, std::size_t slow, double h) {
    return sp_ll_step_map_with(design.matrices, j, slow, h);
  };
  s.traits.linearizations = {Linearization::kExact, Linearization::kFrozen};
  s.traits.schedulable = true;
  s.traits.held_inputs = true;
  s.traits.compensated_update = CompensatedUpdate::kSlowStates;  // the fast states are solved
  s.traits.hold_degree = 2;  // exact on a linear model's held polynomial: its error is the linearization's
  s.hooks.analyse = analyse;
  s.hooks.generate_note = generate_note;
  return s;
}

}  // namespace dualrate
