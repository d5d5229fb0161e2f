#include "schemes/smfe/runtime_step.hpp"

#include "ir/float_constants.hpp"

namespace dualrate {

template <class T>
StepIn<T> smfe_step_in(int inner_steps, double inner_step, const std::vector<std::vector<double>>& grid,
                       const std::vector<double>& points) {
  const auto constant_hs = static_cast<T>(inner_step);
  return [n = inner_steps, constant_hs, grid, points](const ModelIn<T>& m, double t, T macro_step,
                                                      const std::vector<T>& x0) {
    const T hs = grid.empty() ? constant_hs : interpolate_in<T>(points, locate_in<T>(grid, m.scheduling_values(t, x0)));
    std::vector<T> x = x0, k;
    for (int i = 0; i < n; ++i) {
      m.f(t + static_cast<double>(static_cast<T>(i) * hs), x, k);
      for (std::size_t j = 0; j < x.size(); ++j) x[j] += hs * k[j];
    }
    const T done = static_cast<T>(n) * hs;
    m.f(t + static_cast<double>(done), x, k);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] += (macro_step - done) * k[j];
    return x;
  };
}

template StepIn<float> smfe_step_in<float>(int, double, const std::vector<std::vector<double>>&,
                                           const std::vector<double>&);
template StepIn<double> smfe_step_in<double>(int, double, const std::vector<std::vector<double>>&,
                                             const std::vector<double>&);

}  // namespace dualrate
