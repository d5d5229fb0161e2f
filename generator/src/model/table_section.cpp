// The loader's tables section: breakpoints, values or values_file, interpolation and
// extrapolation of each table (loader.hpp; the IR is model/tables.hpp).
//
// values_file: a CSV file next to the model file, one row per breakpoint of the first axis,
// each row the values over the other axes (first of them outermost, as `values` nests them);
// blank lines and lines starting with '#' (a source, units) are skipped.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "model/loader.hpp"

namespace dualrate::loading {

namespace {

const std::vector<std::string> kTableKeys = {"breakpoints",   "values",     "values_file", "interpolation",
                                             "extrapolation", "tunable",    "min",         "max",
                                             "unit",          "axis_units", "description"};

// A decimal number as written in a table (no expressions, no .inf or .nan), or nothing.
bool table_number(const std::string& text, double& value) { return number_text(text, value) == NumberText::kFinite; }

}  // namespace

std::string Loader::keyword(const KeyValue& kv, const std::string& key, const std::string& owner,
                            const std::vector<std::string>& allowed) {
  std::string s = scalar(kv, key + " of " + owner);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
    std::string others;
    for (std::size_t i = 1; i < allowed.size(); ++i) others += (i == 1 ? "" : " or ") + allowed[i];
    throw ModelError(at(kv.second), "unknown " + key + " '" + s + "'",
                     did_you_mean(s, allowed, allowed[0] + " (the default) or " + others));
  }
  return s;
}

double Loader::table_value(const YAML::Node& node, const std::string& what) {
  if (!node.IsScalar())
    throw ModelError(at(node), what + " must be a number, not a " +
                                   (node.IsSequence() ? "list"
                                    : node.IsMap()    ? "mapping"
                                                      : "null"));
  double v = 0;
  if (!table_number(node.Scalar(), v))
    throw ModelError(at(node), what + " is not a finite number: '" + node.Scalar() + "'",
                     "table data are decimal numbers, as in -0.25 or 1.5e3 (no expressions, .inf or .nan)");
  return v;
}

// values (nested lists, first axis outermost) for axes [axis, end), appended to `out`.
void Loader::table_values(const YAML::Node& node, const Table& t, std::size_t axis, std::vector<double>& out) {
  const std::size_t n = t.breakpoints[axis].size();
  const std::string what = fmt::format("values of table '{}'", t.name);
  const std::string value_what = fmt::format("a value of table '{}'", t.name);
  if (!node.IsSequence())
    throw ModelError(at(node), fmt::format("{}: expected a list of {} {} (axis {} has {} breakpoints)", what, n,
                                           axis + 1 == t.axes() ? "numbers" : "lists", axis + 1, n));
  if (node.size() != n)
    throw ModelError(at(node),
                     fmt::format("{}: a list of {} {} where axis {} has {} breakpoints", what, node.size(),
                                 axis + 1 == t.axes() ? "numbers" : "lists", axis + 1, n),
                     "values[i][j]... is the value at (breakpoints[0][i], breakpoints[1][j], ...)");
  for (const auto& item : node) {
    if (axis + 1 == t.axes()) {
      out.push_back(table_value(item, value_what));
      check_table_limits(t, out.back(), item.Scalar(), at(item));
    } else {
      table_values(item, t, axis + 1, out);
    }
  }
}

void Loader::check_table_limits(const Table& t, double v, const std::string& text, const SourceLoc& loc) {
  if (t.tunable && (v < t.min || v > t.max))
    throw ModelError(
        loc, fmt::format("value {} of tunable table '{}' is outside its limits [{}, {}]", text, t.name, t.min, t.max),
        "min and max bound every value of a tunable table: correct the value or widen them");
}

void Loader::table_values_file(const KeyValue& kv, Table& t) {
  const std::string name = scalar(kv, fmt::format("values_file of table '{}'", t.name));
  const std::filesystem::path path = std::filesystem::path(file_).parent_path() / name;
  t.values_file = name;
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path) || !in)
    throw ModelError(at(kv.second), fmt::format("cannot read values_file '{}' of table '{}'", path.string(), t.name),
                     "the CSV file is found next to the model file");
  const std::size_t rows = t.breakpoints[0].size();
  std::size_t per_row = 1;
  for (std::size_t d = 1; d < t.axes(); ++d) per_row *= t.breakpoints[d].size();
  int line_number = 0;
  std::size_t row = 0;
  SourceLoc last{path.string(), 1, 1};
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    last = {path.string(), line_number, 1};
    if (row == rows)
      throw ModelError(
          last, fmt::format("table '{}': more than {} rows of values (axis 1 has {} breakpoints)", t.name, rows, rows),
          "one row per breakpoint of the first axis");
    std::size_t count = 0, start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::string cell = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const std::size_t b = cell.find_first_not_of(" \t"), e = cell.find_last_not_of(" \t");
      const std::string text = b == std::string::npos ? "" : cell.substr(b, e - b + 1);
      const SourceLoc loc{path.string(), line_number, static_cast<int>(start + (b == std::string::npos ? 0 : b)) + 1};
      double v = 0;
      if (!table_number(text, v))
        throw ModelError(loc, fmt::format("table '{}': '{}' is not a finite number", t.name, text),
                         "values_file holds decimal numbers separated by commas");
      if (++count > per_row)
        throw ModelError(loc, fmt::format("table '{}': row {} has more than {} values", t.name, row + 1, per_row),
                         fmt::format("each row holds the values over the other axes ({})", per_row));
      check_table_limits(t, v, text, loc);
      t.values.push_back(v);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (count != per_row)
      throw ModelError(last, fmt::format("table '{}': row {} has {} values, not {}", t.name, row + 1, count, per_row),
                       "each row holds the values over the other axes, first of them outermost");
    ++row;
  }
  if (row != rows)
    throw ModelError(
        last, fmt::format("table '{}': {} rows of values, not {} (one per breakpoint of axis 1)", t.name, row, rows));
}

void Loader::read_breakpoints(const Entry& e, const KeyValue& bp, Table& t) {
  t.breakpoints_loc = at(bp.second);
  if (!bp.second.IsSequence() || bp.second.size() == 0 || !bp.second[0].IsSequence())
    throw ModelError(at(bp.second.IsNull() ? bp.first : bp.second),
                     "breakpoints of table '" + e.name + "' must be a list of lists, one per argument",
                     "a 1-D table too: breakpoints: [[0, 1, 2]]");
  if (bp.second.size() > kMaxTableAxes)
    throw ModelError(at(bp.second), fmt::format("table '{}' has {} axes; tables have 1 to {}", e.name, bp.second.size(),
                                                kMaxTableAxes));
  std::size_t count = 1;
  for (std::size_t d = 0; d < bp.second.size(); ++d) {
    const YAML::Node axis = bp.second[d];
    const std::string what = fmt::format("a breakpoint of axis {} of table '{}'", d + 1, e.name);
    if (!axis.IsSequence())
      throw ModelError(at(axis), fmt::format("axis {} of table '{}' must be a list of numbers", d + 1, e.name));
    if (axis.size() < 2)
      throw ModelError(at(axis), fmt::format("axis {} of table '{}' has {} breakpoint{}; an axis needs at least 2",
                                             d + 1, e.name, axis.size(), axis.size() == 1 ? "" : "s"));
    std::vector<double> points;
    for (const auto& node : axis) {
      const double v = table_value(node, what);
      if (!points.empty() && !(v > points.back()))
        throw ModelError(
            at(node),
            fmt::format("breakpoints of axis {} of table '{}' are not strictly increasing: "
                        "{} after {}",
                        d + 1, e.name, node.Scalar(), points.back()),
            v == points.back() ? "a breakpoint may not repeat" : "list the breakpoints in increasing order");
      points.push_back(v);
    }
    count *= points.size();
    if (count > kMaxTableValues)
      throw ModelError(at(bp.second), fmt::format("table '{}' would hold more than {} values", e.name, kMaxTableValues),
                       "tables are stored in the target's flash");
    t.breakpoints.push_back(std::move(points));
  }
}

void Loader::read_axis_units(const KeyValue& kv, Table& t) {
  const YAML::Node& list = kv.second;
  if (!list.IsSequence() || list.size() != t.axes())
    throw ModelError(at(list.IsNull() ? kv.first : list),
                     fmt::format("axis_units of table '{}' must be a list of {} unit{}, one per axis", t.name, t.axes(),
                                 t.axes() == 1 ? "" : "s"),
                     t.axes() == 1 ? "as in axis_units: [rpm]" : "as in axis_units: [rpm, \"1\"]");
  for (std::size_t d = 0; d < list.size(); ++d)
    t.axis_units.push_back(scalar({list[d], list[d]}, fmt::format("the unit of axis {} of table '{}'", d + 1, t.name)));
}

void Loader::read_tables(const std::vector<Entry>& entries) {
  for (const auto& e : entries) {
    Table t;
    t.name = e.name;
    t.loc = at(e.key);
    const std::string what = "table '" + e.name + "'";
    const auto k = keys(e.value, kTableKeys, what, e.key);
    if (!k.count("breakpoints"))
      throw ModelError(at(e.key), "table '" + e.name + "' has no breakpoints",
                       "breakpoints: a list of 1 to 4 lists, one per argument, as in [[0, 1, 2]]");
    read_breakpoints(e, k.at("breakpoints"), t);
    if (k.count("tunable")) t.tunable = tunable_flag(k.at("tunable"), what);
    const Limits limits = read_limits(k, t.tunable, k.count("tunable") ? k.at("tunable").first : e.key, what);
    t.min = limits.min;
    t.max = limits.max;
    t.range_loc = limits.loc;
    const bool inline_values = k.count("values") > 0, file_values = k.count("values_file") > 0;
    if (inline_values == file_values)
      throw ModelError(at(inline_values ? k.at("values_file").first : e.key),
                       "table '" + e.name + "' needs " +
                           (inline_values ? "either values or values_file, not both" : "values or values_file"),
                       "values: nested lists, one level per axis; values_file: a CSV file next to the model file");
    if (inline_values) {
      table_values(k.at("values").second, t, 0, t.values);
    } else {
      table_values_file(k.at("values_file"), t);
    }
    if (k.count("interpolation"))
      t.interpolation = keyword(k.at("interpolation"), "interpolation", what, {"linear", "flat"}) == "flat"
                            ? Table::Interpolation::kFlat
                            : Table::Interpolation::kLinear;
    if (k.count("extrapolation")) {
      t.extrapolation = keyword(k.at("extrapolation"), "extrapolation", what, {"clamp", "linear"}) == "linear"
                            ? Table::Extrapolation::kLinear
                            : Table::Extrapolation::kClamp;
      if (t.extrapolation == Table::Extrapolation::kLinear && t.interpolation == Table::Interpolation::kFlat)
        throw ModelError(at(k.at("extrapolation").second),
                         what + ": flat interpolation holds the end values, so it cannot extrapolate linearly",
                         "use extrapolation: clamp, or interpolation: linear");
    }
    if (k.count("unit")) t.unit = scalar(k.at("unit"), "the unit of " + what);
    if (k.count("description")) t.description = scalar(k.at("description"), "the description of " + what);
    if (k.count("axis_units")) read_axis_units(k.at("axis_units"), t);
    model_.tables.push_back(register_table(std::move(t)));
  }
}

}  // namespace dualrate::loading
