#include "schemes/quasistatic/runtime_step.hpp"

#include <fmt/format.h>

#include <functional>
#include <memory>

#include "ir/float_constants.hpp"
#include "numeric/fixed_size_solves.hpp"
#include "numeric/linearization.hpp"
#include "reference/reference_model.hpp"
#include "schemes/quasistatic/step_formula.hpp"

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

// The runtime's arithmetic in T: the reduced form's F and G evaluated by the reference core
// on [x; z], Newton's steps with the inverse applied as emitted or G_z solved as the runtime's
// PartialPivLU solves it, the slow update with the build's Sum.
template <class T>
struct RuntimeArithmetic {
  using Scalar = T;
  using Time = double;
  using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  using Slow = Vector;
  using Fast = Vector;
  using Inputs = std::vector<double>;

  const ModelIn<T>& model;
  const ReferenceModel& core;
  const std::optional<LinearMap>& inverse;
  const std::optional<LinearMap>& transition;
  const std::function<std::vector<T>(double, const std::vector<T>&, const std::vector<double>&)>& residual_jacobian;
  int iterations;
  std::vector<T> inverse_entries{}, transition_entries{};  // a schedule's, interpolated at the step's start

  Inputs sample(Time t) const { return inputs_at(t); }
  // The step's sample, or its held inputs' polynomial at t (the sample at the step's start).
  Inputs inputs_at(Time t) const { return model.held.rate.empty() ? model.inputs : model.held.at(t); }
  // [F; G] at (t, [x; z]).
  Vector rates(Time t, const Inputs& u, const std::vector<T>& state) const {
    std::vector<T> r;
    derivatives_in(core, t, state, u, r);
    return Eigen::Map<const Vector>(r.data(), static_cast<Eigen::Index>(r.size()));
  }
  static std::vector<T> stacked(const Slow& x, const Fast& z) {
    std::vector<T> state(x.data(), x.data() + x.size());
    state.insert(state.end(), z.data(), z.data() + z.size());
    return state;
  }
  void project(Time t, const Inputs& u, const Slow& x, Fast& z) const {
    for (int i = 0; i < iterations; ++i) {
      const std::vector<T> state = stacked(x, z);
      const Fast g = rates(t, u, state).tail(z.size());
      if (inverse) {
        z -= product_in<T>(*inverse, g, inverse_entries);
      } else {
        const std::vector<T> step =
            solve_lu_as_runtime(static_cast<std::size_t>(z.size()), residual_jacobian(t, state, u),
                                std::vector<T>(g.data(), g.data() + g.size()));
        z -= Eigen::Map<const Fast>(step.data(), z.size());
      }
    }
  }
  Slow reduced_slow(Time t, const Inputs& u, const Slow& x, const Fast& z) const {
    return rates(t, u, stacked(x, z)).head(x.size());
  }
  Slow updated(const Slow& x, const Slow& dx) const {
    Slow next(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i)
      next[i] = compensated_add(model, static_cast<std::size_t>(i), x[i], dx[i]);
    return next;
  }
  bool boundary_layer() const { return transition.has_value(); }
  Fast layer_transition(const Fast& eta) const { return product_in<T>(*transition, eta, transition_entries); }
};

}  // namespace

template <class T>
StepIn<T> quasistatic_step_in(std::shared_ptr<const Model> reduced, std::optional<LinearMap> inverse,
                              std::optional<LinearMap> transition, int iterations, std::size_t slow,
                              const std::vector<std::vector<double>>& grid) {
  using Vector = typename RuntimeArithmetic<T>::Vector;
  const auto core = std::make_shared<const ReferenceModel>(*reduced);  // refers to *reduced
  const auto ns = static_cast<Eigen::Index>(slow);
  std::function<std::vector<T>(double, const std::vector<T>&, const std::vector<double>&)> residual_jacobian;
  if (!inverse) residual_jacobian = residual_jacobian_in<T>(*reduced, *core);
  return [reduced, core, inverse, transition, iterations, ns, residual_jacobian, grid](const ModelIn<T>& m, double t,
                                                                                       T h, const std::vector<T>& x0) {
    const auto n = static_cast<Eigen::Index>(x0.size());
    RuntimeArithmetic<T> a{m, *core, inverse, transition, residual_jacobian, iterations};
    if (!grid.empty()) {  // the step's scheduled entries, interpolated at its start as the generated schedule() does
      const CellsIn<T> cells = locate_in<T>(grid, m.scheduling_values(t, x0));
      if (inverse) a.inverse_entries = scheduled_entries_in<T>(*inverse, cells);
      if (transition) a.transition_entries = scheduled_entries_in<T>(*transition, cells);
    }
    Vector x = Eigen::Map<const Vector>(x0.data(), ns);
    Vector z = Eigen::Map<const Vector>(x0.data() + ns, n - ns);
    quasistatic_step(a, t, h, x, z);
    return RuntimeArithmetic<T>::stacked(x, z);
  };
}

template StepIn<float> quasistatic_step_in<float>(std::shared_ptr<const Model>, std::optional<LinearMap>,
                                                  std::optional<LinearMap>, int, std::size_t,
                                                  const std::vector<std::vector<double>>&);
template StepIn<double> quasistatic_step_in<double>(std::shared_ptr<const Model>, std::optional<LinearMap>,
                                                    std::optional<LinearMap>, int, std::size_t,
                                                    const std::vector<std::vector<double>>&);

}  // namespace dualrate
