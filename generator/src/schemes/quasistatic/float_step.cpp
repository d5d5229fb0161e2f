#include "schemes/quasistatic/float_step.hpp"

#include <fmt/format.h>

#include <functional>
#include <memory>

#include "ir/float_constants.hpp"
#include "numeric/fixed_size_solves.hpp"
#include "numeric/linearization.hpp"
#include "reference/reference_model.hpp"

namespace dualrate {

using Eigen::VectorXf;

std::string quasistatic_float_gap(const SchemeDesign& design) {
  if (design.schedule && design.function_model && design.function_model->second_order)
    return "the scheduled G_z^-1 is the reduced form's of a second-order model, which the schedule's Jacobians are "
           "not: the reference core does not confirm it";
  if (!find_named(design.matrices, "residual_jacobian_inverse") && design.function_model &&
      design.function_model->fast_count() > kMaxUnblockedLu)
    return fmt::format("G_z depends on the state and has {} fast states: the generated code factorizes it with "
                       "Eigen's PartialPivLU, blocked above {}, where the reference core does not transcribe it",
                       design.function_model->fast_count(), kMaxUnblockedLu);
  return "";
}

namespace {

// G_z of the reduced form (its fast rows' Jacobian in the fast states, row-major), from the
// reference core's own derivation, in float.
auto residual_jacobian_in_float(const Model& reduced, const ReferenceModel& core) {
  std::vector<GiNaC::ex> fast;
  for (std::size_t i = reduced.slow_count; i < reduced.states.size(); ++i) fast.push_back(reduced.states[i].symbol);
  const GiNaC::matrix j = jacobian(reduced, fast);
  std::vector<GiNaC::ex> entries;
  for (std::size_t r = 0; r < fast.size(); ++r)
    for (std::size_t c = 0; c < fast.size(); ++c)
      entries.push_back(j(static_cast<unsigned>(reduced.slow_count + r), static_cast<unsigned>(c)));
  return core.float_function(entries);
}

}  // namespace

FloatStep quasistatic_float_step(std::shared_ptr<const Model> reduced, std::optional<LinearMap> inverse,
                                 std::optional<LinearMap> transition, int iterations, std::size_t slow,
                                 const std::vector<std::vector<double>>& grid) {
  const auto core = std::make_shared<const ReferenceModel>(*reduced);  // refers to *reduced
  const auto ns = static_cast<Eigen::Index>(slow);
  std::function<std::vector<float>(double, const std::vector<float>&, const std::vector<double>&)> residual_jacobian;
  if (!inverse) residual_jacobian = residual_jacobian_in_float(*reduced, *core);
  return [reduced, core, inverse, transition, iterations, ns, residual_jacobian, grid](
             const FloatModel& m, double t, float hs, const std::vector<float>& x0) {
    const auto n = static_cast<Eigen::Index>(x0.size()), nf = n - ns;
    // The step's scheduled entries, interpolated at its start as the generated schedule() does.
    std::vector<float> inverse_entries, transition_entries;
    if (!grid.empty()) {
      const FloatCells cells = locate_in_float(grid, m.scheduling_values(t, x0));
      if (inverse) inverse_entries = scheduled_entries_in_float(*inverse, cells);
      if (transition) transition_entries = scheduled_entries_in_float(*transition, cells);
    }
    const auto rates = [&](double ts, const VectorXf& x) {
      std::vector<float> r;
      core->float_derivatives(ts, std::vector<float>(x.data(), x.data() + n), m.inputs, r);
      return VectorXf(Eigen::Map<const VectorXf>(r.data(), n));
    };
    // The Newton step G_z^-1 G: the precomputed inverse applied as emitted, or G_z at x solved
    // as the runtime's PartialPivLU solves it.
    const auto newton_step = [&](double ts, const VectorXf& x) -> VectorXf {
      const VectorXf g = rates(ts, x).tail(nf);
      if (inverse) return product_in_float(*inverse, g, inverse_entries);
      const std::vector<float> step =
          solve_lu_as_runtime(static_cast<std::size_t>(nf),
                              residual_jacobian(ts, std::vector<float>(x.data(), x.data() + n), m.inputs),
                              std::vector<float>(g.data(), g.data() + nf));
      return Eigen::Map<const VectorXf>(step.data(), nf);
    };
    const auto project = [&](double ts, VectorXf& x) {
      for (int i = 0; i < iterations; ++i) x.tail(nf) -= newton_step(ts, x);
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
    if (transition) next.tail(nf) += product_in_float(*transition, eta, transition_entries);
    return std::vector<float>(next.data(), next.data() + n);
  };
}

}  // namespace dualrate
