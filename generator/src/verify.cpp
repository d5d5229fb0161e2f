#include "verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "process.hpp"
#include "reference_core.hpp"
#include "schemes.hpp"
#include "sp_ll.hpp"

namespace dualrate {

namespace fs = std::filesystem;

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
  }
  return out + "\"";
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::string VerifyResult::json() const {
  std::string s = "{";
  s += "\"model\":" + json_string(model);
  s += ",\"scheme\":" + json_string(scheme);
  s += ",\"target\":" + json_string(target);
  s += ",\"scalar\":" + json_string(scalar);
  s += fmt::format(",\"steps\":{}", steps);
  s += fmt::format(",\"max_error\":{:.6e}", max_error);
  s += fmt::format(",\"tolerance\":{:.6e}", tolerance);
  s += std::string(",\"pass\":") + (pass ? "true" : "false");
  s += ",\"worst_state\":" + json_string(worst_state);
  s += fmt::format(",\"worst_time\":{:.17g}", worst_time);
  if (!error.empty()) s += ",\"error\":" + json_string(error);
  if (!directory.empty()) s += ",\"directory\":" + json_string(directory);
  if (relinearized_error >= 0)
    s += fmt::format(",\"linearization\":\"frozen\",\"relinearized_max_error\":{:.6e}", relinearized_error);
  return s + "}";
}

Comparison compare_traces(const Trace& a, const Trace& b, std::size_t states) {
  if (a.rows.size() != b.rows.size() || a.columns != b.columns || a.columns.size() < states + 1)
    throw std::runtime_error(fmt::format("traces differ in shape: {} rows x {} columns vs {} rows x {} columns",
                                         a.rows.size(), a.columns.size(), b.rows.size(), b.columns.size()));
  std::vector<double> scale(states, 1.0);
  for (const auto& row : b.rows)
    for (std::size_t j = 0; j < states; ++j) scale[j] = std::max(scale[j], std::fabs(row[1 + j]));
  Comparison c;
  for (std::size_t i = 0; i < b.rows.size(); ++i)
    for (std::size_t j = 0; j < states; ++j) {
      const double e = std::fabs(a.rows[i][1 + j] - b.rows[i][1 + j]) / scale[j];
      if (!(e <= c.max_error)) {
        c.max_error = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
        c.worst_column = 1 + j;
        c.worst_time = b.rows[i][0];
      }
    }
  return c;
}

// Tolerances.
// double: generated code and reference core run the same scheme in double and differ only
//   in rounding (operation order inside expressions: compiled emission vs tree
//   interpretation; for sp_ll also precomputed phi-functions vs per-step exponentials).
//   The acceptance bound is the scheme's (1e-12, 1e-10 for sp_ll; issues #2, #3). Per step each side commits
//   relative errors of a few units of u = 2^-53 per operation; in a stable run these add
//   up like a random walk, about sqrt(N)*c*u = 1e-14 for N = 1e4 steps and c = 100.
// float: the generated side rounds every operation to u_f = 2^-24 while the reference
//   stays in double. Per step, each of the (stages + 2) roundings of a stage input, the
//   update and the stored state perturbs the state by up to u_f relative to its scale, and
//   a perturbed stage input moves the step's result by up to h ||J|| times as much (J the
//   Jacobian of the right-hand side; its value at the initial state stands for the run).
//   A first-order bound for a stable, non-expansive step map adds these over the N steps:
//   (N + 1) * (stages + 2) * u_f * (1 + h ||J||_inf). It is a worst case (errors of
//   opposite sign do not cancel in it) and does not cover growth by unstable modes; such a
//   run fails and says so.
double verify_tolerance(ScalarType scalar, long steps, int stages, double h_norm_j, double double_tolerance) {
  if (scalar == ScalarType::kDouble) return double_tolerance;
  const double u = std::ldexp(1.0, -24);
  return static_cast<double>(steps + 1) * (stages + 2) * u * (1 + h_norm_j);
}

VerifyResult verify(const Model& model, const VerifyOptions& o) {
  VerifyResult r;
  r.model = model.name;
  r.scheme = o.generate.scheme;
  r.target = o.target;
  r.scalar = to_string(o.generate.scalar);
  r.steps = step_count(o.t_end, o.generate.step);
  const SchemeInfo* info = find_scheme(r.scheme);
  if (!info) {
    r.error = "unknown scheme '" + r.scheme + "'";
    return r;
  }
  const ReferenceCore core(model);
  const Eigen::MatrixXd j = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  r.tolerance = verify_tolerance(o.generate.scalar, r.steps, info->evaluations,
                                 o.generate.step * j.cwiseAbs().rowwise().sum().maxCoeff(), info->double_tolerance);
  if (o.target != "host") {
    r.error = "unknown target '" + o.target + "' (available: host)";
    return r;
  }
  const bool keep = !o.keep_dir.empty();
  const fs::path dir = keep ? fs::path(o.keep_dir) : fs::path(make_temp_dir("dualrate-verify"));
  fs::create_directories(dir);
  if (keep) r.directory = fs::absolute(dir).string();

  const std::string header = model.name + ".hpp";
  const bool frozen = o.frozen && r.scheme == "sp_ll";
  GenerateOptions generate = o.generate;
  precompute_scheme(model, frozen, generate);
  write_file(dir / header, generate_header(model, generate));
  fs::copy_file(fs::path(DUALRATE_TARGETS_DIR) / "host" / "trace_main.cpp", dir / "trace_main.cpp",
                fs::copy_options::overwrite_existing);
  const std::string cxx = std::getenv("CXX") ? std::getenv("CXX") : "c++";
  const std::vector<std::string> compile = {
      cxx, "-std=c++17", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wdouble-promotion", "-Werror",
      "-fno-exceptions", "-fno-rtti", "-ffp-contract=off", "-DEIGEN_DONT_VECTORIZE", "-DEIGEN_RUNTIME_NO_MALLOC",
      "-DDUALRATE_MODEL_HEADER=\"" + header + "\"", "-DDUALRATE_MODEL_NS=" + model.name,
      "-I" + dir.string(), "-I" DUALRATE_RUNTIME_INCLUDE_DIR, "-isystem", DUALRATE_EIGEN_INCLUDE_DIR,
      (dir / "trace_main.cpp").string(), "-o", (dir / "trace").string()};
  std::string command;
  for (const auto& a : compile) command += (command.empty() ? "" : " ") + a;
  write_file(dir / "build.sh", "#!/bin/sh\n# How the trace program was built; rerun: ./trace " +
                                   std::to_string(r.steps) + " " + std::to_string(o.every) + " generated.csv\n" +
                                   command + "\n");
  const ProcessResult built = run_process(compile);
  if (built.exit_code != 0) {
    r.error = "the generated code did not compile:\n" + built.output;
  } else {
    const ProcessResult ran = run_process({(dir / "trace").string(), std::to_string(r.steps),
                                           std::to_string(o.every), (dir / "generated.csv").string()});
    if (ran.exit_code != 0) r.error = "the generated code failed: " + ran.output;
  }
  Trace reference;
  try {
    RunOptions run{o.generate.scheme, o.generate.step, o.t_end, o.every};
    run.frozen_linearization = frozen;
    reference = core.simulate(run);
    write_csv(reference, (dir / "reference.csv").string());
    if (frozen && r.error.empty()) {
      run.frozen_linearization = false;
      const Trace relinearized = core.simulate(run);
      write_csv(relinearized, (dir / "reference_relinearized.csv").string());
      r.relinearized_error =
          compare_traces(read_csv((dir / "generated.csv").string()), relinearized, model.states.size()).max_error;
    }
  } catch (const SimulationError& e) {
    r.error += (r.error.empty() ? "" : "\n") + std::string("reference core: ") + e.what();
  }
  if (r.error.empty()) {
    try {
      const Comparison c = compare_traces(read_csv((dir / "generated.csv").string()), reference, model.states.size());
      r.max_error = c.max_error;
      if (c.worst_column > 0) r.worst_state = model.states[c.worst_column - 1].name;
      r.worst_time = c.worst_time;
      r.pass = r.max_error <= r.tolerance;
    } catch (const std::runtime_error& e) {
      r.error = e.what();
    }
  }
  if (!keep) fs::remove_all(dir);
  return r;
}

}  // namespace dualrate
