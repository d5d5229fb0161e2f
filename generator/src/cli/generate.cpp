// dualrate generate.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "emit/generation.hpp"
#include "model/cpp_names.hpp"
#include "model/loader.hpp"
#include "model/scalar_type.hpp"
#include "model/tunable.hpp"
#include "registry/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/verify.hpp"

namespace dualrate::cli {

namespace {

// --instances: only a model with tunable values has state of its own outside Data (its
// constants); each name distinct and none that the generated namespace declares.
void check_instances(const Model& model, const std::vector<std::string>& instances) {
  if (instances.empty()) return;
  if (!has_tunable(model))
    throw UsageError(
        fmt::format("--instances: model '{}' has no tunable values, so its instances share nothing but "
                    "code: declare as many {}::Data or Tasks objects as needed",
                    model.name, model.name));
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (cpp_reserved(instances[i]) || loading::cpp_keywords().count(instances[i]))
      throw UsageError(
          fmt::format("--instances: '{}' is a name the generated code declares or reserves; name the "
                      "instance otherwise",
                      instances[i]));
    for (std::size_t j = 0; j < i; ++j)
      if (instances[j] == instances[i]) throw UsageError(fmt::format("--instances: '{}' is named twice", instances[i]));
  }
}

// Writes of every tunable value at the model's values, then at each corner of the calibration
// range (each parameter at its min or max, each table's values all at its min or max, within
// the scalar's limits), one every `spacing` seconds: all 2^n corners for n <= 8 tunable
// parameters and tables, else the first 256 in binary order.
std::vector<CalibrationWrite> corner_writes(const Model& model, ScalarType scalar, double spacing) {
  std::vector<std::pair<const Parameter*, const Table*>> values;
  for (const Parameter& p : model.parameters)
    if (p.tunable) values.push_back({&p, nullptr});
  for (const auto& t : model.tables)
    if (t->tunable) values.push_back({nullptr, t.get()});
  const std::size_t corners = std::size_t{1} << std::min<std::size_t>(values.size(), 8);
  std::vector<CalibrationWrite> writes;
  // Write 0: the model's values; write c > 0: corner c - 1, value i at its max where bit i is set.
  for (std::size_t c = 0; c <= corners; ++c) {
    CalibrationWrite w;
    w.at = static_cast<double>(c + 1) * spacing;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto [p, t] = values[i];
      const ScalarLimits l = p ? scalar_limits(p->min, p->max, scalar) : scalar_limits(t->min, t->max, scalar);
      const double corner = c > 0 && i < 8 && ((c - 1) >> i & 1U) ? l.max : l.min;
      const auto value = [&](double model_value) { return c == 0 ? in_scalar_limits(model_value, l, scalar) : corner; };
      if (p) {
        w.set.push_back({p->name, {value(p->value)}, {}, false});
      } else {
        std::vector<double> table;
        for (const double v : t->values) table.push_back(value(v));
        w.set.push_back({t->name, table, {}, true});
      }
    }
    writes.push_back(std::move(w));
  }
  return writes;
}

// generate --cost: the recalibration's instructions and stack on each target, measured by the
// trace program verify builds (the writes of corner_writes, the sequential executive).
void report_recalibration_cost(const Model& model, const GenerateRequest& g, const std::vector<std::string>& targets) {
  if (targets.empty()) return;
  const double spacing = g.step * g.ratio;
  const std::vector<CalibrationWrite> writes = corner_writes(model, g.scalar, spacing);
  for (const std::string& target : targets) {
    VerifyOptions v;
    v.generate = g;
    v.generate.instances.clear();
    v.target = target;
    v.tasks = Tasks::kSingle;
    v.calibration = writes;
    v.t_end = static_cast<double>(writes.size() + 2) * spacing;
    const VerifyResult r = verify(model, v);
    for (const CalibrationRecord& record : r.calibrations)
      if (!record.applied)
        throw UsageError(
            fmt::format("--cost {}: the write at t = {} of the model's values or a corner of the "
                        "calibration range was refused ({}), so the recalibration's worst case is not "
                        "measured there",
                        target, record.at, record.reason));
    if (!r.calibration_cost)
      throw UsageError(fmt::format("--cost {}: the recalibration was not measured{}", target,
                                   r.error.empty() ? "" : ": " + r.error));
    std::cerr << fmt::format(
        "note: recalibration on {} ({}): {} instructions, {} bytes of stack: the most of one "
        "calibrate() over {} writes (the model's values and the corners of the calibration "
        "range), instructions counted by QEMU, stack painted\n",
        target, to_string(g.scalar), r.calibration_cost->instructions, r.calibration_cost->stack_bytes, writes.size());
  }
}

// --cost: Cortex-M targets, whose trace programs measure calibrate(); a model with tunable values.
void check_cost_targets(const Model& model, const std::vector<std::string>& targets) {
  for (const std::string& target : targets) {
    const CrossTarget* cross = find_cross_target(target);
    if (!cross || cross->linux_user)
      throw UsageError(fmt::format("--cost {}: the recalibration is measured on {}", target, target_names(true, ", ")));
  }
  if (!targets.empty() && !has_tunable(model))
    throw UsageError(fmt::format("--cost: model '{}' has no tunable values, so nothing is recalibrated", model.name));
}

}  // namespace

int GenerateCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kGenerate);
  require_dual_rate(cmd_, "--overrun", s.scheme);
  check_instances(model, instances_);
  check_cost_targets(model, cost_targets_);
  GenerationRequest request{generate_request(s, o_)};
  GenerateRequest& g = request.request;
  g.name_space = name_space_;
  g.jacobian = emit_jacobian_;
  g.instances = instances_;
  g.allow_unstable = allow_unstable_;
  request.note = [](const std::string& note) { std::cerr << note; };
  const Generation generation = generate_code(model, request);
  const TracedHeader& header = generation.header;
  std::filesystem::create_directories(out_dir_);
  const auto path = std::filesystem::path(out_dir_) / (generated_namespace(model, g) + ".hpp");
  std::ofstream out(path, std::ios::binary);
  out << header.text;
  if (!out) throw UsageError("cannot write " + path.string());
  std::cout << path.string() << "\n";
  if (!trace_file_.empty()) {
    std::ofstream trace(trace_file_, std::ios::binary);
    trace << source_map_json(header.source_map) << "\n";
    if (!trace) throw UsageError("cannot write " + trace_file_);
  }
  report_recalibration_cost(model, g, cost_targets_);
  return 0;
}

}  // namespace dualrate::cli
