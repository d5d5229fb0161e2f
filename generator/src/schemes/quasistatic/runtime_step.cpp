#include "schemes/quasistatic/runtime_step.hpp"

#include <fmt/format.h>

#include <functional>
#include <memory>

#include "ir/float_constants.hpp"
#include "numeric/fixed_size_solves.hpp"
#include "numeric/linearization.hpp"
#include "reference/reference_model.hpp"

namespace dualrate {

std::string quasistatic_float_gap(const SchemeDesign& design) {
  if (design.schedule && design.function_model && design.function_model->second_order)
    return "the scheduled G_z^-1 is the reduced form's of a second-order model, which the schedule's Jacobians are "
           "not: the reference core does not confirm it";
  if (!find_named(design.matrices, "residual_jacobian_inverse") && design.function_model &&
      design.function_model->fast_count() > kMaxUnblockedLu)
    return fmt::format(
        "G_z depends on the state and has {} fast states: the generated code factorizes it with "
        "Eigen's PartialPivLU, blocked above {}, where the reference core does not transcribe it",
        design.function_model->fast_count(), kMaxUnblockedLu);
  return "";
}

namespace {

// G_z of the reduced form (its fast rows' Jacobian in the fast states, row-major), from the
// reference core's own derivation, in T.
template <class T>
auto residual_jacobian_in(const Model& reduced, const ReferenceModel& core) {
  std::vector<GiNaC::ex> fast;
  for (std::size_t i = reduced.slow_count; i < reduced.states.size(); ++i) fast.push_back(reduced.states[i].symbol);
  const GiNaC::matrix j = jacobian(reduced, fast);
  std::vector<GiNaC::ex> entries;
  for (std::size_t r = 0; r < fast.size(); ++r)
    for (std::size_t c = 0; c < fast.size(); ++c)
      entries.push_back(j(static_cast<unsigned>(reduced.slow_count + r), static_cast<unsigned>(c)));
  return core.function_in<T>(entries);
}

// The reduced form's right-hand side in T, as a build in T's generated code computes it.
void derivatives_in(const ReferenceModel& core, double t, const std::vector<float>& x, const std::vector<double>& u,
                    std::vector<float>& dxdt) {
  core.float_derivatives(t, x, u, dxdt);
}
void derivatives_in(const ReferenceModel& core, double t, const std::vector<double>& x, const std::vector<double>& u,
                    std::vector<double>& dxdt) {
  core.derivatives(t, x, u, dxdt);
}

}  // namespace

template <class T>
StepIn<T> quasistatic_step_in(std::shared_ptr<const Model> reduced, std::optional<LinearMap> inverse,
                              std::optional<LinearMap> transition, int iterations, std::size_t slow,
                              const std::vector<std::vector<double>>& grid) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const auto core = std::make_shared<const ReferenceModel>(*reduced);  // refers to *reduced
  const auto ns = static_cast<Eigen::Index>(slow);
  std::function<std::vector<T>(double, const std::vector<T>&, const std::vector<double>&)> residual_jacobian;
  if (!inverse) residual_jacobian = residual_jacobian_in<T>(*reduced, *core);
  return [reduced, core, inverse, transition, iterations, ns, residual_jacobian, grid](const ModelIn<T>& m, double t,
                                                                                       T hs, const std::vector<T>& x0) {
    const auto n = static_cast<Eigen::Index>(x0.size()), nf = n - ns;
    // The step's scheduled entries, interpolated at its start as the generated schedule() does.
    std::vector<T> inverse_entries, transition_entries;
    if (!grid.empty()) {
      const CellsIn<T> cells = locate_in<T>(grid, m.scheduling_values(t, x0));
      if (inverse) inverse_entries = scheduled_entries_in<T>(*inverse, cells);
      if (transition) transition_entries = scheduled_entries_in<T>(*transition, cells);
    }
    // The inputs at a stage's time: the step's sample, or its held inputs' polynomial there.
    const auto inputs_at = [&m](double ts) { return m.held.rate.empty() ? m.inputs : m.held.at(ts); };
    const auto rates = [&](double ts, const VectorT& x) {
      std::vector<T> r;
      derivatives_in(*core, ts, std::vector<T>(x.data(), x.data() + n), inputs_at(ts), r);
      return VectorT(Eigen::Map<const VectorT>(r.data(), n));
    };
    // The Newton step G_z^-1 G: the precomputed inverse applied as emitted, or G_z at x solved
    // as the runtime's PartialPivLU solves it.
    const auto newton_step = [&](double ts, const VectorT& x) -> VectorT {
      const VectorT g = rates(ts, x).tail(nf);
      if (inverse) return product_in<T>(*inverse, g, inverse_entries);
      const std::vector<T> step = solve_lu_as_runtime(
          static_cast<std::size_t>(nf), residual_jacobian(ts, std::vector<T>(x.data(), x.data() + n), inputs_at(ts)),
          std::vector<T>(g.data(), g.data() + nf));
      return Eigen::Map<const VectorT>(step.data(), nf);
    };
    const auto project = [&](double ts, VectorT& x) {
      for (int i = 0; i < iterations; ++i) x.tail(nf) -= newton_step(ts, x);
    };
    const auto slow_rate = [&](double ts, VectorT& x) -> VectorT {
      project(ts, x);
      return rates(ts, x).head(ns);
    };
    const T half_step = hs / T(2);
    const VectorT x = Eigen::Map<const VectorT>(x0.data(), n);
    VectorT s1 = x;
    const VectorT k1 = slow_rate(t, s1);
    const VectorT eta = x.tail(nf) - s1.tail(nf);
    VectorT s2 = s1;
    s2.head(ns) += half_step * k1;
    const VectorT k2 = slow_rate(t + static_cast<double>(half_step), s2);
    VectorT s3 = s2;
    s3.head(ns) = s1.head(ns) + half_step * k2;
    const VectorT k3 = slow_rate(t + static_cast<double>(half_step), s3);
    VectorT s4 = s3;
    s4.head(ns) = s1.head(ns) + hs * k3;
    const VectorT k4 = slow_rate(t + static_cast<double>(hs), s4);
    VectorT next(n);
    const VectorT increment = (hs / T(6)) * (k1 + T(2) * k2 + T(2) * k3 + k4);
    for (Eigen::Index i = 0; i < ns; ++i)
      next[i] = compensated_add(m, static_cast<std::size_t>(i), s1[i], increment[i]);
    next.tail(nf) = s4.tail(nf);
    project(t + static_cast<double>(hs), next);
    if (transition) next.tail(nf) += product_in<T>(*transition, eta, transition_entries);
    return std::vector<T>(next.data(), next.data() + n);
  };
}

template StepIn<float> quasistatic_step_in<float>(std::shared_ptr<const Model>, std::optional<LinearMap>,
                                                  std::optional<LinearMap>, int, std::size_t,
                                                  const std::vector<std::vector<double>>&);
template StepIn<double> quasistatic_step_in<double>(std::shared_ptr<const Model>, std::optional<LinearMap>,
                                                    std::optional<LinearMap>, int, std::size_t,
                                                    const std::vector<std::vector<double>>&);

}  // namespace dualrate
