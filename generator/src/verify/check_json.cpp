// The checks' parts of verify's JSON (result_json.hpp): the local and exact step checks, the
// outputs', the tick check, the accuracy and the relinearized comparison.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "verify/json_fields.hpp"
#include "verify/result_json.hpp"

namespace dualrate {

void to_json(Json& j, const LocalCheckResult& l) {
  j = Json::object();
  j["local_max_error"] = significant7(l.max_error);
  j["local_tolerance"] = significant7(l.tolerance);
  j["local_ratio"] = significant7(l.ratio);
  j["local_tolerance_basis"] = to_string(l.tolerance_basis);
  j["local_worst_state"] = l.worst_state;
  j["local_worst_time"] = l.worst_time;
  j["local_bias_ratio"] = significant7(l.bias_ratio);
  j["local_bias_sum"] = significant7(l.bias_sum);
  j["local_bias_bound"] = significant7(l.bias_bound);
  j["local_bias_state"] = l.bias_state;
}

void from_json(const Json& j, LocalCheckResult& l) {
  read(j, "local_max_error", l.max_error);
  read(j, "local_tolerance", l.tolerance);
  read(j, "local_ratio", l.ratio);
  read_named(j, "local_tolerance_basis", kToleranceBases, l.tolerance_basis);
  read(j, "local_worst_state", l.worst_state);
  read(j, "local_worst_time", l.worst_time);
  read(j, "local_bias_ratio", l.bias_ratio);
  read(j, "local_bias_sum", l.bias_sum);
  read(j, "local_bias_bound", l.bias_bound);
  read(j, "local_bias_state", l.bias_state);
}

void to_json(Json& j, const ExactStepCheck& e) {
  j = {{"exact_step_samples", e.samples}, {"exact_step_differing", e.differing}};
  if (e.differing == 0) return;
  j["exact_step_state"] = e.state;
  j["exact_step_time"] = e.time;
  j["exact_step_generated"] = e.generated;
  j["exact_step_expected"] = e.expected;
}

void from_json(const Json& j, ExactStepCheck& e) {
  read(j, "exact_step_samples", e.samples);
  read(j, "exact_step_differing", e.differing);
  read(j, "exact_step_state", e.state);
  read(j, "exact_step_time", e.time);
  read(j, "exact_step_generated", e.generated);
  read(j, "exact_step_expected", e.expected);
}

void to_json(Json& j, const OutputCheck& o) {
  j = Json::object();
  j["output_ratio"] = significant7(o.ratio);
  j["output_max_error"] = significant7(o.max_error);
  j["output_tolerance"] = significant7(o.tolerance);
  j["worst_output"] = o.worst_output;
  j["worst_output_time"] = o.worst_time;
  j["output_samples"] = o.samples;
  if (!o.exact_skipped.empty()) {
    j["output_exact_skipped"] = o.exact_skipped;
    j["output_local_ratio"] = significant7(o.local_ratio);
    j["output_local_error"] = significant7(o.local_error);
    j["output_local_tolerance"] = significant7(o.local_tolerance);
    return;
  }
  j["output_differing"] = o.differing;
  if (o.differing == 0) return;
  j["output_differing_time"] = o.differing_time;
  j["output_differing_output"] = o.differing_output;
  j["output_generated"] = o.generated;
  j["output_expected"] = o.expected;
}

void from_json(const Json& j, OutputCheck& o) {
  read(j, "output_ratio", o.ratio);
  read(j, "output_max_error", o.max_error);
  read(j, "output_tolerance", o.tolerance);
  read(j, "worst_output", o.worst_output);
  read(j, "worst_output_time", o.worst_time);
  read(j, "output_samples", o.samples);
  read(j, "output_exact_skipped", o.exact_skipped);
  read(j, "output_local_ratio", o.local_ratio);
  read(j, "output_local_error", o.local_error);
  read(j, "output_local_tolerance", o.local_tolerance);
  read(j, "output_differing", o.differing);
  read(j, "output_differing_time", o.differing_time);
  read(j, "output_differing_output", o.differing_output);
  read(j, "output_generated", o.generated);
  read(j, "output_expected", o.expected);
}

void to_json(Json& j, const TickCheck& t) {
  j = {{"tick_samples", t.samples}, {"tick_every", t.every}, {"tick_differing", t.differing}};
  if (t.differing > 0) j["tick_first_differing_time"] = t.first_differing_time;
}

void from_json(const Json& j, TickCheck& t) {
  read(j, "tick_samples", t.samples);
  read(j, "tick_every", t.every);
  read(j, "tick_differing", t.differing);
  read(j, "tick_first_differing_time", t.first_differing_time);
}

void to_json(Json& j, const AccuracyCheck& a) {
  if (!a.error.empty()) {
    j = {{"error", a.error}};
    return;
  }
  j = {{"max_error", significant7(a.max_error)},
       {"worst_state", a.worst_state},
       {"worst_time", a.worst_time},
       {"relative_to", significant7(a.worst_scale)},
       {"worst_tolerance", a.judged() ? Json(significant7(a.worst_tolerance())) : Json(nullptr)},
       {"worst_absolute", a.worst_absolute()},
       {"tolerance", a.tolerance.relative ? Json(significant7(*a.tolerance.relative)) : Json(nullptr)},
       {"tolerance_source", a.tolerance_source},
       {"accurate", a.judged() ? Json(a.pass()) : Json(nullptr)}};
  Json absolute = Json::object(), states = Json::object(), outputs = Json::object();
  for (const auto& [name, value] : a.tolerance.absolute) absolute[name] = significant7(value);
  j["absolute_tolerance"] = absolute;
  for (const auto& c : a.columns) (c.output ? outputs : states)[c.name] = significant7(c.error);
  j["states"] = states;
  j["outputs"] = outputs;
  if (a.relinearized_error) j["relinearized_error"] = significant7(*a.relinearized_error);
  if (a.hold_error) j["hold_error"] = significant7(*a.hold_error);
  if (a.integration_error) j["integration_error"] = significant7(*a.integration_error);
}

void from_json(const Json& j, AccuracyCheck& a) {
  read(j, "error", a.error);
  read(j, "max_error", a.max_error);
  read(j, "worst_state", a.worst_state);
  read(j, "worst_time", a.worst_time);
  read(j, "relative_to", a.worst_scale);
  if (j.contains("tolerance") && !j.at("tolerance").is_null()) a.tolerance.relative = j.at("tolerance").get<double>();
  read(j, "tolerance_source", a.tolerance_source);
  if (j.contains("absolute_tolerance"))
    for (const auto& item : j.at("absolute_tolerance").items())
      a.tolerance.absolute.emplace_back(item.key(), item.value().get<double>());
  for (const char* key : {"states", "outputs"})
    if (j.contains(key))
      for (const auto& item : j.at(key).items())
        a.columns.push_back({item.key(), item.value().get<double>(), has_absolute(a.tolerance, item.key()),
                             std::string(key) == "outputs"});
  read(j, "relinearized_error", a.relinearized_error);
  read(j, "hold_error", a.hold_error);
  read(j, "integration_error", a.integration_error);
}

void to_json(Json& j, const RelinearizedComparison& c) {
  j = {{"linearization", to_string(c.linearization)},
       {c.linearization == Linearization::kScheduled ? "schedule_error" : "relinearized_max_error",
        significant7(c.max_error)}};
}

void from_json(const Json& j, RelinearizedComparison& c) {
  read_named(j, "linearization", kLinearizations, c.linearization);
  read(j, "schedule_error", c.max_error);
  read(j, "relinearized_max_error", c.max_error);
}

}  // namespace dualrate
