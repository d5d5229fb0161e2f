#include "schemes/quasistatic/float_step.hpp"

#include <memory>

#include "ir/float_constants.hpp"
#include "reference/reference_model.hpp"

namespace dualrate {

using Eigen::VectorXf;

std::string quasistatic_float_gap(const SchemeDesign& design, bool calibration_writes) {
  if (design.schedule)
    return "the scheduled G_z^-1 and E are interpolated by the generated code; the reference core's float step "
           "does not transcribe quasistatic's schedule";
  if (!find_named(design.matrices, "residual_jacobian_inverse"))
    return "G_z depends on the state: the generated code factorizes it at run time (Eigen's fixed-size "
           "PartialPivLU), which the reference core does not transcribe";
  if (calibration_writes) return "the reduced form's F and G are built from the model's values before the writes";
  return "";
}

FloatStep quasistatic_float_step(std::shared_ptr<const Model> reduced, const LinearMap& inverse,
                                 std::optional<LinearMap> transition, int iterations, std::size_t slow) {
  const auto core = std::make_shared<const ReferenceModel>(*reduced);  // refers to *reduced
  const auto ns = static_cast<Eigen::Index>(slow);
  return [reduced, core, inverse, transition, iterations, ns](const FloatModel& m, double t, float hs,
                                                               const std::vector<float>& x0) {
    const auto n = static_cast<Eigen::Index>(x0.size()), nf = n - ns;
    const auto rates = [&](double ts, const VectorXf& x) {
      std::vector<float> r;
      core->float_derivatives(ts, std::vector<float>(x.data(), x.data() + n), m.inputs, r);
      return VectorXf(Eigen::Map<const VectorXf>(r.data(), n));
    };
    const auto project = [&](double ts, VectorXf& x) {
      for (int i = 0; i < iterations; ++i) x.tail(nf) -= product_in_float(inverse, rates(ts, x).tail(nf));
    };
    const auto slow_rate = [&](double ts, VectorXf& x) -> VectorXf {
      project(ts, x);
      return rates(ts, x).head(ns);
    };
    const float half_step = hs / 2.0F;
    const VectorXf x = Eigen::Map<const VectorXf>(x0.data(), n);
    VectorXf s1 = x;
    const VectorXf k1 = slow_rate(t, s1);
    const VectorXf eta = x.tail(nf) - s1.tail(nf);
    VectorXf s2 = s1;
    s2.head(ns) += half_step * k1;
    const VectorXf k2 = slow_rate(t + static_cast<double>(half_step), s2);
    VectorXf s3 = s2;
    s3.head(ns) = s1.head(ns) + half_step * k2;
    const VectorXf k3 = slow_rate(t + static_cast<double>(half_step), s3);
    VectorXf s4 = s3;
    s4.head(ns) = s1.head(ns) + hs * k3;
    const VectorXf k4 = slow_rate(t + static_cast<double>(hs), s4);
    VectorXf next(n);
    next.head(ns) = s1.head(ns) + (hs / 6.0F) * (k1 + 2.0F * k2 + 2.0F * k3 + k4);
    next.tail(nf) = s4.tail(nf);
    project(t + static_cast<double>(hs), next);
    if (transition) next.tail(nf) += product_in_float(*transition, eta);
    return std::vector<float>(next.data(), next.data() + n);
  };
}

}  // namespace dualrate
