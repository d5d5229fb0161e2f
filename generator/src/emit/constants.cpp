// The emitted form of a scheme's constants: each matrix as a function v -> M v over its
// nonzeros, the axes of grids, and (scheduled constants) the schedule's tables and its
// interpolation (constants.hpp).
#include "emit/constants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/diagnostics.hpp"
#include "model/printing.hpp"
#include "model/scalar_type.hpp"
#include "constant_schedule/constant_schedule.hpp"

namespace dualrate {

std::size_t equal_in_scalar(const std::vector<double>& b, ScalarType scalar) {
  for (std::size_t i = 1; i < b.size(); ++i)
    if (!(in_scalar(b[i], scalar) > in_scalar(b[i - 1], scalar))) return i;
  return 0;
}

std::string axis_definition(const std::string& name, const std::vector<double>& b, ScalarType scalar) {
  std::vector<double> r(b.size());
  std::transform(b.begin(), b.end(), r.begin(), [&](double v) { return in_scalar(v, scalar); });
  const double spacing = (r.back() - r.front()) / static_cast<double>(r.size() - 1);
  bool uniform = true;
  for (std::size_t i = 0; i < r.size(); ++i)
    uniform = uniform && std::fabs(r[i] - (r.front() + static_cast<double>(i) * spacing)) <= 1e-6 * spacing;
  std::string list;
  for (double v : b) list += (list.empty() ? "" : ", ") + scalar_literal(v);
  return fmt::format("  static constexpr dualrate::lookup::Axis<Scalar, {}, {}> {}{{{{{}}}, {}}};", b.size(),
                     uniform ? "true" : "false", name, list, uniform ? scalar_literal(1 / spacing) : "Scalar(0)");
}

namespace {

bool reads_schedule(const LinearMap& m) {
  for (const auto& row : m.terms)
    for (const auto& t : row)
      if (t.entry >= 0) return true;
  return false;
}

}  // namespace

std::string matrix_function(const LinearMap& m) {
  std::string s = fmt::format("  // {}: {} x {}, {} nonzeros ({}", m.what, m.rows, m.cols, m.nonzeros(), m.shape());
  if (m.structural_nonzeros < m.rows * m.cols)
    s += fmt::format("; the model's structure allows {}", m.structural_nonzeros);
  if (m.dropped_residue > 0)
    s += fmt::format("; rounding residue up to {:.3g} of the largest entry dropped where the structure has zeros",
                     m.dropped_residue);
  if (!m.tables.empty()) s += fmt::format("; {} of them scheduled", m.tables.size());
  s += fmt::format(
      ")\n  static Eigen::Matrix<Scalar, {}, 1> {}(const Schedule& {}, const Eigen::Matrix<Scalar, {}, 1>& {}) "
      "noexcept "
      "{{\n",
      m.rows, m.name, reads_schedule(m) ? "s_" : "/*s_*/", m.cols, m.nonzeros() ? "v_" : "/*v_*/");
  s += fmt::format("    Eigen::Matrix<Scalar, {}, 1> r_;\n", m.rows);
  for (std::size_t r = 0; r < m.terms.size(); ++r) {
    const auto& row = m.terms[r];
    std::string sum;
    const bool negated = !row.empty() && row.front().entry < 0 && row.front().coefficient < 0;  // every term negative
    for (const auto& t : row) {
      const double c = std::fabs(t.coefficient);
      const std::string term = t.entry >= 0 ? fmt::format("s_.{}[{}]*v_[{}]", m.name, t.entry, t.column)
                               : c == 1     ? fmt::format("v_[{}]", t.column)
                                            : fmt::format("{}*v_[{}]", scalar_literal(c), t.column);
      if (sum.empty())
        sum = term;
      else
        sum += (t.entry < 0 && t.coefficient < 0 && !negated ? " - " : " + ") + term;
    }
    if (row.empty())
      sum = "Scalar(0)";
    else if (negated)
      sum = row.size() > 1 ? "-(" + sum + ")" : "-" + sum;
    s += fmt::format("    r_[{}] = {};\n", r, sum);
  }
  return s + "    return r_;\n  }\n";
}

// SchemeConstants' Schedule and schedule(t, x, u) (dualrate/schedule.hpp): empty when the
// constants are constant; else the grid, each scheduled entry's and real's values at its
// points, and the interpolation at a step's scheduling values, with whether they lay outside
// the grid (Data's count).
std::string schedule_definitions(const SchemeDesign& o, ScalarType scalar, const std::vector<LinearMap>& maps) {
  std::string h;
  if (!o.schedule) {
    return "  // The same constants at every step (dualrate/schedule.hpp).\n  using Schedule = dualrate::Unscheduled;\n"
           "  static Schedule schedule(Model::Time /*t*/, const Model::State& /*x_*/, const Model::Input& /*u_*/) "
           "noexcept {\n"
           "    return {};\n  }\n";
  }
  const ConstantSchedule& c = *o.schedule;
  const std::size_t dims = c.grid.size();
  h += "  // Scheduled constants (dualrate/schedule.hpp): the grid of Model::scheduling_values,\n";
  h += "  // each scheduled entry's value at its points (the first value's points outermost), and\n";
  h += "  // the entries interpolated at a step's scheduling values, clamped to the grid.\n";
  for (std::size_t d = 0; d < dims; ++d) {
    if (const std::size_t i = equal_in_scalar(c.grid[d], scalar))
      throw ModelError(c.loc,
                       fmt::format("grid points {:.17g} and {:.17g} of '{}' are equal in {}", c.grid[d][i - 1],
                                   c.grid[d][i], c.by[d], to_string(scalar)),
                       "narrow the range or use fewer points, or generate with --scalar double");
    h += fmt::format("  // {}: {} points.\n", c.by[d], c.grid[d].size()) +
         axis_definition(fmt::format("schedule_axis{}_", d), c.grid[d], scalar) + "\n";
  }
  std::string members, cells, strides, outside;
  std::size_t stride = 1;
  std::vector<std::size_t> stride_of(dims);
  for (std::size_t d = dims; d-- > 0;) {
    stride_of[d] = stride;
    stride *= c.grid[d].size();
  }
  for (const LinearMap& m : maps) {
    if (m.tables.empty()) continue;
    h += fmt::format("  static constexpr Scalar {}_points_[{}][{}] = {{\n", m.name, m.tables.size(), c.points());
    for (const auto& table : m.tables) {
      std::string line;
      for (double v : table) line += (line.empty() ? "" : ", ") + scalar_literal(v);
      h += "      {" + line + "},\n";
    }
    h += "  };\n";
    members += fmt::format("    Scalar {}[{}];\n", m.name, m.tables.size());
  }
  for (const SchemeReal& r : o.reals) {
    if (r.scheduled.empty()) continue;
    std::string line;
    for (double v : r.scheduled) line += (line.empty() ? "" : ", ") + scalar_literal(v);
    h += fmt::format("  static constexpr Scalar {}_points_[{}] = {{{}}};\n", r.name, r.scheduled.size(), line);
    members += fmt::format("    Scalar {};  // {}\n", r.name, r.what);
  }
  for (std::size_t d = 0; d < dims; ++d) {
    cells += fmt::format(
        "{}dualrate::lookup::locate<dualrate::lookup::Interpolation::kLinear, "
        "dualrate::lookup::Extrapolation::kClamp>(schedule_axis{}_, v_[{}])",
        d ? ",\n        " : "", d, d);
    strides += fmt::format("{}{}", d ? ", " : "", stride_of[d]);
    outside += fmt::format("{}dualrate::scheduling::outside(schedule_axis{}_, v_[{}])", d ? " || " : "", d, d);
  }
  h += "  struct Schedule {\n" + members +
       "    bool outside;  // the scheduling values lay outside the grid (the constants are its edge's)\n  };\n";
  h += "  static Schedule schedule(Model::Time t, const Model::State& x_, const Model::Input& u_) noexcept {\n";
  h += "    const Model::ScheduleValues v_ = Model::scheduling_values(t, x_, u_);\n";
  h += "    Schedule s_{};\n";
  h += "    s_.outside = " + outside + ";\n";
  if (!members.empty()) {
    h += fmt::format("    const dualrate::lookup::Cell<Scalar> cells_[{}] = {{\n        {}}};\n", dims, cells);
    h += fmt::format("    const int strides_[{}] = {{{}}};\n", dims, strides);
  }
  for (const LinearMap& m : maps)
    if (!m.tables.empty())
      h += fmt::format("    dualrate::scheduling::interpolate({}_points_, cells_, strides_, s_.{});\n", m.name, m.name);
  for (const SchemeReal& r : o.reals)
    if (!r.scheduled.empty())
      h +=
          fmt::format("    s_.{} = dualrate::scheduling::interpolate({}_points_, cells_, strides_);\n", r.name, r.name);
  h += "    return s_;\n  }\n";
  return h;
}

}  // namespace dualrate
