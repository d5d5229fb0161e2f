// Scheduled constants' cost per step and their reports (constant_schedule.hpp).
#include <fmt/format.h>

#include "base/text_io.hpp"
#include "ir/function_cost.hpp"
#include "ir/straight_line.hpp"
#include "numeric/linearization.hpp"
#include "constant_schedule/constant_schedule.hpp"

namespace dualrate {

OpCount schedule_ops(const Model& m, const std::vector<NamedMatrix>& matrices, long scalars,
                     const ConstantSchedule& schedule) {
  const long dims = static_cast<long>(schedule.grid.size()), corners = 1L << dims;
  long entries = scalars;
  for (const auto& matrix : matrices) entries += static_cast<long>(linear_map(matrix).tables.size());
  OpCount ops = straight_line_ops(m, straight_line(m, m.simulation.schedule->by));
  ops += dims * arithmetic(3, 1, 1);  // locate: x - b_0 (times the inverse spacing), x - b_i, the width, the fraction
  // Per entry: over one value M_i + f (M_{i+1} - M_i); over two, lookup::combine: per corner a
  // weight of one factor per axis (1 - f on the lower side), its product with the value, the sum.
  ops +=
      entries * (dims == 1 ? arithmetic(2, 1, 0) : arithmetic(corners + dims * corners / 2, corners * (dims + 1), 0));
  return ops;
}

std::string schedule_summary(const ConstantSchedule& schedule) {
  std::string grid;
  for (std::size_t d = 0; d < schedule.grid.size(); ++d)
    grid += fmt::format("{}{}: {} points over [{:.6g}, {:.6g}] (the reference trajectory covers [{:.6g}, {:.6g}])",
                        d ? "; " : "", schedule.by[d], schedule.grid[d].size(), schedule.grid[d].front(),
                        schedule.grid[d].back(), schedule.covered[d].first, schedule.covered[d].second);
  std::string s = fmt::format(
      "Scheduled over {}{}.\n", grid,
      schedule.refined ? fmt::format(", chosen by points: auto at tolerance {:.3g}", schedule.tolerance) : "");
  s += fmt::format("Interpolation error (one-step map at a cell's midpoint, relative): at most {:.3g}, at {}.\n",
                   schedule.interpolation_error, schedule_point_text(schedule.by, schedule.interpolation_error_at));
  s += fmt::format(
      "Stability over the grid: at worst spectral radius {:.6g} at {}, judged against the model's "
      "growth there {:.6g} ({:.6g} relative; {} points checked).\n",
      schedule.worst_radius, schedule_point_text(schedule.by, schedule.worst_at), schedule.worst_model_growth,
      schedule.worst_relative, schedule.proof_points);
  if (schedule.worst_contraction >= 0)
    s += fmt::format("Contraction over the grid: {} at most {:.6g}, at {}.\n", schedule.contraction_what,
                     schedule.worst_contraction, schedule_point_text(schedule.by, schedule.worst_contraction_at));
  if (schedule.largest_miss > 1e-6)
    s += fmt::format("Operating points off the trajectory's scheduling values by up to {:.3g} of the covered width.\n",
                     schedule.largest_miss);
  if (!schedule.uncovered.empty()) {
    std::string list;
    for (const auto& u : schedule.uncovered) list += (list.empty() ? "" : ", ") + u;
    s += "The constants also depend on what the schedule does not cover: " + list + ".\n";
  }
  return s;
}

std::string schedule_json(const ConstantSchedule& schedule) {
  const auto numbers = [](const std::vector<double>& v) { return fmt::format("[{:.17g}]", fmt::join(v, ",")); };
  std::string by, grid, covered, uncovered;
  for (std::size_t d = 0; d < schedule.grid.size(); ++d) {
    by += (d ? "," : "") + json_string(schedule.by[d]);
    grid += (d ? "," : "") + numbers(schedule.grid[d]);
    covered += fmt::format("{}[{:.17g},{:.17g}]", d ? "," : "", schedule.covered[d].first, schedule.covered[d].second);
  }
  for (const auto& u : schedule.uncovered) uncovered += (uncovered.empty() ? "" : ",") + json_string(u);
  return fmt::format(
      "{{\"by\":[{}],\"grid\":[{}],\"covered\":[{}],\"auto\":{},\"tolerance\":{:.6e},\"interpolation_error\":{:.6e},"
      "\"interpolation_error_at\":{},\"worst_radius\":{:.17g},\"worst_relative\":{:.17g},"
      "\"model_growth_per_step\":{:.17g},\"worst_at\":{},\"stable\":{},\"proof_points\":{},"
      "\"uncovered\":[{}]{}}}",
      by, grid, covered, schedule.refined ? "true" : "false", schedule.tolerance, schedule.interpolation_error,
      numbers(schedule.interpolation_error_at), schedule.worst_radius, schedule.worst_relative,
      schedule.worst_model_growth, numbers(schedule.worst_at),
      schedule.worst_relative <= 1 + kStabilityMargin ? "true" : "false", schedule.proof_points, uncovered,
      schedule.worst_contraction >= 0 ? fmt::format(",\"contraction\":{{\"what\":{},\"worst\":{:.17g},\"at\":{}}}",
                                                    json_string(schedule.contraction_what), schedule.worst_contraction,
                                                    numbers(schedule.worst_contraction_at))
                                      : "");
}

}  // namespace dualrate
