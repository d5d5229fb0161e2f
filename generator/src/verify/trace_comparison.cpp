#include "verify/trace_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dualrate {

std::vector<ColumnTolerance> column_tolerances(const Model& m, const ErrorTolerance& t) {
  const std::vector<std::string> names = m.state_and_output_names();
  std::vector<ColumnTolerance> columns(names.size(), ColumnTolerance{t.relative.value_or(0), false});
  for (const auto& [name, value] : t.absolute) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw std::invalid_argument(
          fmt::format("the absolute tolerance of '{}': {} has no state or output of that name", name, m.name));
    columns[static_cast<std::size_t>(it - names.begin())] = {value, true};
  }
  return columns;
}

ErrorTolerance merged(const ErrorTolerance& file, const ErrorTolerance& given) {
  ErrorTolerance t = file;
  if (given.relative) t.relative = given.relative;
  for (const auto& g : given.absolute) {
    const auto it =
        std::find_if(t.absolute.begin(), t.absolute.end(), [&g](const auto& a) { return a.first == g.first; });
    if (it == t.absolute.end())
      t.absolute.push_back(g);
    else
      it->second = g.second;
  }
  return t;
}

bool has_absolute(const ErrorTolerance& t, const std::string& name) {
  return std::any_of(t.absolute.begin(), t.absolute.end(), [&name](const auto& a) { return a.first == name; });
}

double tolerance_of(const ErrorTolerance& t, const std::string& name) {
  for (const auto& [n, value] : t.absolute)
    if (n == name) return value;
  return t.relative.value_or(0);
}

std::string tolerance_source(const ErrorTolerance& file, const ErrorTolerance& given, const std::string& name) {
  if (has_absolute(given, name)) return "--absolute-tolerance";
  if (has_absolute(file, name)) return "simulation.absolute_tolerance";
  return given.relative ? "--tolerance" : "simulation.tolerance";
}

std::string tolerance_text(const ErrorTolerance& t) {
  std::string s = t.relative ? fmt::format("{:g} relative", *t.relative) : "";
  for (std::size_t i = 0; i < t.absolute.size(); ++i)
    s += fmt::format("{}{} {:g}",
                     i > 0       ? ", "
                     : s.empty() ? "absolute "
                                 : "; absolute ",
                     t.absolute[i].first, t.absolute[i].second);
  return s;
}

Comparison compare_traces(const Trace& a, const Trace& b, const std::vector<ColumnTolerance>& tolerances) {
  const std::size_t n = tolerances.size();
  const auto compared = [n](const Trace& t) {
    return std::vector<std::string>(t.columns.begin(), t.columns.begin() + static_cast<long>(n + 1));
  };
  if (a.rows.size() != b.rows.size() || a.columns.size() < n + 1 || b.columns.size() < n + 1 ||
      compared(a) != compared(b))
    throw std::runtime_error(fmt::format("traces differ in shape: {} rows x {} columns vs {} rows x {} columns",
                                         a.rows.size(), a.columns.size(), b.rows.size(), b.columns.size()));
  Comparison c;
  c.scale.assign(n, 1.0);
  c.errors.assign(n, 0.0);
  c.times.assign(n, b.rows.empty() ? 0.0 : b.rows.front()[0]);
  for (const auto& row : b.rows)
    for (std::size_t j = 0; j < n; ++j)
      if (!tolerances[j].absolute) c.scale[j] = std::max(c.scale[j], std::fabs(row[1 + j]));
  for (std::size_t i = 0; i < b.rows.size(); ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double e = std::fabs(a.rows[i][1 + j] - b.rows[i][1 + j]) / c.scale[j];
      if (!(e <= c.errors[j])) {
        c.errors[j] = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
        c.times[j] = b.rows[i][0];
      }
    }
  bool judged = false;
  std::size_t worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (tolerances[j].value > 0) {
      const double share = c.errors[j] / tolerances[j].value;
      if (!judged || share > c.share) {
        c.share = share;
        worst = j;
      }
      judged = true;
    } else if (!judged && c.errors[j] > c.errors[worst]) {
      worst = j;
    }
  }
  if (n == 0) return c;
  c.max_error = c.errors[worst];
  c.worst_column = 1 + worst;
  c.worst_time = c.times[worst];
  return c;
}

Comparison compare_traces(const Trace& a, const Trace& b, std::size_t columns) {
  return compare_traces(a, b, std::vector<ColumnTolerance>(columns, ColumnTolerance{1.0, false}));
}

}  // namespace dualrate
