#include "registry/registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "model/tunable.hpp"
#include "reference/reference_model.hpp"
#include "schemes/compensated_states.hpp"
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
    for (const SchemeInfo& seed :
         {sp_ll_scheme(), prk25_scheme(), smfe_scheme(), quasistatic_scheme(), quasistatic_outer_scheme()})
      s.push_back(seed);
    for (const SchemeInfo& adams : adams_schemes()) s.push_back(adams);
    // Generated ones first, each group in the order above.
    std::stable_partition(s.begin(), s.end(), [](const SchemeInfo& i) { return i.traits.generated; });
    return s;
  }();
  return all;
}

std::vector<const SchemeInfo*> schemes() {
  std::vector<const SchemeInfo*> generated;
  for (const auto& s : all_schemes())
    if (s.traits.generated) generated.push_back(&s);
  return generated;
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes()) names.emplace_back(s->identity.name);
  return names;
}

std::vector<std::string> scheme_names_with(bool SchemeTraits::*trait) {
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes())
    if (s->traits.*trait) names.emplace_back(s->identity.name);
  return names;
}

void check_input_holds(const Model& model, const SchemeInfo& scheme) {
  if (scheme.traits.held_inputs) return;
  for (const Input& u : model.inputs)
    if (u.hold != InputHold::kZero)
      throw ModelError(u.loc,
                       fmt::format("input '{}' has hold: {}, which scheme {} does not take (it holds each input at its "
                                   "sample over the step)",
                                   u.name, to_string(u.hold), scheme.identity.name),
                       fmt::format("held inputs are for {}; or leave out the hold",
                                   fmt::join(scheme_names_with(&SchemeTraits::held_inputs), ", ")));
}

const SchemeInfo* find_any_scheme(const std::string& name) {
  for (const auto& s : all_schemes())
    if (name == s.identity.name) return &s;
  return nullptr;
}

const SchemeInfo* find_scheme(const std::string& name) {
  const SchemeInfo* s = find_any_scheme(name);
  return s && s->traits.generated ? s : nullptr;
}

namespace {

bool same_constants(const SchemeDesign& a, const SchemeDesign& b) {
  if (a.matrices.size() != b.matrices.size() || a.reals.size() != b.reals.size() ||
      a.integers.size() != b.integers.size())
    return false;
  for (std::size_t i = 0; i < a.matrices.size(); ++i)
    if (a.matrices[i].value != b.matrices[i].value || a.matrices[i].scheduled != b.matrices[i].scheduled) return false;
  for (std::size_t i = 0; i < a.reals.size(); ++i)
    if (a.reals[i].value != b.reals[i].value || a.reals[i].scheduled != b.reals[i].scheduled) return false;
  for (std::size_t i = 0; i < a.integers.size(); ++i)
    if (a.integers[i].value != b.integers[i].value) return false;
  return a.options == b.options;
}

// Loss of tunability is an error: a design whose constants generated code does not recompute
// (no RecomputeStep) must be the same at the ends of the calibration range as at the model's
// values; the first tunable parameter whose range changes it is named.
// A tunable table that an equation calls may change a design that depends on the Jacobian; the
// generator cannot redesign at other table values, so a design with constants that generated
// code does not recompute refuses it (conservatively: any equation's call).
void refuse_tunable_tables(const Model& model, const SchemeDesign& design, const SchemeInfo& info) {
  if (design.matrices.empty() && design.reals.empty() && design.integers.empty() && design.functions.empty()) return;
  const std::vector<GiNaC::ex> rhs = model.resolved_rhs();
  for (std::size_t i = 0; i < rhs.size(); ++i)
    if (const Table* t = called_tunable_table(rhs[i]))
      throw ModelError(t->range_loc,
                       fmt::format("{}'s precomputed constants may change with tunable table '{}' (called by the "
                                   "equation of '{}'): generated code cannot recompute them on the target",
                                   info.identity.name, t->name, model.states[i].name),
                       "make the table fixed, or use a scheme that takes calibration (euler, rk2, rk4, prk25)");
}

}  // namespace

void refuse_lost_tunability(const Model& model, const GenerateRequest& request, const SchemeDesign& design) {
  const SchemeInfo* found = find_scheme(request.scheme);
  if (!found || !found->hooks.precompute || design.calibration_checked || !has_tunable(model)) return;
  const SchemeInfo& info = *found;
  for (const auto& p : model.parameters) {
    if (!p.tunable) continue;
    for (double end : {p.min, p.max}) {
      bool same = false;
      try {
        SchemeDesign other = info.hooks.precompute(model_at(model, {{p.name, end}}), request);
        other.options.insert(request.scheme_options.begin(), request.scheme_options.end());
        same = same_constants(design, other);
      } catch (const std::exception&) {
      }
      if (!same)
        throw ModelError(p.range_loc,
                         fmt::format("{}'s precomputed constants change with tunable parameter '{}' (at {} = {:.17g}): "
                                     "generated code cannot recompute them on the target",
                                     info.identity.name, p.name, p.name, end),
                         "make the parameter fixed, or use a scheme that takes calibration (euler, rk2, rk4, prk25, "
                         "sp_ll)");
    }
  }
  refuse_tunable_tables(model, design, info);
}

SchemeDesign precompute_scheme(const Model& model, const GenerateRequest& request) {
  const SchemeInfo* info = find_scheme(request.scheme);
  if (info) check_input_holds(model, *info);
  SchemeDesign design = info && info->hooks.precompute ? info->hooks.precompute(model, request) : SchemeDesign{};
  design.options.insert(request.scheme_options.begin(), request.scheme_options.end());
  if (info) design.compensated = compensated_states(model, *info, request);
  return design;
}

StepCost step_cost(const Model& model, const GenerateRequest& request, const SchemeDesign& design) {
  const SchemeInfo* info = find_scheme(request.scheme);
  if (!info || !info->hooks.cost) throw std::invalid_argument("op count: unknown scheme '" + request.scheme + "'");
  StepCost c = info->hooks.cost(model, request, design);
  // A compensated state's update: 3 additions besides its own (dualrate::CompensatedSum).
  c.ops +=
      arithmetic(3 * static_cast<long>(std::count(design.compensated.begin(), design.compensated.end(), true)), 0, 0);
  return c;
}

namespace {

bool declares(const SchemeInfo& scheme, const std::string& option) {
  return std::any_of(scheme.traits.options.begin(), scheme.traits.options.end(),
                     [&](const SchemeOption& o) { return o.name == option; });
}

// What the scheme takes instead of `option`, and which schemes take it; the options named as in
// the model file, or as flags.
std::string option_hint(const SchemeInfo& scheme, const std::string& option, bool flags) {
  const auto spelled = [flags](const std::string& name) { return flags ? SchemeOption{name, ""}.flag() : name; };
  std::vector<std::string> own, others;
  for (const SchemeOption& o : scheme.traits.options) own.push_back(spelled(o.name));
  for (const SchemeInfo& other : all_schemes())
    if (declares(other, option)) others.emplace_back(other.identity.name);
  std::string hint = own.empty() ? fmt::format("{} takes no options", scheme.identity.name)
                                 : did_you_mean(spelled(option), own,
                                                fmt::format("{} takes {}", scheme.identity.name, fmt::join(own, ", ")));
  if (!others.empty()) hint += fmt::format("; {} is an option of {}", spelled(option), fmt::join(others, ", "));
  return hint;
}

void check_file_scheme_options(const Model& model) {
  const SchemeInfo* info = find_any_scheme(model.simulation.scheme);
  if (!info && model.simulation.scheme == kHighAccuracy && !model.simulation.scheme_options.empty())
    throw ModelError(model.simulation.scheme_options.front().loc, "the high-accuracy solution takes no scheme options",
                     "leave out simulation.scheme_options");
  if (!info) return;
  for (const GivenSchemeOption& o : model.simulation.scheme_options)
    if (!declares(*info, o.name))
      throw ModelError(o.loc, fmt::format("{} has no option '{}'", info->identity.name, o.name),
                       option_hint(*info, o.name, false));
}

}  // namespace

SchemeOptions scheme_options_for(const Model& model, const SchemeInfo& scheme, const SchemeOptions& given) {
  SchemeOptions options;
  for (const GivenSchemeOption& o : model.simulation.scheme_options)
    if (declares(scheme, o.name)) options[o.name] = o.value;
  for (const auto& [name, value] : given) {
    if (!declares(scheme, name))
      throw std::invalid_argument(fmt::format("{} has no option {}: {}", scheme.identity.name,
                                              SchemeOption{name, ""}.flag(), option_hint(scheme, name, true)));
    options[name] = value;
  }
  return options;
}

void check_model_scheme(const Model& model) {
  const std::string& s = model.simulation.scheme;
  if (const SchemeInfo* info = find_scheme(s);
      info && model.simulation.linearization == Linearization::kScheduled && !info->traits.schedulable) {
    const SourceLoc at =
        model.simulation.schedule ? model.simulation.schedule->loc : model.simulation.linearization_loc;
    const std::string names = fmt::format("{}", fmt::join(scheme_names_with(&SchemeTraits::schedulable), ", "));
    throw ModelError(at, fmt::format("a schedule is given, but {} precomputes no constants to schedule", s),
                     "scheduled constants are for " + names + "; leave out linearization: scheduled for " + s);
  }
  if (const SchemeInfo* info = find_any_scheme(s)) check_input_holds(model, *info);
  check_file_scheme_options(model);
  if (find_scheme(s) || s == kHighAccuracy) return;
  // Of equally close names, suggest the highest-order scheme (rk5 -> rk4).
  std::vector<const SchemeInfo*> by_order = schemes();
  std::stable_sort(by_order.begin(), by_order.end(),
                   [](const SchemeInfo* a, const SchemeInfo* b) { return a->traits.order > b->traits.order; });
  std::vector<std::string> names;
  names.reserve(by_order.size());
  for (const SchemeInfo* scheme : by_order) names.emplace_back(scheme->identity.name);
  throw ModelError(model.simulation.scheme_loc, "unknown scheme '" + s + "'",
                   did_you_mean(s, names, fmt::format("known schemes: {}", fmt::join(scheme_names(), " "))));
}

}  // namespace dualrate
