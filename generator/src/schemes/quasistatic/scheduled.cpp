// Seed 002's quasistatic scheme with scheduled constants (linearization: scheduled): its
// Newton matrix and boundary-layer transition over the schedule's grid (quasistatic.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "numeric/decompositions.hpp"
#include "numeric/linearization.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "constant_schedule/constant_schedule.hpp"

namespace dualrate {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// Scheduled constants: at each operating point G_z^-1 of the reduced form and (with the
// correction) E = e^{h A_zz} of the full model's fast block; the proof's map is the step on the
// reduced form's linearization with k Newton steps of the interpolated inverse (its contraction
// rho(I - G_z^-1 G_z) checked below 1), and k the smallest with leftover <=
// kQuasistaticScheduledLeftover (at least the design point's count), the grid designed again
// while k grows.
SchedulableScheme scheduled_design(const Model& model, const QuasistaticForm& form, const QuasistaticDesign& d,
                                   double h, bool layer, int iterations) {
  const std::size_t ns = model.slow_count;
  const auto nf = static_cast<Eigen::Index>(model.fast_count());
  const auto reduced = std::make_shared<const ReferenceModel>(form.model);
  const SourceLoc where = model.simulation.schedule->loc;
  const auto n = static_cast<unsigned>(nf);
  const Pattern inverse_structure = pattern_closure(symbolic_structure(d.residual_jacobian_symbolic, 0, 0, n, n));
  const auto residual_jacobian = [reduced, nf](const OperatingPoint& op) {
    return reduced->trailing_jacobian_at(op.t, op.x, op.u, nf);
  };
  SchedulableScheme scheme;
  scheme.step = h;
  scheme.order = kQuasistaticOrder;
  scheme.constants = [=](const OperatingPoint& op, const MatrixXd& j) {
    const MatrixXd gz = residual_jacobian(op);
    if (!FullPivotLu(gz).invertible())
      throw ModelError(where,
                       "quasistatic needs an invertible G_z, but it is singular at an operating point of the "
                       "schedule",
                       "narrow the schedule's range to where the fast states are solvable");
    std::vector<NamedMatrix> c = {{"residual_jacobian_inverse", partial_pivot_inverse(gz), "G_z^-1 (scheduled)",
                                   inverse_structure,
                                   "quasistatic: inverse of G_z of the reduced form at each operating point"}};
    if (layer)
      c.push_back({"layer_transition",
                   matrix_exponential(h * j.bottomRightCorner(nf, nf)),
                   "E = e^{h A_zz}, A_zz the fast block of the Jacobian (scheduled)",
                   {},
                   "quasistatic: expm of h A_zz, the Jacobian's fast block at each operating point"});
    return c;
  };
  scheme.step_map = [=](const std::vector<NamedMatrix>& c, const OperatingPoint& op, const MatrixXd&) {
    const MatrixXd jr = reduced->jacobian_at(op.t, op.x, op.u);
    const MatrixXd& inverse = named(c, "residual_jacobian_inverse").value;
    const MatrixXd e = layer ? named(c, "layer_transition").value : MatrixXd();
    const StackedRates rates = [&jr](double, const std::vector<double>& xs) {
      const VectorXd r = jr * Eigen::Map<const VectorXd>(xs.data(), jr.cols());
      return std::vector<double>(r.data(), r.data() + r.size());
    };
    const NewtonCorrection chord = [&inverse](double, const std::vector<double>&, const VectorXd& g) {
      return VectorXd(inverse * g);
    };
    MatrixXd map(jr.rows(), jr.cols());
    for (Eigen::Index i = 0; i < jr.cols(); ++i) {
      std::vector<double> unit(static_cast<std::size_t>(jr.cols()), 0.0);
      unit[static_cast<std::size_t>(i)] = 1;
      const std::vector<double> column = quasistatic_reference_step(rates, chord, ns, iterations, e, 0, h, unit);
      map.col(i) = Eigen::Map<const VectorXd>(column.data(), jr.rows());
    }
    return map;
  };
  scheme.contraction = [=](const std::vector<NamedMatrix>& c, const OperatingPoint& op) {
    const MatrixXd iteration =
        MatrixXd::Identity(nf, nf) - named(c, "residual_jacobian_inverse").value * residual_jacobian(op);
    return eigenvalues(iteration).cwiseAbs().maxCoeff();
  };
  scheme.contraction_what = "the Newton steps' contraction rho(I - G_z^-1 interpolated G_z)";
  scheme.contraction_target = kQuasistaticScheduledContraction;
  scheme.depends_on = jacobian_dependencies(model);
  return scheme;
}

// The Newton steps that leave at most kQuasistaticScheduledLeftover of a projection's start
// error with contraction factor rho, and not fewer than the design point's.
int scheduled_newton_steps(double rho, int design_steps) {
  if (!(rho < 1)) return kQuasistaticMaxNewton;
  if (rho <= 0) return design_steps;
  const double needed = std::ceil(std::log(kQuasistaticScheduledLeftover) / std::log(rho));
  return std::clamp(static_cast<int>(needed), design_steps, kQuasistaticMaxNewton);
}

}  // namespace

SchemeDesign quasistatic_precompute_scheduled(const Model& model, const GenerateRequest& request, bool layer) {
  SchemeDesign design;
  const auto chosen_form = std::make_shared<const QuasistaticForm>(quasistatic_form(model));
  const auto chosen_design = std::make_shared<const QuasistaticDesign>(quasistatic_design(model, *chosen_form));
  const QuasistaticForm& form = *chosen_form;
  const QuasistaticDesign& d = *chosen_design;
  const double t_end = request.t_end > 0 ? request.t_end : model.simulation.t_end;
  int k = d.newton_iterations;
  ConstantSchedule schedule;
  for (;;) {
    schedule = design_schedule(model, t_end, scheduled_design(model, form, d, request.step, layer, k), true);
    const int needed = scheduled_newton_steps(schedule.worst_contraction, d.newton_iterations);
    if (needed <= k || k == kQuasistaticMaxNewton) break;
    k = needed;
  }
  if (!request.allow_unstable && (schedule.worst_relative > 1 + kStabilityMargin || !(schedule.worst_contraction < 1)))
    design_schedule(model, t_end, scheduled_design(model, form, d, request.step, layer, k),
                    false);  // throws the refusal
  schedule.step = request.step;
  schedule.iterations = k;
  design.matrices = scheduled_matrices(schedule);
  design.integers = {
      {"newton_iterations", "int", k, "Newton steps per solve of G = 0, for the whole grid",
       fmt::format("quasistatic: the fewest that leave at most {:.0e} of a projection's start error at the "
                   "grid's worst contraction, not below the design point's {} (precompute_scheduled)",
                   kQuasistaticScheduledLeftover, d.newton_iterations)},
      {"inverse_precomputed", "bool", 1, "Newton steps with the interpolated G_z^-1",
       "quasistatic: scheduled constants"},
      {"boundary_layer", "bool", layer ? 1 : 0, "the boundary-layer correction E eta is added",
       "quasistatic: the scheme's variant"}};
  design.chosen = QuasistaticChoice{chosen_form, chosen_design, {k, true, layer}};
  quasistatic_functions(model, form, d, true, design);
  design.notes =
      fmt::format(
          "G = {}; G_z^-1{} computed at the operating points of a grid of scheduling values (simulation:\n"
          "linearization: scheduled) and interpolated linearly at each step; {} Newton step{} per solve with the\n"
          "interpolated inverse (the design point's exact Newton takes {}).\n",
          form.residual, layer ? " and E = e^{h A_zz}" : "", k, k > 1 ? "s" : "", d.newton_iterations) +
      schedule_summary(schedule);
  design.schedule = std::make_shared<const ConstantSchedule>(std::move(schedule));
  return design;
}

}  // namespace dualrate
