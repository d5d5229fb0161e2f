#include "schemes/quasistatic/calibration.hpp"

#include <algorithm>
#include <optional>

#include <dualrate/expm.hpp>

#include "model/tunable.hpp"
#include "numeric/calibrated_jacobian.hpp"
#include "numeric/interval.hpp"

namespace dualrate {

QuasistaticCalibration quasistatic_calibration(const Model& model, const Model& reduced, bool jacobian_constant,
                                               int newton_iterations, const std::function<int(const Model&)>& newton_at,
                                               double h, bool layer) {
  QuasistaticCalibration c;
  c.newton_iterations = newton_iterations;
  const std::vector<TunablePoint> points = tunable_box_points(model);
  for (const TunablePoint& p : points)
    c.newton_iterations = std::max(c.newton_iterations, newton_at(model_at(model, p)));
  const std::size_t ns = model.slow_count, nf = model.fast_count();
  const long n = static_cast<long>(nf);
  const JacobianBlock fast_block{"G_z", ns, nf, ns, nf};
  const GiNaC::exmap point = design_point(model);
  using K = RecomputeStep::Kind;
  if (jacobian_constant) {
    const std::vector<GiNaC::ex> gz =
        calibrated_block(model, calibrated_jacobian(reduced), fast_block, point, "quasistatic");
    if (follows_calibration(model, gz)) {
      c.steps.push_back({K::kEvaluate, {"residual_jacobian"}, {}, n, n, gz});
      c.steps.push_back({K::kInverse, {"residual_jacobian_inverse"}, {"residual_jacobian"}});
    }
  }
  if (!layer) return c;
  const std::vector<GiNaC::ex> azz =
      calibrated_block(model, calibrated_jacobian(model), {"A_zz", ns, nf, ns, nf}, point, "quasistatic");
  if (!follows_calibration(model, azz)) return c;
  // A proven bound of ||h A_zz||_1 over the whole box (numeric/interval.hpp): generated code
  // takes the plan's degree and squarings for every write within the range.
  const std::optional<double> largest = bound_over_box(tunable_box(model), [&](const TunableBox& box) {
    TunablePoint middle;
    for (const auto& [name, range] : box) middle[name] = range.middle();
    return std::optional<BoxBound>{BoxBound{
        h * norm_bound(bound_block(azz, nf, nf, parameter_intervals(model, box))),
        h * evaluate_block(azz, nf, nf, parameter_values_at(model, middle)).cwiseAbs().colwise().sum().maxCoeff()}};
  });
  const expm::Plan plan = largest ? expm::plan<double>(*largest) : expm::Plan{0, 0};
  if (!plan.valid())
    throw ModelError(calibration_range_loc(model),
                     "quasistatic's boundary-layer transition cannot be planned over the calibration range (its "
                     "rate's bounds over the range are unbounded or beyond any plan)",
                     "narrow the tunable parameters' ranges or take a smaller step");
  c.steps.push_back({K::kEvaluate, {"layer_rate"}, {}, n, n, azz});
  c.steps.push_back({K::kExponential, {"layer_transition"}, {"layer_rate"}, 0, 0, {}, h, plan.degree, plan.squarings});
  return c;
}

}  // namespace dualrate
