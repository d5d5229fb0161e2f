#include "schemes/sp_ll/runtime_step.hpp"

#include <Eigen/Dense>

#include <map>
#include <optional>
#include <string>

#include "constant_schedule/constant_schedule.hpp"
#include "ir/float_constants.hpp"
#include "schemes/sp_ll/blocks.hpp"
#include "schemes/sp_ll/reference_step.hpp"

namespace dualrate {

// Outside the anonymous namespace: the step's closure, a template instantiated with external
// linkage, holds one.
struct SpLlMaps {
  LinearMap gz_inv, k, fz, a, p1, p2, q1, q2;
  std::optional<LinearMap> ku;  // a model with held inputs
};

namespace {

// The scheduled entries of each map at the cells, by map name.
template <class T>
std::map<std::string, std::vector<T>> scheduled_entries(const SpLlMaps& m, const CellsIn<T>& cells) {
  std::map<std::string, std::vector<T>> entries;
  for (const LinearMap* c : {&m.gz_inv, &m.k, &m.fz, &m.a, &m.p1, &m.p2, &m.q1, &m.q2})
    entries[c->name] = scheduled_entries_in<T>(*c, cells);
  return entries;
}

}  // namespace

template <class T>
StepIn<T> sp_ll_step_in(const std::vector<NamedMatrix>& constants, std::size_t slow,
                        const std::vector<std::vector<double>>& grid) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const auto map = [&](const char* name) { return linear_map(named(constants, name)); };
  const SpLlMaps m{
      map("gz_inv"), map("k"),  map("fz"),
      map("a"),      map("p1"), map("p2"),
      map("q1"),     map("q2"), find_named(constants, "ku") ? std::optional<LinearMap>(map("ku")) : std::nullopt};
  const auto ns = static_cast<Eigen::Index>(slow);
  return [m, ns, grid](const ModelIn<T>& model, double t, T h, const std::vector<T>& x0) {
    const RightHandSideIn<T>& f = model.f;
    const std::map<std::string, std::vector<T>> entries =
        grid.empty() ? std::map<std::string, std::vector<T>>{}
                     : scheduled_entries(m, locate_in<T>(grid, model.scheduling_values(t, x0)));
    const auto apply = [&entries](const LinearMap& c, const VectorT& v) {
      const auto it = entries.find(c.name);
      return product_in<T>(c, v, it == entries.end() ? std::vector<T>{} : it->second);
    };
    const auto n = static_cast<Eigen::Index>(x0.size()), nf = n - ns;
    const VectorT x = Eigen::Map<const VectorT>(x0.data(), n);
    const VectorT xn = x.head(ns), zn = x.tail(nf);
    std::vector<T> d;
    f(t, x0, d);
    const VectorT dx = Eigen::Map<const VectorT>(d.data(), n);
    const VectorT sigma = apply(m.gz_inv, dx.tail(nf));
    VectorT gamma = apply(m.k, dx.head(ns));
    const bool held = !model.held.rate.empty();
    VectorT input_rate = VectorT::Zero(nf), input_curvature = VectorT::Zero(nf);
    if (held) {
      const auto inputs = static_cast<Eigen::Index>(model.held.rate.size());
      input_rate = apply(*m.ku, Eigen::Map<const VectorT>(model.held.rate.data(), inputs));
      input_curvature = apply(*m.ku, Eigen::Map<const VectorT>(model.held.curvature.data(), inputs));
      gamma += input_rate;
    }
    const VectorT integral_y = apply(m.p1, sigma) + apply(m.p2, gamma);
    const T half = h / T(2);
    const double mid = t + static_cast<double>(half), end = t + static_cast<double>(h);
    const VectorT offset = zn - sigma + apply(m.k, xn);
    VectorT shift_mid = VectorT::Zero(nf), shift_end = VectorT::Zero(nf);
    if (held) {
      const T s_mid = static_cast<T>(mid - t), s_end = static_cast<T>(end - t);
      shift_mid = s_mid * (input_rate + s_mid * input_curvature);
      shift_end = s_end * (input_rate + s_end * input_curvature);
    }
    const auto manifold = [&](const VectorT& xs, const VectorT& shift) -> VectorT {
      if (!held) return offset - apply(m.k, xs);
      return offset - apply(m.k, xs) - shift;
    };
    const auto slow_rate = [&](double ts, const VectorT& xs, const VectorT& shift) -> VectorT {
      std::vector<T> on(static_cast<std::size_t>(n)), rate;
      // cppcheck-suppress constStatement ; Eigen's comma initializer
      Eigen::Map<VectorT>(on.data(), n) << xs, manifold(xs, shift);
      f(ts, on, rate);
      return Eigen::Map<const VectorT>(rate.data(), n).head(ns);
    };
    const VectorT k1 = slow_rate(t, xn, VectorT::Zero(nf));
    const VectorT k2 = slow_rate(mid, xn + half * k1, shift_mid);
    const VectorT k3 = slow_rate(mid, xn + half * k2, shift_mid);
    const VectorT k4 = slow_rate(end, xn + h * k3, shift_end);
    const VectorT rk4 = (h / T(6)) * (k1 + T(2) * k2 + T(2) * k3 + k4), fz = apply(m.fz, integral_y);
    VectorT x_next(ns);
    for (Eigen::Index i = 0; i < ns; ++i)
      x_next[i] = compensated_add(model, static_cast<std::size_t>(i), xn[i], rk4[i], fz[i]);
    const VectorT f1 = slow_rate(end, x_next, shift_end);
    VectorT b = apply(m.a, sigma) + apply(m.k, k1);
    VectorT c = apply(m.k, f1 - k1) / h;
    if (held) {
      b += input_rate;
      c += T(2) * input_curvature;
    }
    const VectorT y_next = sigma + apply(m.q1, b) + apply(m.q2, c);
    std::vector<T> out(static_cast<std::size_t>(n));
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    Eigen::Map<VectorT>(out.data(), n) << x_next, manifold(x_next, shift_end) + y_next;
    return out;
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
