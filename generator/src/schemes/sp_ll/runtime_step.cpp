#include "schemes/sp_ll/runtime_step.hpp"

#include <Eigen/Dense>

#include <string>

#include "constant_schedule/constant_schedule.hpp"
#include "ir/float_constants.hpp"
#include "schemes/sp_ll/blocks.hpp"
#include "schemes/sp_ll/reference_step.hpp"
#include "schemes/sp_ll/step_formula.hpp"

namespace dualrate {

namespace {

// The runtime's arithmetic in T (step_formula.hpp): the model's right-hand side in T, each
// constant applied as its emitted function (product_in) with its scheduled entries interpolated
// in T, the slow states' update as the runtime's Sum adds it.
template <class T>
struct RuntimeArithmetic {
  using Scalar = T;
  using Time = double;
  using Input = double;  // the time: f evaluates the inputs held over the step there
  using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

  const ModelIn<T>& model;
  const std::vector<LinearMap>& maps;          // by SpLlConstant (ku, the last, only with held inputs)
  const std::vector<std::vector<T>>& entries;  // each map's scheduled entries at the step (empty: none)
  Eigen::Index ns, nf;

  Input input_sample(Time t) const { return t; }
  Input inputs_at(Time t) const { return t; }
  Vector rate(Input t, const Vector& xs, const Vector& zs) const {
    std::vector<T> on(static_cast<std::size_t>(ns + nf)), d;
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    Eigen::Map<Vector>(on.data(), ns + nf) << xs, zs;
    model.f(t, on, d);
    return Eigen::Map<const Vector>(d.data(), ns + nf);
  }
  Vector slow_rate(Input t, const Vector& xs, const Vector& zs) const { return rate(t, xs, zs).head(ns); }
  Vector slow_rows(const Vector& d) const { return d.head(ns); }
  Vector fast_rows(const Vector& d) const { return d.tail(nf); }
  Vector fast_zero() const { return Vector::Zero(nf); }
  Vector product(SpLlConstant c, const Vector& v) const {
    const auto i = static_cast<std::size_t>(c);
    return product_in<T>(maps.at(i), v, entries.empty() ? std::vector<T>{} : entries[i]);
  }
  bool holds_inputs() const { return !model.held.rate.empty(); }
  Vector input_rate() const { return held(model.held.rate); }
  Vector input_curvature() const { return held(model.held.curvature); }
  Vector update(const Vector& xn, const Vector& rk4, const Vector& fz) const {
    Vector x(ns);
    for (Eigen::Index i = 0; i < ns; ++i)
      x[i] = compensated_add(model, static_cast<std::size_t>(i), xn[i], rk4[i], fz[i]);
    return x;
  }
  Vector stack(const Vector& xs, const Vector& zs) const {
    Vector x(ns + nf);
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    x << xs, zs;
    return x;
  }

 private:
  static Vector held(const std::vector<T>& v) {
    return Eigen::Map<const Vector>(v.data(), static_cast<Eigen::Index>(v.size()));
  }
};

}  // namespace

template <class T>
StepIn<T> sp_ll_step_in(const std::vector<NamedMatrix>& constants, std::size_t slow,
                        const std::vector<std::vector<double>>& grid) {
  std::vector<LinearMap> maps;
  for (const char* name : kSpLlConstantNames)  // ku only with held inputs
    if (std::string(name) != "ku" || find_named(constants, name)) maps.push_back(linear_map(named(constants, name)));
  const auto ns = static_cast<Eigen::Index>(slow);
  return [maps, ns, grid](const ModelIn<T>& model, double t, T h, const std::vector<T>& x0) {
    using Vector = typename RuntimeArithmetic<T>::Vector;
    std::vector<std::vector<T>> entries;
    if (!grid.empty()) {
      const CellsIn<T> cells = locate_in<T>(grid, model.scheduling_values(t, x0));
      for (const LinearMap& m : maps) entries.push_back(scheduled_entries_in<T>(m, cells));
    }
    const auto n = static_cast<Eigen::Index>(x0.size());
    const RuntimeArithmetic<T> a{model, maps, entries, ns, n - ns};
    const Vector x = Eigen::Map<const Vector>(x0.data(), n);
    const Vector next = sp_ll_step(a, t, h, x.head(ns), x.tail(n - ns));
    return std::vector<T>(next.data(), next.data() + n);
  };
}

// The design's constants confirmed by the reference core's own (sp_ll_reference_constants) at
// the blocks of setup.jacobian, or scheduled at each grid point's Jacobian, then the runtime's
// step in T (runtime_step.hpp).
template <class T>
StepIn<T> sp_ll_reference_in(const ReferenceSetup& s, double h) {
  if (!s.design || !s.model) throw SimulationError("sp_ll's exact step needs the generator's design and the model");
  if (s.design->schedule) {
    ConstantSchedule confirmed = *s.design->schedule;
    for (std::size_t k = 0; k < confirmed.constants.size(); ++k)
      confirmed.constants[k] = confirmed_constants<T>(
          confirmed.constants[k], sp_ll_reference_constants(split_jacobian(confirmed.jacobians.at(k), s.slow), h));
    return sp_ll_step_in<T>(scheduled_matrices(confirmed), s.slow, confirmed.grid);
  }
  std::vector<double> x0;
  for (const auto& x : s.model->states) x0.push_back(x.initial_value);
  SpLlBlocks blocks = split_jacobian(s.jacobian(0, x0), s.slow);
  if (s.input_jacobian) blocks.gu = held_input_columns(*s.model, s.input_jacobian(0, x0), s.slow);
  return sp_ll_step_in<T>(confirmed_constants<T>(s.design->matrices, sp_ll_reference_constants(blocks, h)), s.slow);
}

template StepIn<float> sp_ll_step_in<float>(const std::vector<NamedMatrix>&, std::size_t,
                                            const std::vector<std::vector<double>>&);
template StepIn<double> sp_ll_step_in<double>(const std::vector<NamedMatrix>&, std::size_t,
                                              const std::vector<std::vector<double>>&);
template StepIn<float> sp_ll_reference_in<float>(const ReferenceSetup&, double);
template StepIn<double> sp_ll_reference_in<double>(const ReferenceSetup&, double);

}  // namespace dualrate
