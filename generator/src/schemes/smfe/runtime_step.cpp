#include "schemes/smfe/runtime_step.hpp"

#include "ir/float_constants.hpp"
#include "schemes/smfe/step_formula.hpp"

namespace dualrate {

namespace {

// The runtime's arithmetic in T (the generated code's Scalar) on the model's right-hand side in
// T; its times in double, as the generated code's Time with held inputs.
template <class T>
struct RuntimeArithmetic {
  using Scalar = T;
  using Time = double;
  using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

  const ModelIn<T>& model;

  Vector rate_at_start(Time t, const Vector& x) const { return rate(t, x); }
  Vector rate(Time t, const Vector& x) const {
    std::vector<T> k;
    model.f(t, std::vector<T>(x.data(), x.data() + x.size()), k);
    return Eigen::Map<const Vector>(k.data(), static_cast<Eigen::Index>(k.size()));
  }
};

}  // namespace

template <class T>
StepIn<T> smfe_step_in(int inner_steps, double inner_step, const std::vector<std::vector<double>>& grid,
                       const std::vector<double>& points) {
  const auto constant_hs = static_cast<T>(inner_step);
  return [n = inner_steps, constant_hs, grid, points](const ModelIn<T>& m, double t, T macro_step,
                                                      const std::vector<T>& x0) {
    const T hs = grid.empty() ? constant_hs : interpolate_in<T>(points, locate_in<T>(grid, m.scheduling_values(t, x0)));
    RuntimeArithmetic<T> a{m};
    using Vector = typename RuntimeArithmetic<T>::Vector;
    const Vector x = smfe_step(a, t, macro_step, hs, n,
                               Vector(Eigen::Map<const Vector>(x0.data(), static_cast<Eigen::Index>(x0.size()))));
    return std::vector<T>(x.data(), x.data() + x.size());
  };
}

template StepIn<float> smfe_step_in<float>(int, double, const std::vector<std::vector<double>>&,
                                           const std::vector<double>&);
template StepIn<double> smfe_step_in<double>(int, double, const std::vector<std::vector<double>>&,
                                             const std::vector<double>&);

}  // namespace dualrate
