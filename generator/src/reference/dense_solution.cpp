#include "reference/dense_solution.hpp"

#include <boost/numeric/odeint.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dualrate {

DenseSolution::DenseSolution(const ReferenceModel& core, double tolerance, double max_step)
    : core_(core), tolerance_(tolerance), max_step_(max_step), x_(core.initial_state()), dt_(max_step / 16) {}

void DenseSolution::extend_to(double t) {
  namespace odeint = boost::numeric::odeint;
  if (!steps_.empty() && steps_.back().start + steps_.back().length >= t) return;
  using Vector = ReferenceModel::Vector;
  auto stepper = odeint::make_dense_output(tolerance_, tolerance_, max_step_, odeint::runge_kutta_dopri5<Vector>());
  const auto system = [this](const Vector& x, Vector& dxdt, double time) {
    core_.derivatives(time, x, core_.inputs_at(time), dxdt);
  };
  stepper.initialize(x_, t_, dt_);
  try {
    while (t_ < t) {
      const std::pair<double, double> range = stepper.do_step(system);
      Step s{range.first, range.second - range.first, {}};
      for (std::size_t k = 0; k < s.points.size(); ++k) {
        s.points[k].resize(x_.size());
        stepper.calc_state(s.start + s.length * static_cast<double>(k) / 4, s.points[k]);
      }
      x_ = stepper.current_state();
      if (!std::all_of(x_.begin(), x_.end(), [](double v) { return std::isfinite(v); }))
        throw SimulationError(fmt::format("the high-accuracy solution is not finite at t = {:.17g}", range.second));
      t_ = range.second;
      dt_ = stepper.current_time_step();
      steps_.push_back(std::move(s));
    }
  } catch (const odeint::step_adjustment_error& e) {
    throw SimulationError(std::string("reference integration failed: ") + e.what());
  }
}

std::vector<double> DenseSolution::at(double t) {
  if (t <= 0) return core_.initial_state();
  extend_to(t);
  const auto it = std::lower_bound(steps_.begin(), steps_.end(), t,
                                   [](const Step& s, double time) { return s.start + s.length < time; });
  const Step& s = it == steps_.end() ? steps_.back() : *it;
  // Lagrange's polynomial through the 5 points, at theta = 4 (t - start) / length in [0, 4].
  const double theta = 4 * (t - s.start) / s.length;
  std::array<double, 5> weight{};
  for (std::size_t k = 0; k < weight.size(); ++k) {
    double w = 1;
    for (std::size_t j = 0; j < weight.size(); ++j)
      if (j != k) w *= (theta - static_cast<double>(j)) / (static_cast<double>(k) - static_cast<double>(j));
    weight[k] = w;
  }
  std::vector<double> x(x_.size(), 0.0);
  for (std::size_t k = 0; k < weight.size(); ++k)
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += weight[k] * s.points[k][i];
  return x;
}

Trace DenseSolution::rows_on_grid(double h, long steps, int every) {
  if (!(h > 0) || steps < 1 || every < 1) throw SimulationError("step and steps must be positive and every at least 1");
  Trace trace;
  trace.columns = core_.columns();
  for (long i = 0;; i = std::min(steps, i + every)) {
    const double t = static_cast<double>(i) * h;
    std::vector<double> row{t};
    const std::vector<double> x = at(t);
    const std::vector<double> y = core_.outputs(t, x, core_.inputs_at(t));
    row.insert(row.end(), x.begin(), x.end());
    row.insert(row.end(), y.begin(), y.end());
    trace.rows.push_back(std::move(row));
    if (i == steps) break;
  }
  return trace;
}

}  // namespace dualrate
