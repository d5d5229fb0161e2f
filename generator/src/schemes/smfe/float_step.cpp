#include "schemes/smfe/float_step.hpp"

#include "ir/float_constants.hpp"

namespace dualrate {

FloatStep smfe_float_step(int inner_steps, double inner_step, const std::vector<std::vector<double>>& grid,
                          const std::vector<double>& points) {
  const auto constant_hs = static_cast<float>(inner_step);
  return [n = inner_steps, constant_hs, grid, points](const FloatModel& m, double t, float macro_step,
                                                      const std::vector<float>& x0) {
    const float hs =
        grid.empty() ? constant_hs : interpolate_in_float(points, locate_in_float(grid, m.scheduling_values(t, x0)));
    std::vector<float> x = x0, k;
    for (int i = 0; i < n; ++i) {
      m.f(t + static_cast<double>(static_cast<float>(i) * hs), x, k);
      for (std::size_t j = 0; j < x.size(); ++j) x[j] += hs * k[j];
    }
    const float done = static_cast<float>(n) * hs;
    m.f(t + static_cast<double>(done), x, k);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] += (macro_step - done) * k[j];
    return x;
  };
}

}  // namespace dualrate
