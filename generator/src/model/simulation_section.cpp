// The loader's simulation section: end time, scheme, step, ratio, linearization and the
// input signals (loader.hpp).
#include "model/loader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <regex>

namespace dualrate::loading {

double Loader::positive(const KeyValue& kv, const std::string& what) {
  const GiNaC::ex e = expression(kv.first, kv.second, parameter_scope(what, model_.parameters.size()));
  const double v = evaluate(e, kv.second, what);
  if (!(v > 0)) throw ModelError(at(kv.second), what + " must be positive", "got " + kv.second.Scalar());
  return v;
}

void Loader::read_simulation(const KeyValue& section) {
  auto& sim = model_.simulation;
  sim.loc = at(section.first);
  if (section.second.IsNull()) return;
  const auto k = keys(section.second, kSimulationKeys, "simulation", section.first);
  if (k.count("t_end")) sim.t_end = positive(k.at("t_end"), "simulation.t_end");
  if (k.count("step")) sim.step = positive(k.at("step"), "simulation.step");
  if (k.count("ratio")) {
    const auto& node = k.at("ratio").second;
    const std::string s = scalar(k.at("ratio"), "simulation.ratio");
    static const std::regex integer("[0-9]+");
    if (!std::regex_match(s, integer) || s.size() > 6 || std::stoi(s) < 1)
      throw ModelError(at(node), "simulation.ratio must be a positive integer", "H = ratio * h; got " + s);
    sim.ratio = std::stoi(s);
  }
  if (k.count("scheme")) {
    const auto& node = k.at("scheme").second;
    const std::string s = scalar(k.at("scheme"), "simulation.scheme");
    sim.scheme = s;
    sim.scheme_loc = at(node);
  }
  if (k.count("linearization")) {
    const auto& node = k.at("linearization").second;
    const std::string s = scalar(k.at("linearization"), "simulation.linearization");
    if (s != "exact" && s != "frozen")
      throw ModelError(at(node), "simulation.linearization must be 'exact' or 'frozen', not '" + s + "'",
                       did_you_mean(s, {"exact", "frozen"},
                                    "exact: sp_ll requires constant f_z, g_x, g_z; frozen: takes them at the initial state"));
    sim.linearization = s;
  }
  if (k.count("inputs")) {
    std::vector<std::string> input_names;
    for (const auto& u : model_.inputs) input_names.push_back(u.name);
    std::set<std::string> seen;
    for (const auto& e : entries(k.at("inputs").second, "simulation.inputs")) {
      auto u = std::find(input_names.begin(), input_names.end(), e.name);
      if (u == input_names.end())
        throw ModelError(at(e.key), "'" + e.name + "' in simulation.inputs is not an input",
                         did_you_mean(e.name, input_names, "declare it under inputs: with a default value"));
      if (!seen.insert(e.name).second) throw ModelError(at(e.key), "duplicate input signal for '" + e.name + "'");
      ExpressionScope scope = parameter_scope("the signal of input '" + e.name + "'", model_.parameters.size());
      scope.time = &time_ex_;
      sim.inputs.push_back({static_cast<std::size_t>(u - input_names.begin()), expression(e.key, e.value, scope), at(e.value)});
    }
  }
}

}  // namespace dualrate::loading
