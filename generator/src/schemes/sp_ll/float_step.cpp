#include "schemes/sp_ll/float_step.hpp"

#include <Eigen/Dense>

#include <map>
#include <string>

#include "constant_schedule/constant_schedule.hpp"
#include "ir/float_constants.hpp"
#include "schemes/sp_ll/blocks.hpp"
#include "schemes/sp_ll/reference_step.hpp"

namespace dualrate {

namespace {

using Eigen::VectorXf;

struct SpLlMaps {
  LinearMap gz_inv, k, fz, a, p1, p2, q1, q2;
};

// The scheduled entries of each map at the cells, by map name.
std::map<std::string, std::vector<float>> scheduled_entries(const SpLlMaps& m, const FloatCells& cells) {
  std::map<std::string, std::vector<float>> entries;
  for (const LinearMap* c : {&m.gz_inv, &m.k, &m.fz, &m.a, &m.p1, &m.p2, &m.q1, &m.q2})
    entries[c->name] = scheduled_entries_in_float(*c, cells);
  return entries;
}

}  // namespace

FloatStep sp_ll_float_step(const std::vector<NamedMatrix>& constants, std::size_t slow,
                           const std::vector<std::vector<double>>& grid) {
  const auto map = [&](const char* name) { return linear_map(named(constants, name)); };
  const SpLlMaps m{map("gz_inv"), map("k"), map("fz"), map("a"), map("p1"), map("p2"), map("q1"), map("q2")};
  const auto ns = static_cast<Eigen::Index>(slow);
  return [m, ns, grid](const FloatModel& model, double t, float h, const std::vector<float>& x0) {
    const RightHandSideIn<float>& f = model.f;
    const std::map<std::string, std::vector<float>> entries =
        grid.empty() ? std::map<std::string, std::vector<float>>{}
                     : scheduled_entries(m, locate_in_float(grid, model.scheduling_values(t, x0)));
    const auto apply = [&entries](const LinearMap& c, const VectorXf& v) {
      const auto it = entries.find(c.name);
      return product_in_float(c, v, it == entries.end() ? std::vector<float>{} : it->second);
    };
    const auto n = static_cast<Eigen::Index>(x0.size()), nf = n - ns;
    const VectorXf x = Eigen::Map<const VectorXf>(x0.data(), n);
    const VectorXf xn = x.head(ns), zn = x.tail(nf);
    std::vector<float> d;
    f(t, x0, d);
    const VectorXf dx = Eigen::Map<const VectorXf>(d.data(), n);
    const VectorXf sigma = apply(m.gz_inv, dx.tail(nf));
    const VectorXf gamma = apply(m.k, dx.head(ns));
    const VectorXf integral_y = apply(m.p1, sigma) + apply(m.p2, gamma);
    const VectorXf offset = zn - sigma + apply(m.k, xn);
    const auto manifold = [&](const VectorXf& xs) -> VectorXf { return offset - apply(m.k, xs); };
    const auto slow_rate = [&](double ts, const VectorXf& xs) -> VectorXf {
      std::vector<float> on(static_cast<std::size_t>(n)), rate;
      // cppcheck-suppress constStatement ; Eigen's comma initializer
      Eigen::Map<VectorXf>(on.data(), n) << xs, manifold(xs);
      f(ts, on, rate);
      return Eigen::Map<const VectorXf>(rate.data(), n).head(ns);
    };
    const float half = h / 2.0F;
    const VectorXf k1 = slow_rate(t, xn);
    const VectorXf k2 = slow_rate(t + static_cast<double>(half), xn + half * k1);
    const VectorXf k3 = slow_rate(t + static_cast<double>(half), xn + half * k2);
    const VectorXf k4 = slow_rate(t + static_cast<double>(h), xn + h * k3);
    const VectorXf x_next = xn + (h / 6.0F) * (k1 + 2.0F * k2 + 2.0F * k3 + k4) + apply(m.fz, integral_y);
    const VectorXf f1 = slow_rate(t + static_cast<double>(h), x_next);
    const VectorXf b = apply(m.a, sigma) + apply(m.k, k1);
    const VectorXf c = apply(m.k, f1 - k1) / h;
    const VectorXf y_next = sigma + apply(m.q1, b) + apply(m.q2, c);
    std::vector<float> out(static_cast<std::size_t>(n));
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    Eigen::Map<VectorXf>(out.data(), n) << x_next, manifold(x_next) + y_next;
    return out;
  };
}

// The design's constants confirmed by the reference core's own (sp_ll_reference_constants) at
// the blocks of setup.jacobian, or scheduled at each grid point's Jacobian, then the runtime's
// step in float (float_step.hpp).
FloatStep sp_ll_float_reference(const ReferenceSetup& s, double h) {
  if (!s.design || !s.model) throw SimulationError("sp_ll's float step needs the generator's design and the model");
  if (s.design->schedule) {
    ConstantSchedule confirmed = *s.design->schedule;
    for (std::size_t k = 0; k < confirmed.constants.size(); ++k)
      confirmed.constants[k] = confirmed_constants(
          confirmed.constants[k], sp_ll_reference_constants(split_jacobian(confirmed.jacobians.at(k), s.slow), h));
    return sp_ll_float_step(scheduled_matrices(confirmed), s.slow, confirmed.grid);
  }
  std::vector<double> x0;
  for (const auto& x : s.model->states) x0.push_back(x.initial_value);
  const SpLlBlocks blocks = split_jacobian(s.jacobian(0, x0), s.slow);
  return sp_ll_float_step(confirmed_constants(s.design->matrices, sp_ll_reference_constants(blocks, h)), s.slow);
}

}  // namespace dualrate
