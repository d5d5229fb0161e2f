// Seed 002's quasistatic approximation on the generator side: the reduced form the scheme
// integrates, the design of its algebraic solve (Newton iterations, the Jacobian's
// treatment, consistent initial values), the boundary-layer matrix of Theorem 1 at the step,
// and the reference core's plain transcription (runtime/include/dualrate/schemes/quasistatic.hpp
// has the equations).
//
// The construction of M0 for a second-order model M(eps) q'' = f with the small parameter
// eps (small: parameter:): M0 = M evaluated with eps = 0 and every other parameter at its
// value (parameters defined from eps follow), i.e. the limit of M(eps), positive
// semidefinite as a limit of positive definite matrices; deleting small entries by hand
// instead can leave it indefinite (seed 002, sec. 2). The generator requires ker M0 to be
// spanned by the small coordinates: M0's rows and columns of the small coordinates vanish
// (to 1e-12 of its largest entry) and the block M0_LL of the other coordinates is positive
// definite. Then M0 q'' = f splits into M0_LL q_L'' = f_L and 0 = f_s (V = the small
// coordinates' unit vectors, V^T f = f_s), solved for the small velocities: their forces must
// depend on them (damping), since position-level elimination is not supported yet. The
// forces are kept as written (a term like m_N g in f stays: its effect is O(eps), as the
// approximation's error).
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <memory>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "reference/reference_model.hpp"
#include "schemes/contract.hpp"
#include "schemes/quasistatic/step_formula.hpp"

namespace dualrate {

// The reduced model x' = F(t, x, z), 0 = G(t, x, z) as a Model with the original states,
// variables and outputs: slow right-hand sides F, fast right-hand sides the residual G.
struct QuasistaticForm {
  Model model;
  std::string residual;              // what G is, for messages
  Eigen::MatrixXd reduced_mass;      // M0_LL (second-order models), else empty
  double reduced_mass_smallest = 0;  // its smallest eigenvalue
  std::vector<std::size_t> large;    // second-order: the coordinates with large inertia (rows of M0_LL)
};

// Throws ModelError (positioned) when the model has no slow or no fast states, or, for a
// second-order model, names no small parameter or its M0 does not have the small
// coordinates as kernel.
QuasistaticForm quasistatic_form(const Model& model);

struct QuasistaticDesign {
  GiNaC::matrix residual_jacobian_symbolic;  // G_z, kFast x kFast, of t, states and inputs
  bool jacobian_constant = false;            // G_z has no t, state or input in it (symbolically)
  bool affine = false;                       // G_z has no fast state in it: one Newton step is exact
  int newton_iterations = 1;
  Eigen::MatrixXd residual_jacobian;  // G_z at the design point
  std::vector<double> consistent;     // z* at t = 0: G(0, x0, z*) = 0
  double consistent_residual = 0;     // max |G| there
  Eigen::MatrixXd layer_rate;         // A_zz: the full model's fast block at the design point
};

// Throws ModelError, positioned at the small section or the first fast equation, when G_z
// is singular at the design point (initial state, scenario inputs at t = 0), Newton does
// not converge there from the file's initial fast states, or the full model's fast block
// has an eigenvalue damped less than kQuasistaticMinDamping (no decaying boundary layer).
QuasistaticDesign quasistatic_design(const Model& model, const QuasistaticForm& form);

// What precompute chose, for the hooks that have the design (SchemeDesign::chosen): the reduced
// form and its design at the design point, computed once, and the step as the generated
// constants state it, which a calibration range or a schedule can set apart from the design
// point's own.
struct QuasistaticChoice {
  std::shared_ptr<const QuasistaticForm> form;
  std::shared_ptr<const QuasistaticDesign> at_design_point;
  QuasistaticStepConstants step;
};

// Newton on G = 0 along the scenario's trajectory: at each point of the full model's sampled
// high-accuracy solution (`trajectory`: its slow states and the scenario's inputs), from the
// fast states solved at the point before, Newton must converge within kQuasistaticMaxNewton
// steps through a nonsingular G_z. It finds where Newton has no step or diverges: a fast
// equation that saturates (a rate limit) has G_z = 0 on its flat part, where an input step
// takes Newton and no Newton step exists. Whether the run's fixed count of steps
// (QuasistaticDesign::newton_iterations, from its last step's solution) suffices is verify's
// to judge. Throws ModelError at the first failure; returns without judging when the
// high-accuracy solution fails (the run reports that itself).
void check_newton_along_trajectory(const Model& model, const QuasistaticForm& form, const QuasistaticDesign& d,
                                   const ScenarioTrajectory& trajectory);

// The smallest damping ratio -Re(lambda)/|lambda| the fast block's eigenvalues may have.
constexpr double kQuasistaticMinDamping = 0.01;

// RK4 on the reduced slow dynamics (SchemeTraits::order; its O(eps) is the approximation's).
constexpr int kQuasistaticOrder = 4;

// The most Newton steps a design may take.
constexpr int kQuasistaticMaxNewton = 20;

// Plain transcription of one step (the runtime header's equations) on evaluators of the
// reduced form: `rates` gives [F; G] at (t, x), `newton` a Newton step's correction of the
// fast states for the residual g at (t, x) (G_z^-1 g: solved with G_z at (t, x), or with a
// precomputed inverse); `layer` is E = e^{h A_zz} (empty: the outer solution alone).
using StackedRates = std::function<std::vector<double>(double t, const std::vector<double>& x)>;
using NewtonCorrection =
    std::function<Eigen::VectorXd(double t, const std::vector<double>& x, const Eigen::VectorXd& g)>;
std::vector<double> quasistatic_reference_step(const StackedRates& rates, const NewtonCorrection& newton,
                                               std::size_t slow, int newton_iterations, const Eigen::MatrixXd& layer,
                                               double t, double h, const std::vector<double>& x);

// With scheduled constants, points: auto refines the grid until the Newton steps with the
// interpolated G_z^-1 contract by rho(I - G_z^-1 G_z) <= kQuasistaticScheduledContraction at
// every cell's midpoint (besides the one-step map's criterion), and the leftover of a
// projection's start error after k steps, rho^k at the grid's worst contraction, is at most
// kQuasistaticScheduledLeftover: k is the smallest count (not below the design point's) that
// makes it so.
constexpr double kQuasistaticScheduledContraction = 0.01;
constexpr double kQuasistaticScheduledLeftover = 1e-6;

// F and G (and, unless inverse_precomputed, G_z) as SchemeFunctions of the reduced form into
// the design.
void quasistatic_functions(const Model& model, const QuasistaticForm& form, const QuasistaticDesign& d,
                           bool inverse_precomputed, SchemeDesign& design);

// precompute with scheduled constants (scheduled.cpp): G_z^-1 and, with `layer`, E over the
// model's schedule, the Newton count for the grid, F and G.
SchemeDesign quasistatic_precompute_scheduled(const Model& model, const GenerateRequest& request, bool layer);

// The registry entries: quasistatic (with the boundary-layer correction) and
// quasistatic_outer (the outer solution alone).
SchemeInfo quasistatic_scheme();
SchemeInfo quasistatic_outer_scheme();

}  // namespace dualrate
