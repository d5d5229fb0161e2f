#include "schemes/sp_ll/float_step.hpp"

#include <Eigen/Dense>

#include <map>
#include <string>

#include "ir/float_constants.hpp"

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

}  // namespace dualrate
