// Calibration scenarios (model/calibration.hpp): the list of writes, from a calibration file or
// the model file's `simulation: calibration:` (the loader's read_simulation calls
// read_calibration), checked against the model's tunable parameters and tables.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "model/calibration.hpp"
#include "model/loader.hpp"

namespace dualrate::loading {

namespace {

const std::vector<std::string> kWriteKeys = {"at", "set"};
const char* const kWriteExample = "as in '- at: 0.25' with 'set: {R: 1.6}' on the next line";

const char* kind_of(const YAML::Node& n) {
  return n.IsSequence() ? "a list" : n.IsMap() ? "a mapping" : n.IsNull() ? "an empty value" : "a single value";
}

// Reads the writes of one scenario for model m; positions are in `file`.
class CalibrationReader {
 public:
  CalibrationReader(const Model& m, std::string file) : m_(m), file_(std::move(file)) {}

  std::vector<CalibrationWrite> read(const YAML::Node& list, const YAML::Node& owner) {
    if (!list.IsSequence())
      throw ModelError(at(list.IsNull() && owner ? owner : list),
                       std::string("a calibration scenario must be a list of writes, not ") + kind_of(list),
                       kWriteExample);
    std::vector<CalibrationWrite> writes;
    for (const auto& entry : list) {
      writes.push_back(write(entry));
      if (writes.size() > 1 && writes.back().at < writes[writes.size() - 2].at)
        throw ModelError(writes.back().loc,
                         fmt::format("the write at {} comes after one at {}: writes are listed in time order",
                                     writes.back().at, writes[writes.size() - 2].at),
                         "order the entries by 'at' (writes at the same time apply in the order listed)");
    }
    return writes;
  }

 private:
  SourceLoc at(const YAML::Node& n) const {
    const YAML::Mark mark = n.Mark();
    if (mark.line < 0) return {file_, 1, 1};
    return {file_, mark.line + 1, mark.column + 1};
  }

  std::map<std::string, KeyValue> keys(const YAML::Node& entry) const {
    std::map<std::string, KeyValue> found;
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      if (!it->first.IsScalar()) throw ModelError(at(it->first), "keys in a calibration write must be plain names");
      const std::string key = it->first.Scalar();
      if (std::find(kWriteKeys.begin(), kWriteKeys.end(), key) == kWriteKeys.end())
        throw ModelError(at(it->first), "unknown key '" + key + "' in a calibration write",
                         did_you_mean(key, kWriteKeys, "expected 'at' and 'set'"));
      if (found.count(key))
        throw ModelError(at(it->first), "duplicate key '" + key + "' in a calibration write",
                         "first given at line " + std::to_string(at(found.at(key).first).line));
      found[key] = {it->first, it->second};
    }
    return found;
  }

  CalibrationWrite write(const YAML::Node& entry) {
    if (!entry.IsMap())
      throw ModelError(at(entry),
                       std::string("a calibration write must be a mapping with 'at' and 'set', not ") + kind_of(entry),
                       kWriteExample);
    const auto k = keys(entry);
    for (const char* key : {"at", "set"})
      if (!k.count(key))
        throw ModelError(at(entry), std::string("a calibration write has no '") + key + "'", kWriteExample);
    CalibrationWrite w;
    w.loc = at(entry);
    w.at = time(k.at("at"));
    w.set = values(k.at("set"));
    return w;
  }

  double time(const KeyValue& kv) const {
    const YAML::Node& n = kv.second;
    if (!n.IsScalar())
      throw ModelError(at(n.IsNull() ? kv.first : n), std::string("'at' must be a number, not ") + kind_of(n),
                       "the time in seconds from which the write applies, as in at: 0.25");
    double t = 0;
    const NumberText kind = number_text(n.Scalar(), t);
    if (kind != NumberText::kFinite)
      throw ModelError(at(n),
                       "'at' must be a " + std::string(kind == NumberText::kNotFinite ? "finite " : "") +
                           "number, not '" + n.Scalar() + "'",
                       "the time in seconds from which the write applies, as in at: 0.25");
    if (t < 0) throw ModelError(at(n), "'at' is negative: " + n.Scalar(), "a run starts at t = 0");
    return t;
  }

  std::vector<CalibrationValue> values(const KeyValue& kv) const {
    const YAML::Node& n = kv.second;
    if (!n.IsMap() || n.size() == 0)
      throw ModelError(at(n.IsNull() || n.IsMap() ? kv.first : n),
                       n.IsMap() ? std::string("'set' is empty")
                                 : std::string("'set' must be a mapping of names to values, not ") + kind_of(n),
                       "tunable parameters and tables with their new values, as in set: {R: 1.6, Kt: 0.07}");
    std::vector<CalibrationValue> set;
    for (auto it = n.begin(); it != n.end(); ++it) {
      set.push_back(value(it->first, it->second));
      for (std::size_t i = 0; i + 1 < set.size(); ++i)
        if (set[i].name == set.back().name)
          throw ModelError(set.back().loc, "'" + set.back().name + "' is set twice in one write",
                           "first set at line " + std::to_string(set[i].loc.line));
    }
    return set;
  }

  CalibrationValue value(const YAML::Node& key, const YAML::Node& node) const {
    if (!key.IsScalar()) throw ModelError(at(key), "names in 'set' must be plain names");
    CalibrationValue v{key.Scalar(), {}, at(key), false};
    for (const auto& p : m_.parameters)
      if (p.name == v.name) {
        if (!p.tunable) throw not_tunable(v, "parameter");
        v.values.push_back(number(node, "the value of '" + v.name + "'"));
        return v;
      }
    for (const auto& t : m_.tables)
      if (t->name == v.name) {
        if (!t->tunable) throw not_tunable(v, "table");
        v.table = true;
        v.values = table_values(node, *t);
        return v;
      }
    throw unknown(v);
  }

  ModelError not_tunable(const CalibrationValue& v, const std::string& kind) const {
    return ModelError(v.loc, kind + " '" + v.name + "' is not tunable: a calibration cannot change it",
                      "declare it 'tunable: true' with 'min' and 'max' in the model file to calibrate it");
  }

  ModelError unknown(const CalibrationValue& v) const {
    std::vector<std::string> names, tunable;
    for (const auto& p : m_.parameters) {
      names.push_back(p.name);
      if (p.tunable) tunable.push_back(p.name);
    }
    for (const auto& t : m_.tables) {
      names.push_back(t->name);
      if (t->tunable) tunable.push_back(t->name);
    }
    return ModelError(v.loc, "model '" + m_.name + "' has no parameter or table '" + v.name + "'",
                      did_you_mean(v.name, names,
                                   tunable.empty() ? std::string("the model has no tunable parameter or table")
                                                   : "its tunable ones are: " + join(tunable)));
  }

  // A number as written (no expression); .inf, .nan and numbers beyond double's range are
  // read as what they are, for the write to be refused when it applies.
  double number(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) throw ModelError(at(n), what + " must be a number, not " + kind_of(n));
    double v = 0;
    switch (number_text(n.Scalar(), v)) {
      case NumberText::kFinite:
        return v;
      case NumberText::kNotFinite: {
        std::string lower = n.Scalar();
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.find("nan") != std::string::npos) return std::numeric_limits<double>::quiet_NaN();
        return lower[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      }
      case NumberText::kNotANumber:
        break;
    }
    throw ModelError(at(n), what + " must be a number, not '" + n.Scalar() + "'",
                     "a calibration writes numbers, as in 1.6 or -2.5e-3 (no expressions)");
  }

  std::vector<double> table_values(const YAML::Node& n, const Table& t) const {
    std::string hint =
        fmt::format("a list of all {} values of table '{}', first axis outermost", t.values.size(), t.name);
    if (t.values.size() <= 8) hint += fmt::format(", as in [{}]", fmt::join(t.values, ", "));
    if (!n.IsSequence())
      throw ModelError(
          at(n), fmt::format("table '{}' takes a list of its {} values, not {}", t.name, t.values.size(), kind_of(n)),
          hint);
    if (n.size() != t.values.size())
      throw ModelError(
          at(n), fmt::format("table '{}' has {} values; this list gives {}", t.name, t.values.size(), n.size()), hint);
    std::vector<double> values;
    for (std::size_t i = 0; i < n.size(); ++i)
      values.push_back(number(n[i], fmt::format("value {} of table '{}'", i, t.name)));
    return values;
  }

  const Model& m_;
  std::string file_;
};

}  // namespace

std::vector<CalibrationWrite> read_calibration(const Model& m, const std::string& file, const YAML::Node& list,
                                               const YAML::Node& owner) {
  return CalibrationReader(m, file).read(list, owner);
}

}  // namespace dualrate::loading

namespace dualrate {

std::vector<CalibrationWrite> load_calibration_text(const Model& m, const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (e.mark.line < 0) throw ModelError({file, 1, 1}, "invalid YAML: " + e.msg);
    throw ModelError({file, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg);
  }
  if (!root || root.IsNull())
    throw ModelError({file, 1, 1}, "empty calibration file",
                     "a list of writes, " + std::string(loading::kWriteExample));
  return loading::read_calibration(m, file, root, {});
}

std::vector<CalibrationWrite> load_calibration_file(const Model& m, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 1, 1}, "cannot read calibration file", "check the path");
  std::ostringstream s;
  s << in.rdbuf();
  return load_calibration_text(m, s.str(), path);
}

}  // namespace dualrate
