// Seed 002 reproductions on models/walking_robot.yaml: the quasistatic solution's error
// against the full model as the foot mass m_N (eps) is halved (Theorem 1: O(eps) outside
// the initial layer), the error inside the layer with and without the boundary-layer
// correction, and the stable steps of RK4 on the full model and of the quasistatic scheme.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/stability.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "source_tree.hpp"

namespace dualrate::seed002 {

inline std::string robot_file() { return test::source_path("models/walking_robot.yaml"); }

inline Model robot(double foot_mass) { return load_model_file(robot_file(), {{"m_N", foot_mass}}); }

inline Trace run(const Model& m, const std::string& scheme, double h, double t_end, int every) {
  return ReferenceCore(m).simulate({scheme, h, t_end, every});
}

inline std::size_t column(const Trace& t, const std::string& name) {
  return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) - t.columns.begin());
}

// Largest |a - b| (b null: |a|) over the rows with t in [from, to] and the named columns.
inline double max_difference(const Trace& a, const Trace* b, const std::vector<std::string>& columns, double from,
                             double to) {
  std::vector<std::size_t> index;
  for (const auto& c : columns) index.push_back(column(a, c));
  double worst = 0;
  for (std::size_t r = 0; r < a.rows.size() && (!b || r < b->rows.size()); ++r) {
    const double t = a.rows[r][0];
    if (t < from - 1e-12 || t > to + 1e-12) continue;
    for (std::size_t i : index) worst = std::max(worst, std::abs(a.rows[r][i] - (b ? b->rows[r][i] : 0.0)));
  }
  return worst;
}

// The platform's coordinates: the slow motion Theorem 1 is about.
inline const std::vector<std::string>& platform() {
  static const std::vector<std::string> c{"x", "y", "th"};
  return c;
}
inline const std::vector<std::string>& foot_velocities() {
  static const std::vector<std::string> c{"xf1_dot", "yf1_dot", "xf2_dot", "yf2_dot"};
  return c;
}

struct EpsPoint {
  double eps = 0;
  double error = 0;  // max platform error for t in [kOuterFrom, kTEnd]
};

constexpr double kTEnd = 2.0;
constexpr double kOuterFrom = 0.25;  // the layer decays like e^{-1500 t} at m_N = 0.02: long gone
constexpr double kStep = 5e-4;       // quasistatic step: RK4's error on the reduced form is far below O(eps)

inline EpsPoint eps_point(double eps) {
  const Model m = robot(eps);
  const Trace qs = run(m, "quasistatic_outer", kStep, kTEnd, 10);
  const Trace ref = run(m, kHighAccuracy, kStep, kTEnd, 10);
  return {eps, max_difference(qs, &ref, platform(), kOuterFrom, kTEnd)};
}

// Least-squares slope of log(error) against log(eps).
inline double slope(const std::vector<EpsPoint>& points) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(points.size());
  for (const auto& p : points) {
    const double x = std::log(p.eps), y = std::log(p.error);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Inside the initial layer (the first `layer_steps` steps of h): the foot velocities' largest
// error against the full model, with the correction (quasistatic) and without (outer).
struct LayerErrors {
  double corrected = 0, outer = 0, peak = 0;  // peak: largest |foot velocity| of the reference there
};
inline LayerErrors layer_errors(double h, int layer_steps) {
  const Model m = robot(0.02);
  const double to = h * layer_steps;
  const Trace ref = run(m, kHighAccuracy, h, to, 1);
  LayerErrors e;
  e.corrected = max_difference(run(m, "quasistatic", h, to, 1), &ref, foot_velocities(), h, to);
  e.outer = max_difference(run(m, "quasistatic_outer", h, to, 1), &ref, foot_velocities(), h, to);
  e.peak = max_difference(ref, nullptr, foot_velocities(), h, to);
  return e;
}

}  // namespace dualrate::seed002
