// The loader's parameters section: each parameter's value, its mapping form (unit, description,
// calibration: tunable with min and max), and the command line's overrides (loader.hpp; the IR
// is Parameter in model/model.hpp). The calibration limits of tables are read here too.
#include <fmt/format.h>

#include "model/loader.hpp"

namespace dualrate::loading {

void Loader::read_parameters(const std::vector<Entry>& params) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    auto& p = model_.parameters[i];
    const KeyValue value =
        params[i].value.IsMap() ? read_parameter_mapping(params[i], p) : KeyValue{params[i].key, params[i].value};
    if (p.tunable) check_tunable_text(value, p);
    const std::string what = "the value of parameter '" + p.name + "'";
    ExpressionScope scope = parameter_scope(what, i);
    scope.hold_tunable_tables = true;
    p.expr = expression(value.first, value.second, scope);
    p.value = evaluate(p.expr, value.second, what);
    if (p.tunable && (p.value < p.min || p.value > p.max))
      throw ModelError(at(value.second),
                       fmt::format("the value {} of tunable parameter '{}' is outside its limits [{}, {}]",
                                   value.second.Scalar(), p.name, p.min, p.max),
                       "a calibration starts from the value: min <= value <= max");
    apply_override(p);
  }
}

template <class NamedValue>
std::map<std::string, KeyValue> Loader::value_mapping(const Entry& e, const std::vector<std::string>& allowed,
                                                      const std::string& owner, const std::string& example,
                                                      NamedValue& named) {
  auto k = keys(e.value, allowed, owner, e.key);
  if (!k.count("value")) throw ModelError(at(e.key), owner + " has no value", example);
  if (k.count("unit")) named.unit = scalar(k.at("unit"), "the unit of " + owner);
  if (k.count("description")) named.description = scalar(k.at("description"), "the description of " + owner);
  return k;
}
template std::map<std::string, KeyValue> Loader::value_mapping(const Entry&, const std::vector<std::string>&,
                                                               const std::string&, const std::string&, Input&);

KeyValue Loader::read_parameter_mapping(const Entry& e, Parameter& p) {
  const std::string owner = "parameter '" + p.name + "'";
  const auto k =
      value_mapping(e, kParameterKeys, owner,
                    "as in R: {value: 1.0, unit: ohm}, or R: {value: 1.0, tunable: true, min: 0.5, max: 2.0}", p);
  if (k.count("tunable")) p.tunable = tunable_flag(k.at("tunable"), owner);
  const Limits limits = read_limits(k, p.tunable, k.count("tunable") ? k.at("tunable").first : e.key, owner);
  p.min = limits.min;
  p.max = limits.max;
  p.range_loc = limits.loc;
  return k.at("value");
}

void Loader::check_tunable_text(const KeyValue& value, const Parameter& p) {
  const YAML::Node& node = value.second;
  double v = 0;
  // Anything else that is not a number (nothing, a list, .inf) is reported as for any parameter.
  if (node.IsScalar() && number_text(node.Scalar(), v) == NumberText::kNotANumber)
    throw ModelError(
        at(node),
        "the value of tunable parameter '" + p.name + "' must be a number, not an expression: '" + node.Scalar() + "'",
        "a calibration writes a tunable value; a value computed from other parameters is derived from "
        "them (and follows their calibration): write the number, or remove 'tunable: true'");
}

void Loader::apply_override(Parameter& p) {
  for (const auto& o : overrides_) {
    if (o.name != p.name) continue;
    if (p.tunable && (o.value < p.min || o.value > p.max))
      throw ModelError(p.range_loc,
                       fmt::format("--param {}={}: outside the limits [{}, {}] of tunable parameter '{}'", o.name,
                                   o.value, p.min, p.max, p.name),
                       "the value a calibration starts from lies within min and max; change them in the model file "
                       "to go beyond");
    p.expr = GiNaC::numeric(o.value);
    p.value = o.value;
    p.overridden = true;
  }
}

bool Loader::tunable_flag(const KeyValue& kv, const std::string& owner) {
  const std::string s = scalar(kv, "tunable of " + owner);
  const bool plain = kv.second.Tag() != "!";  // not quoted: "true" is text
  if (plain && (s == "true" || s == "false")) return s == "true";
  throw ModelError(at(kv.second), "tunable of " + owner + " must be true or false, not '" + s + "'",
                   "true: a calibration may change its value on the target; false (the default): its value is "
                   "folded into the generated code");
}

Limits Loader::read_limits(const std::map<std::string, KeyValue>& k, bool tunable, const YAML::Node& tunable_key,
                           const std::string& owner) {
  const bool has_min = k.count("min") > 0, has_max = k.count("max") > 0;
  if (!tunable) {
    if (!has_min && !has_max) return {};
    const std::string key = has_min ? "min" : "max";
    throw ModelError(at(k.at(key).first), "'" + key + "' of " + owner + ", which is not tunable",
                     "min and max are the limits of a calibration: add 'tunable: true' to make " + owner +
                         " calibratable within them, or remove them");
  }
  if (!has_min || !has_max) {
    const std::string missing = has_min ? "max" : has_max ? "min" : "min and max";
    throw ModelError(at(tunable_key), "tunable " + owner + " has no " + missing,
                     "a calibration may change it within [min, max]: give both, as in min: 0.5, max: 2.0");
  }
  const Limits l{limit(k.at("min"), "min of " + owner), limit(k.at("max"), "max of " + owner), at(k.at("min").first)};
  if (!(l.min < l.max))
    throw ModelError(l.loc, fmt::format("the limits of {} are empty: min {} is not below max {}", owner, l.min, l.max),
                     "min must be less than max");
  return l;
}

double Loader::limit(const KeyValue& kv, const std::string& what) {
  const std::string s = scalar(kv, what);
  double v = 0;
  switch (number_text(s, v)) {
    case NumberText::kFinite:
      return v;
    case NumberText::kNotFinite:
      throw ModelError(at(kv.second), what + " is not finite: '" + s + "'", "limits are finite numbers");
    case NumberText::kNotANumber:
      break;
  }
  throw ModelError(at(kv.second), what + " must be a number, not '" + s + "'",
                   "limits are numbers written out, as in -0.5 or 2.0e3");
}

}  // namespace dualrate::loading
