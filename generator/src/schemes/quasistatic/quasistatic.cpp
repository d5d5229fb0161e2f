// Size: seed 002 whole: the reduced form, its Newton design at the design point, the boundary
// layer's correction, the reference steps of both forms and their registry entries (the step's
// formula, its runtime arithmetic and its count: step_formula.hpp, runtime_step.cpp, step_cost.cpp).
#include "schemes/quasistatic/quasistatic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "numeric/decompositions.hpp"
#include "reference/sampled_trajectory.hpp"
#include "numeric/linearization.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "schemes/contract.hpp"
#include "model/tunable.hpp"
#include "schemes/quasistatic/calibration.hpp"
#include "schemes/quasistatic/runtime_step.hpp"
#include "schemes/quasistatic/step_cost.hpp"
#include "ir/float_constants.hpp"
#include "ir/op_count.hpp"

namespace dualrate {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

const char* kHint =
    "the quasistatic scheme solves the fast states from their equations set to zero; sp_ll, smfe or rk4 at a "
    "short step integrate them instead";

double to_double(const GiNaC::ex& e) {
  const GiNaC::ex v = e.evalf();
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
    throw std::logic_error("a mass matrix entry does not evaluate to a real number");
  return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
}

// M0 = M with the small parameter at 0 and the other parameters at their values.
MatrixXd limit_mass(const Model& model, const SecondOrder& so) {
  GiNaC::exmap at_zero;
  for (const auto& p : model.parameters)
    at_zero[p.symbol] = p.name == so.small_parameter ? GiNaC::ex(0) : p.expr.subs(at_zero).evalf();
  const auto n = static_cast<Eigen::Index>(so.coordinates.size());
  MatrixXd m0(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      m0(i, j) = to_double(so.mass[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].subs(at_zero));
  return m0;
}

void reduce_second_order(const Model& model, QuasistaticForm& form) {
  const SecondOrder& so = *model.second_order;
  if (so.small_parameter.empty())
    throw ModelError(so.small_loc, "quasistatic needs the small parameter that makes the small inertia small",
                     "name it in the small section, as in 'parameter: m_N': M0 is the mass matrix with it at 0");
  if (!so.constant_mass)
    throw ModelError(so.mass_loc, "quasistatic needs a constant mass matrix; this one depends on the coordinates",
                     "M0's reduced block is inverted at generation time; run the model with a scheme of the full "
                     "model (rk4, sp_ll, ...)");
  const MatrixXd m0 = limit_mass(model, so);
  const double scale = m0.cwiseAbs().maxCoeff();
  for (std::size_t s : so.small)
    for (std::size_t j = 0; j < so.coordinates.size(); ++j) {
      const double v = m0(static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(j));
      if (std::abs(v) > 1e-12 * scale)
        throw ModelError(so.mass_loc,
                         fmt::format("with {} = 0 the mass matrix keeps entry ({}, {}) = {:.6g}: the inertia of small "
                                     "coordinate '{}' does not vanish with {}",
                                     so.small_parameter, so.coordinates[s], so.coordinates[j], v, so.coordinates[s],
                                     so.small_parameter),
                         "choose coordinates in which the small parameter multiplies the small coordinates' rows and "
                         "columns of M (e.g. the light body's own position), or list other small coordinates");
    }
  for (std::size_t i = 0; i < so.coordinates.size(); ++i)
    if (std::find(so.small.begin(), so.small.end(), i) == so.small.end()) form.large.push_back(i);
  const auto nl = static_cast<Eigen::Index>(form.large.size());
  form.reduced_mass.resize(nl, nl);
  for (Eigen::Index a = 0; a < nl; ++a)
    for (Eigen::Index b = 0; b < nl; ++b)
      form.reduced_mass(a, b) = m0(static_cast<Eigen::Index>(form.large[static_cast<std::size_t>(a)]),
                                   static_cast<Eigen::Index>(form.large[static_cast<std::size_t>(b)]));
  const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(form.reduced_mass, Eigen::EigenvaluesOnly);
  const double smallest = eig.eigenvalues().minCoeff(), largest = eig.eigenvalues().maxCoeff();
  form.reduced_mass_smallest = smallest;
  if (!(smallest > static_cast<double>(nl) * std::numeric_limits<double>::epsilon() * largest))
    throw ModelError(so.mass_loc,
                     fmt::format("with {} = 0 the mass matrix of the other coordinates is not positive definite "
                                 "(smallest eigenvalue {:.6g}, largest {:.6g}): more than the small coordinates lose "
                                 "their inertia",
                                 so.small_parameter, smallest, largest),
                     "list every coordinate whose inertia vanishes with the small parameter under small: coordinates");
  const MatrixXd inverse = form.reduced_mass.llt().solve(MatrixXd::Identity(nl, nl));
  for (Eigen::Index a = 0; a < nl; ++a) {
    GiNaC::ex sum = 0;
    for (Eigen::Index b = 0; b < nl; ++b)
      if (inverse(a, b) != 0) sum += GiNaC::numeric(inverse(a, b)) * so.forces[form.large[static_cast<std::size_t>(b)]];
    form.model.states[so.velocity[form.large[static_cast<std::size_t>(a)]]].rhs = sum;
  }
  for (std::size_t s : so.small) form.model.states[so.velocity[s]].rhs = so.forces[s];
  form.residual = "the small coordinates' forces";
}

SourceLoc residual_loc(const Model& model) {
  if (model.second_order) return model.second_order->small_loc;
  return model.states[model.slow_count].rhs_loc;
}

std::vector<double> fast_part(const std::vector<double>& v, std::size_t slow) {
  return {v.begin() + static_cast<long>(slow), v.end()};
}

// G_z symbolically, the fast block of the reduced form's Jacobian, into d, with whether it is
// constant and whether G is affine in the fast states.
void residual_jacobian_structure(const Model& model, const QuasistaticForm& form, QuasistaticDesign& d) {
  const std::size_t ns = model.slow_count;
  const auto nf = static_cast<unsigned>(model.fast_count());
  std::vector<GiNaC::ex> fast;
  for (std::size_t i = ns; i < model.states.size(); ++i) fast.push_back(model.states[i].symbol);
  const GiNaC::matrix rows = jacobian(form.model, fast);
  d.residual_jacobian_symbolic = GiNaC::matrix(nf, nf);
  d.jacobian_constant = d.affine = true;
  for (unsigned r = 0; r < nf; ++r)
    for (unsigned c = 0; c < nf; ++c) {
      const GiNaC::ex& e = rows(static_cast<unsigned>(ns) + r, c);
      d.residual_jacobian_symbolic(r, c) = e;
      for (const auto& z : fast) d.affine = d.affine && !e.has(z);
      bool varies = e.has(model.time);
      for (const auto& x : model.states) varies = varies || e.has(x.symbol);
      for (const auto& u : model.inputs) varies = varies || e.has(u.symbol);
      d.jacobian_constant = d.jacobian_constant && !varies;
    }
}

// The fast states whose equations are flat in every fast state (zero rows of gz), as a clause.
std::string flat_equations(const Model& model, const MatrixXd& gz) {
  std::string names;
  for (Eigen::Index r = 0; r < gz.rows(); ++r)
    if (gz.row(r).isZero(0)) names += (names.empty() ? "" : ", ") + model.states[model.slow_count + r].name;
  return names.empty() ? "" : fmt::format(" (the equation of {} is flat in the fast states there)", names);
}

// Newton on G = 0 for the fast states of x at (t, inputs u), from the reduced form's core.
struct NewtonRun {
  int taken = 0;  // steps applied
  bool converged = false;
  std::string why;  // not converged: why, as a clause
};

// Takes up to kQuasistaticMaxNewton steps on x in place, stopping when a step's correction is
// at most `tolerance` relative to each fast state, or after the first step of an affine G
// (which that step solves exactly).
NewtonRun newton_on_fast_states(const Model& model, const ReferenceModel& core, double t, const std::vector<double>& u,
                                double tolerance, bool affine, std::vector<double>& x) {
  const std::size_t ns = model.slow_count;
  const auto nf = static_cast<Eigen::Index>(model.fast_count());
  NewtonRun run;
  while (run.taken < kQuasistaticMaxNewton) {
    std::vector<double> g;
    core.derivatives(t, x, u, g);
    const MatrixXd gz = core.trailing_jacobian_at(t, x, u, nf);
    const VectorXd dz = partial_pivot_solve(gz, Eigen::Map<const VectorXd>(g.data() + ns, nf));
    if (!dz.allFinite()) {
      run.why = fmt::format("G_z is singular at its step {}{}", run.taken + 1, flat_equations(model, gz));
      return run;
    }
    ++run.taken;
    double size = 0;
    for (Eigen::Index k = 0; k < nf; ++k) {
      double& zk = x[ns + static_cast<std::size_t>(k)];
      zk -= dz[k];
      size = std::max(size, std::abs(dz[k]) / (1 + std::abs(zk)));
    }
    if (size <= tolerance || affine) {
      run.converged = true;
      return run;
    }
  }
  run.why = fmt::format("it does not converge in {} steps", kQuasistaticMaxNewton);
  return run;
}

// Newton on G = 0 at the design point (inputs u0), into d: the steps the runtime takes, the
// consistent fast states and their residual. Throws when Newton does not converge.
void consistent_fast_states(const Model& model, const QuasistaticForm& form, const ReferenceModel& core,
                            const std::vector<double>& u0, QuasistaticDesign& d) {
  const std::size_t ns = model.slow_count;
  std::vector<double> x = core.initial_state();
  // Newton from the file's fast states: the worst start the runtime meets (later steps start
  // from the last solution).
  const NewtonRun run = newton_on_fast_states(model, core, 0, u0, 1e-13, d.affine, x);
  if (!run.converged)
    throw ModelError(residual_loc(model),
                     fmt::format("quasistatic: Newton on {} = 0 fails at the design point: {}", form.residual, run.why),
                     "start the fast states closer to their quasi-steady values");
  // Affine: one step is exact. Otherwise one more than the start needed, at least two.
  d.newton_iterations = d.affine ? 1 : std::max(2, run.taken + 1);
  d.consistent = fast_part(x, ns);
  std::vector<double> g;
  core.derivatives(0, x, u0, g);
  for (std::size_t i = ns; i < g.size(); ++i) d.consistent_residual = std::max(d.consistent_residual, std::abs(g[i]));
}

// A_zz, the full model's fast block at the design point, into d. Throws when one of its
// eigenvalues is damped less than kQuasistaticMinDamping.
void boundary_layer(const Model& model, const QuasistaticForm& form, QuasistaticDesign& d) {
  const auto nf = static_cast<Eigen::Index>(model.fast_count());
  const ReferenceModel full(model);
  d.layer_rate = full.jacobian_at(0, full.initial_state(), full.inputs_at(0)).bottomRightCorner(nf, nf);
  // Theorem 1 needs an exponentially stable boundary layer; a damping ratio below 1% (Re
  // lambda >= -0.01 |lambda|) leaves the fast states ringing for dozens of periods around the
  // manifold the scheme puts them on.
  const Eigen::VectorXcd layer = eigenvalues(d.layer_rate);
  for (const auto& l : layer)
    if (!(l.real() < -kQuasistaticMinDamping * std::abs(l)))
      throw ModelError(residual_loc(model),
                       fmt::format("quasistatic: the fast dynamics are not damped at the design point (eigenvalue "
                                   "{:.6g}{:+.6g}i of their Jacobian block): the fast states do not settle onto "
                                   "{} = 0, as Theorem 1 requires",
                                   l.real(), l.imag(), form.residual),
                       "lightly damped fast oscillations suit prk25 (or sp_ll when their Jacobian is constant)");
}

}  // namespace

QuasistaticForm quasistatic_form(const Model& model) {
  QuasistaticForm form{model, "the fast states' equations", {}, 0, {}};
  if (model.fast_count() == 0)
    throw ModelError(model.simulation.loc, "quasistatic needs fast states: they are what it eliminates",
                     model.second_order ? "list the small-inertia coordinates under small: coordinates"
                                        : "list the fast states under states: fast:");
  if (model.slow_count == 0)
    throw ModelError(model.simulation.loc, "quasistatic needs slow states: it integrates them",
                     "list the slow states under states: slow:");
  if (model.second_order) reduce_second_order(model, form);
  return form;
}

QuasistaticDesign quasistatic_design(const Model& model, const QuasistaticForm& form) {
  QuasistaticDesign d;
  residual_jacobian_structure(model, form, d);
  const ReferenceModel core(form.model);
  const std::vector<double> u0 = core.inputs_at(0);
  d.residual_jacobian =
      core.trailing_jacobian_at(0, core.initial_state(), u0, static_cast<Eigen::Index>(model.fast_count()));
  const Eigen::JacobiSVD<MatrixXd> svd(d.residual_jacobian);
  const VectorXd& sv = svd.singularValues();
  if (!(sv.minCoeff() > 1e-12 * sv.maxCoeff()))
    throw ModelError(residual_loc(model),
                     fmt::format("quasistatic: the Jacobian of {} with respect to the fast states is singular at the "
                                 "design point (singular values {:.3g} to {:.3g}): the fast states cannot be solved "
                                 "from {} = 0",
                                 form.residual, sv.minCoeff(), sv.maxCoeff(), form.residual),
                     model.second_order ? "each small coordinate's force must depend on its velocity (damping); "
                                          "elimination at the position level is not supported yet"
                                        : kHint);
  consistent_fast_states(model, form, core, u0, d);
  boundary_layer(model, form, d);
  return d;
}

void check_newton_along_trajectory(const Model& model, const QuasistaticForm& form, const QuasistaticDesign& d,
                                   const ScenarioTrajectory& along) {
  if (!(along.t_end() > 0)) return;
  const std::vector<TrajectorySample>* samples = nullptr;
  try {
    samples = &along.samples();
  } catch (const SimulationError&) {
    return;
  }
  const std::vector<TrajectorySample>& trajectory = *samples;
  const ReferenceModel core(form.model);
  const std::size_t ns = model.slow_count;
  std::vector<double> z = d.consistent;
  double solved_at = 0;
  for (std::size_t i = 1; i < trajectory.size(); ++i) {
    const double t = trajectory[i].t;
    std::vector<double> x(trajectory[i].x.begin(), trajectory[i].x.begin() + static_cast<long>(ns));
    x.insert(x.end(), z.begin(), z.end());
    // A convergence test, not an accuracy claim: the question is whether Newton finds the root
    // from there, not in how many steps.
    const NewtonRun newton = newton_on_fast_states(model, core, t, trajectory[i].u, 1e-10, d.affine, x);
    if (!newton.converged)
      throw ModelError(residual_loc(model),
                       fmt::format("quasistatic: Newton on {} = 0 fails along the scenario's trajectory at t = {:.6g}, "
                                   "from the fast states solved at t = {:.6g}: {}",
                                   form.residual, t, solved_at, newton.why),
                       "a fast equation that saturates (a rate or position limit) leaves Newton no step on its flat "
                       "part: integrate the fast states (rk4, prk25, sp_ll); --allow-unstable generates it anyway");
    z = fast_part(x, ns);
    solved_at = t;
  }
}

std::vector<double> quasistatic_reference_step(const StackedRates& rates, const NewtonCorrection& newton,
                                               std::size_t slow, int newton_iterations, const MatrixXd& layer, double t,
                                               double h, const std::vector<double>& x) {
  const auto ns = static_cast<Eigen::Index>(slow);
  const auto n = static_cast<Eigen::Index>(x.size());
  const auto nf = n - ns;
  const auto project = [&](double ts, VectorXd& s) {
    for (int i = 0; i < newton_iterations; ++i) {
      const std::vector<double> r = rates(ts, std::vector<double>(s.data(), s.data() + n));
      const VectorXd g = Eigen::Map<const VectorXd>(r.data() + ns, nf);
      s.tail(nf) -= newton(ts, std::vector<double>(s.data(), s.data() + n), g);
    }
  };
  const auto slow_rate = [&](double ts, VectorXd& s) {
    project(ts, s);
    const std::vector<double> r = rates(ts, std::vector<double>(s.data(), s.data() + n));
    return VectorXd(Eigen::Map<const VectorXd>(r.data(), ns));
  };
  const VectorXd xn = Eigen::Map<const VectorXd>(x.data(), n);
  VectorXd s = xn;
  const VectorXd k1 = slow_rate(t, s);
  const VectorXd eta = xn.tail(nf) - s.tail(nf);
  VectorXd s2 = s;
  s2.head(ns) += h / 2 * k1;
  const VectorXd k2 = slow_rate(t + h / 2, s2);
  VectorXd s3 = s2;
  s3.head(ns) = s.head(ns) + h / 2 * k2;
  const VectorXd k3 = slow_rate(t + h / 2, s3);
  VectorXd s4 = s3;
  s4.head(ns) = s.head(ns) + h * k3;
  const VectorXd k4 = slow_rate(t + h, s4);
  VectorXd next(n);
  next << s.head(ns) + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4), s4.tail(nf);
  project(t + h, next);
  if (layer.size() > 0) next.tail(nf) += layer * eta;
  return {next.data(), next.data() + n};
}

// F and G as functions of the reduced form (and G_z's, re-evaluated at every Newton step,
// unless its inverse is precomputed).
void quasistatic_functions(const Model& model, const QuasistaticForm& form, const QuasistaticDesign& d,
                           bool inverse_precomputed, SchemeDesign& design) {
  const std::size_t ns = model.slow_count;
  const auto nf = static_cast<unsigned>(model.fast_count());
  std::vector<GiNaC::ex> slow_rhs, residual;
  std::vector<std::size_t> slow_states, fast_states;
  for (std::size_t i = 0; i < model.states.size(); ++i) {
    (i < ns ? slow_rhs : residual).push_back(form.model.states[i].rhs);
    (i < ns ? slow_states : fast_states).push_back(i);
  }
  design.function_model = std::make_shared<Model>(form.model);
  design.functions = {
      {"reduced_slow", "SlowState", "F: the slow states' rates with the fast states eliminated", slow_rhs, slow_states},
      {"residual", "FastState", "G: " + form.residual + ", zero on the slow manifold", residual, fast_states}};
  if (!inverse_precomputed) {
    std::vector<GiNaC::ex> entries;
    std::vector<std::size_t> rows;  // entry (r, c) derives from fast state r's equation
    for (unsigned c = 0; c < nf; ++c)
      for (unsigned r = 0; r < nf; ++r) {
        entries.push_back(d.residual_jacobian_symbolic(r, c));
        rows.push_back(ns + r);
      }
    design.functions.push_back({"residual_jacobian", "FastSquare", "G_z, column-major", entries, rows});
  }
}

namespace {

std::string values(const Model& model, const std::vector<double>& z) {
  std::string s;
  for (std::size_t i = 0; i < z.size(); ++i) {
    const State& x = model.states[model.slow_count + i];
    s += fmt::format("{}{} = {:.9g} (file: {:.9g})", i ? ", " : "", x.name, z[i], x.initial_value);
  }
  return s;
}

SchemeDesign precompute(const Model& model, const GenerateRequest& request, bool layer) {
  if (model.simulation.linearization == Linearization::kScheduled)
    return quasistatic_precompute_scheduled(model, request, layer);
  SchemeDesign design;
  const auto chosen_form = std::make_shared<const QuasistaticForm>(quasistatic_form(model));
  const auto chosen_design = std::make_shared<const QuasistaticDesign>(quasistatic_design(model, *chosen_form));
  const QuasistaticForm& form = *chosen_form;
  const QuasistaticDesign& d = *chosen_design;
  const auto nf = static_cast<Eigen::Index>(model.fast_count());
  QuasistaticCalibration calibration{{}, d.newton_iterations};
  if (has_tunable(model)) {
    const auto newton_at = [](const Model& at) {
      return quasistatic_design(at, quasistatic_form(at)).newton_iterations;
    };
    calibration = quasistatic_calibration(model, form.model, d.jacobian_constant, d.newton_iterations, newton_at,
                                          request.step, layer);
    design.recompute = calibration.steps;
    design.calibration_checked = true;
  }
  if (d.jacobian_constant) {
    const auto n = static_cast<unsigned>(nf);
    const Pattern structure = symbolic_structure(d.residual_jacobian_symbolic, 0, 0, n, n);
    design.matrices.push_back({"residual_jacobian_inverse", partial_pivot_inverse(d.residual_jacobian),
                               "G_z^-1 (constant)", pattern_closure(structure),
                               "quasistatic: inverse of G_z, constant (quasistatic_design)"});
  }
  if (layer)
    design.matrices.push_back(
        {"layer_transition",
         matrix_exponential(request.step * d.layer_rate),
         "E = e^{h A_zz}, A_zz the fast block of the Jacobian at the design point",
         {},
         "quasistatic: expm of h A_zz, the Jacobian's fast block at the design point (quasistatic_design)"});
  const int newton = calibration.newton_iterations;
  design.integers = {
      {"newton_iterations", "int", newton, "Newton steps per solve of G = 0",
       "quasistatic: Newton from the file's fast states at the design point, one step more than it took to "
       "converge (one when G is affine; quasistatic_design; the most over a calibration range)"},
      {"inverse_precomputed", "bool", d.jacobian_constant ? 1 : 0,
       "Newton steps with the precomputed G_z^-1 (G_z constant)",
       "quasistatic: G_z checked symbolically for t, states and inputs (quasistatic_design)"},
      {"boundary_layer", "bool", layer ? 1 : 0, "the boundary-layer correction E eta is added",
       "quasistatic: the scheme's variant"}};
  design.chosen = QuasistaticChoice{chosen_form, chosen_design, {newton, d.jacobian_constant, layer}};
  quasistatic_functions(model, form, d, d.jacobian_constant, design);
  std::string mass;
  if (model.second_order) {
    const SecondOrder& so = *model.second_order;
    mass = fmt::format("M0 = M at {} = 0; its block of the large coordinates (", so.small_parameter);
    for (std::size_t a = 0; a < form.large.size(); ++a) mass += (a ? ", " : "") + so.coordinates[form.large[a]];
    mass += fmt::format(") is positive definite, its smallest eigenvalue {:.6g}.\n", form.reduced_mass_smallest);
  }
  design.notes = fmt::format(
      "{}G = {}; G_z is {} ({}): {} Newton step{} per solve.\n"
      "Consistent initial fast states: {} (residual {:.3g}); the first step projects onto them{}.",
      mass, form.residual, d.jacobian_constant ? "constant" : "re-evaluated at every Newton step",
      d.affine ? "G is affine in the fast states" : "G is nonlinear in the fast states", d.newton_iterations,
      d.newton_iterations > 1 ? "s" : "", values(model, d.consistent), d.consistent_residual,
      layer ? " and carries the difference as the boundary layer" : "");
  return design;
}

// The unscheduled form's Newton along the trajectory (the scheduled one has its contraction
// proof over its grid).
void check_trajectory(const Model& model, const ScenarioTrajectory& trajectory) {
  if (model.simulation.linearization == Linearization::kScheduled) return;
  const QuasistaticForm form = quasistatic_form(model);
  check_newton_along_trajectory(model, form, quasistatic_design(model, form), trajectory);
}

SchemeDesign precompute_corrected(const Model& model, const GenerateRequest& request) {
  return precompute(model, request, true);
}
SchemeDesign precompute_outer(const Model& model, const GenerateRequest& request) {
  return precompute(model, request, false);
}

ReferenceStep reference(const ReferenceSetup& s, double h, bool layer) {
  const std::size_t slow = s.slow;
  if (!s.model) {
    const MatrixXd j = s.jacobian(0, {});
    const auto nf = j.rows() - static_cast<Eigen::Index>(slow);
    const MatrixXd gz = j.bottomRightCorner(nf, nf);
    const MatrixXd e = layer ? matrix_exponential(h * gz) : MatrixXd();
    return [j, gz, e, slow](const RightHandSide&, double t, double hs, const std::vector<double>& x) {
      const StackedRates rates = [&j](double, const std::vector<double>& xs) {
        const VectorXd r = j * Eigen::Map<const VectorXd>(xs.data(), j.cols());
        return std::vector<double>(r.data(), r.data() + r.size());
      };
      const NewtonCorrection solve = [&gz](double, const std::vector<double>&, const VectorXd& g) {
        return partial_pivot_solve(gz, g);
      };
      return quasistatic_reference_step(rates, solve, slow, 1, e, t, hs, x);
    };
  }
  const auto form = std::make_shared<const QuasistaticForm>(quasistatic_form(*s.model));
  const auto core = std::make_shared<const ReferenceModel>(form->model);
  const QuasistaticDesign d = quasistatic_design(*s.model, *form);
  const MatrixXd e = layer ? matrix_exponential(h * d.layer_rate) : MatrixXd();
  const auto nf = static_cast<Eigen::Index>(s.model->fast_count());
  // The inputs over the step from t: its sample, or its held inputs' polynomials.
  const auto inputs_over = [inputs = s.inputs,
                            held = s.held_inputs](double t) -> std::function<std::vector<double>(double)> {
    if (!held) return [u = inputs(t)](double) { return u; };
    return [h = held(t)](double ts) { return h.at(ts); };
  };
  const auto rates_at = [form, core](const std::function<std::vector<double>(double)>& u) -> StackedRates {
    return [form, core, u](double ts, const std::vector<double>& xs) {  // core refers to form's model
      std::vector<double> r;
      core->derivatives(ts, xs, u(ts), r);
      return r;
    };
  };
  if (s.scheduled) {  // the interpolated G_z^-1 and E at the step's start
    if (s.iterations < 1) throw SimulationError("quasistatic's scheduled run needs the grid's Newton steps");
    return [rates_at, slow, layer, inputs_over, constants = s.scheduled, iterations = s.iterations,
            step = s.scheduled_step](const RightHandSide&, double t, double hs, const std::vector<double>& x) {
      if (hs != step)
        throw SimulationError(
            fmt::format("quasistatic's scheduled E is computed for the step {:.17g}, not {:.17g}", step, hs));
      const std::vector<NamedMatrix> c = constants(t, x);
      const MatrixXd& inverse = named(c, "residual_jacobian_inverse").value;
      const NewtonCorrection chord = [&inverse](double, const std::vector<double>&, const VectorXd& g) {
        return VectorXd(inverse * g);
      };
      return quasistatic_reference_step(rates_at(inputs_over(t)), chord, slow, iterations,
                                        layer ? named(c, "layer_transition").value : MatrixXd(), t, hs, x);
    };
  }
  // With a scheduled design's Newton steps (verify's schedule_error): exact Newton steps, and
  // E of the fast block at every step's start, as the schedule computes them at a grid point.
  const bool redesigned = s.iterations > 0;
  return [rates_at, core, e, slow, nf, layer, redesigned, jacobian = s.jacobian, inputs_over,
          iterations = redesigned ? s.iterations : d.newton_iterations](const RightHandSide&, double t, double hs,
                                                                        const std::vector<double>& x) {
    const std::function<std::vector<double>(double)> u = inputs_over(t);
    const NewtonCorrection solve = [&](double ts, const std::vector<double>& xs, const VectorXd& g) {
      return partial_pivot_solve(core->trailing_jacobian_at(ts, xs, u(ts), nf), g);
    };
    const MatrixXd layer_now =
        redesigned && layer ? matrix_exponential(hs * MatrixXd(jacobian(t, x).bottomRightCorner(nf, nf))) : e;
    return quasistatic_reference_step(rates_at(u), solve, slow, iterations, layer_now, t, hs, x);
  };
}

ReferenceStep reference_corrected(const ReferenceSetup& s, double h) { return reference(s, h, true); }
ReferenceStep reference_outer(const ReferenceSetup& s, double h) { return reference(s, h, false); }

StepCost cost(const Model& model, const GenerateRequest&, const SchemeDesign& design) {
  return quasistatic_step_cost(model, design, designed<QuasistaticChoice>(design).step);
}

MatrixXd analysed_jacobian(const Model& model) {
  const QuasistaticForm form = quasistatic_form(model);
  const QuasistaticDesign d = quasistatic_design(model, form);
  const ReferenceModel core(form.model);
  std::vector<double> x = core.initial_state();
  std::copy(d.consistent.begin(), d.consistent.end(), x.begin() + static_cast<long>(model.slow_count));
  return core.jacobian_at(0, x, core.inputs_at(0));
}

// precompute's choice in the design; SimulationError for a design that holds none (a schedule
// without the precompute that made it).
const QuasistaticChoice& choice_of(const SchemeDesign& design) {
  if (const auto* chosen = std::any_cast<QuasistaticChoice>(&design.chosen)) return *chosen;
  throw SimulationError("quasistatic's exact step needs the design its precompute made");
}

// The reference core's own G_z^-1 (with `inverse`: by a full-pivoting LU of gz) and E (the
// square of e^{h A_zz / 2}, also without the boundary layer: confirmed_constants takes only
// what the design has), for confirmed_constants.
std::vector<NamedMatrix> own_constants(const MatrixXd& gz, const MatrixXd& fast_block, double h, bool inverse) {
  const MatrixXd half = matrix_exponential(h / 2 * fast_block);
  std::vector<NamedMatrix> own = {{"layer_transition", half * half, "E"}};
  if (inverse) own.push_back({"residual_jacobian_inverse", FullPivotLu(gz).inverse(), "G_z^-1"});
  return own;
}

// The scheduled design's G_z^-1 and E at each grid point confirmed (confirmed_constants) with
// the reference core's own at that point's Jacobian J (a first-order model's reduced form is
// the model: G_z is J's fast block A_zz); then the runtime's step in T with the schedule's
// interpolation.
template <class T>
StepIn<T> scheduled_reference_in(const ReferenceSetup& s, double h) {
  ConstantSchedule confirmed = *s.design->schedule;
  const auto nf = static_cast<Eigen::Index>(s.model->fast_count());
  const QuasistaticChoice& chosen = choice_of(*s.design);
  for (std::size_t k = 0; k < confirmed.constants.size(); ++k) {
    const MatrixXd fast = confirmed.jacobians.at(k).bottomRightCorner(nf, nf);
    confirmed.constants[k] = confirmed_constants<T>(confirmed.constants[k], own_constants(fast, fast, h, true));
  }
  const std::vector<NamedMatrix> maps = scheduled_matrices(confirmed);
  std::optional<LinearMap> transition;
  if (chosen.step.boundary_layer) transition = linear_map(named(maps, "layer_transition"));
  return quasistatic_step_in<T>(std::make_shared<const Model>(*s.model),
                                linear_map(named(maps, "residual_jacobian_inverse")), transition,
                                chosen.step.newton_iterations, s.slow, confirmed.grid);
}

// The design's G_z^-1 (when G_z is constant) and E confirmed (confirmed_constants) with the
// reference core's own at the design point (own_constants); then the runtime's step in T
// (runtime_step.hpp): float_reference and double_reference. Throws SimulationError without the
// model or the design.
template <class T>
StepIn<T> reference_in(const ReferenceSetup& s, double h) {
  if (!s.model || !s.design) throw SimulationError("quasistatic's exact step needs the model and the design");
  if (s.design->schedule) return scheduled_reference_in<T>(s, h);
  const QuasistaticChoice& chosen = choice_of(*s.design);
  const QuasistaticDesign& d = *chosen.at_design_point;
  const std::vector<NamedMatrix> confirmed = confirmed_constants<T>(
      s.design->matrices, own_constants(d.residual_jacobian, d.layer_rate, h, chosen.step.inverse_precomputed));
  const auto confirmed_map = [&confirmed](bool present, const std::string& name) {
    return present ? std::optional<LinearMap>(linear_map(named(confirmed, name))) : std::nullopt;
  };
  return quasistatic_step_in<T>(std::make_shared<const Model>(chosen.form->model),
                                confirmed_map(chosen.step.inverse_precomputed, "residual_jacobian_inverse"),
                                confirmed_map(chosen.step.boundary_layer, "layer_transition"),
                                chosen.step.newton_iterations, s.slow);
}

}  // namespace

// The generated step and the reference core solve G = 0 differently (a precomputed inverse or
// a fixed-size LU against a dynamic LU each time) and agree to the rounding of those solves,
// amplified by the condition of G_z (docs/verification.md has how closely). The bound is
// sp_ll's, whose generated and reference solves differ in the same way.
SchemeInfo quasistatic_scheme() {
  SchemeInfo s;
  s.identity.name = "quasistatic";
  s.identity.runtime_class = "dualrate::Quasistatic";
  s.identity.header = "dualrate/schemes/quasistatic.hpp";
  s.traits.order = kQuasistaticOrder;
  s.identity.summary = "quasistatic approximation with the boundary-layer correction, seed 002";
  s.traits.evaluations = 9;
  s.traits.takes_constants = true;
  s.verify.double_tolerance = 1e-10;
  s.verify.local_step_map = false;
  s.verify.fast_states_solved = true;
  s.hooks.precompute = precompute_corrected;
  s.hooks.check_trajectory = check_trajectory;
  s.hooks.reference_step = reference_corrected;
  s.hooks.float_reference = reference_in<float>;
  s.hooks.double_reference = reference_in<double>;
  s.hooks.float_reference_gap = quasistatic_float_gap;
  s.hooks.cost = cost;
  s.hooks.analysed_jacobian = analysed_jacobian;
  s.traits.schedulable = true;
  s.traits.held_inputs = true;  // at the RK4 stages' times, where F and G are evaluated
  s.traits.compensated_update = CompensatedUpdate::kSlowStates;  // the fast states are solved
  s.traits.hold_degree = 2;
  return s;
}

// The same runtime step without the boundary-layer correction (its constants say so).
SchemeInfo quasistatic_outer_scheme() {
  SchemeInfo s = quasistatic_scheme();
  s.identity.name = "quasistatic_outer";
  s.identity.summary = "quasistatic approximation, outer solution only, seed 002";
  s.hooks.precompute = precompute_outer;
  s.hooks.reference_step = reference_outer;
  return s;
}

}  // namespace dualrate
