#include "schemes/registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "reference/reference_model.hpp"
#include "schemes/adams/adams.hpp"
#include "schemes/prk25/prk25.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "schemes/runge_kutta/runge_kutta.hpp"
#include "schemes/smfe/smfe.hpp"
#include "schemes/sp_ll/sp_ll.hpp"

namespace dualrate {

const std::vector<SchemeInfo>& all_schemes() {
  static const std::vector<SchemeInfo> all = [] {
    std::vector<SchemeInfo> s = runge_kutta_schemes();
    for (const SchemeInfo& seed : {sp_ll_scheme(), prk25_scheme(), smfe_scheme(), quasistatic_scheme(),
                                   quasistatic_outer_scheme()})
      s.push_back(seed);
    for (const SchemeInfo& adams : adams_schemes()) s.push_back(adams);
    // Generated ones first, each group in the order above.
    std::stable_partition(s.begin(), s.end(), [](const SchemeInfo& i) { return i.generated; });
    return s;
  }();
  return all;
}

std::vector<const SchemeInfo*> schemes() {
  std::vector<const SchemeInfo*> generated;
  for (const auto& s : all_schemes())
    if (s.generated) generated.push_back(&s);
  return generated;
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes()) names.emplace_back(s->name);
  return names;
}

std::vector<std::string> dual_rate_scheme_names() {
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes())
    if (s->dual_rate) names.emplace_back(s->name);
  return names;
}

std::vector<std::string> schedulable_scheme_names() {
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes())
    if (s->schedulable) names.emplace_back(s->name);
  return names;
}

const SchemeInfo* find_any_scheme(const std::string& name) {
  for (const auto& s : all_schemes())
    if (name == s.name) return &s;
  return nullptr;
}

const SchemeInfo* find_scheme(const std::string& name) {
  const SchemeInfo* s = find_any_scheme(name);
  return s && s->generated ? s : nullptr;
}

SchemeDesign precompute_scheme(const Model& model, bool frozen, const GenerateRequest& request) {
  const SchemeInfo* info = find_scheme(request.scheme);
  SchemeDesign design = info && info->precompute ? info->precompute(model, frozen, request) : SchemeDesign{};
  design.options.insert(request.scheme_options.begin(), request.scheme_options.end());
  return design;
}

StepCost step_cost(const Model& model, const GenerateRequest& request, const SchemeDesign& design) {
  const SchemeInfo* info = find_scheme(request.scheme);
  if (!info || !info->cost) throw std::invalid_argument("op count: unknown scheme '" + request.scheme + "'");
  return info->cost(model, request, design);
}

void check_model_scheme(const Model& model) {
  const std::string& s = model.simulation.scheme;
  if (const SchemeInfo* info = find_scheme(s); info && model.simulation.linearization == "scheduled" &&
                                               !info->schedulable) {
    const SourceLoc at = model.simulation.schedule ? model.simulation.schedule->loc : model.simulation.linearization_loc;
    const std::string names = fmt::format("{}", fmt::join(schedulable_scheme_names(), ", "));
    throw ModelError(at, fmt::format("a schedule is given, but {} precomputes no constants to schedule", s),
                     "scheduled constants are for " + names + "; leave out linearization: scheduled for " + s);
  }
  if (find_scheme(s) || s == kHighAccuracy) return;
  // Of equally close names, suggest the highest-order scheme (rk5 -> rk4).
  std::vector<const SchemeInfo*> by_order = schemes();
  std::stable_sort(by_order.begin(), by_order.end(),
                   [](const SchemeInfo* a, const SchemeInfo* b) { return a->order > b->order; });
  std::vector<std::string> names;
  names.reserve(by_order.size());
  for (const SchemeInfo* scheme : by_order) names.emplace_back(scheme->name);
  throw ModelError(model.simulation.scheme_loc, "unknown scheme '" + s + "'",
                   did_you_mean(s, names, fmt::format("known schemes: {}", fmt::join(scheme_names(), " "))));
}

}  // namespace dualrate
