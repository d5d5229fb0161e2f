// One point of a campaign, as its CTest test runs it: `dualrate verify` as a program of its own
// (the command a reader can run by hand), its step found first by `dualrate analyze` when the
// campaign gives it as a factor of the largest stable step; the outcome written as one JSON file.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "campaign/campaign.hpp"
#include "campaign/campaign_json.hpp"
#include "verify/result_json.hpp"

namespace dualrate {

namespace {

struct Outcome {
  PointStatus status = PointStatus::kFail;  // pass, fail or refused
  std::string reason;
  nlohmann::ordered_json verify = nullptr;  // the object verify printed, kept as it is in the point's result
  int exit_code = -1;
};

// The JSON object a command printed (its last line that is one), or null.
nlohmann::ordered_json printed_json(const std::string& out) {
  std::istringstream lines(out);
  nlohmann::ordered_json found = nullptr;
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line.front() == '{') {
      try {
        found = nlohmann::ordered_json::parse(line);
      } catch (const nlohmann::json::exception&) {
        found = nullptr;
      }
    }
  return found;
}

std::string tail(const std::string& text, std::size_t size = 2000) {
  const std::size_t end = text.find_last_not_of(" \n");
  const std::string t = end == std::string::npos ? std::string() : text.substr(0, end + 1);
  return t.size() <= size ? t : "..." + t.substr(t.size() - size);
}

// A program that ended without passing: the generator's refusal (exit status 1 with a
// positioned `FILE:LINE:COL: error:`, the form every model and scheme refusal takes), or a failure.
Outcome ended(const CapturedProcess& r, const std::string& what, double timeout) {
  Outcome o;
  o.exit_code = r.exit_code;
  if (r.timed_out) {
    o.reason = fmt::format("{} timed out after {:g} s (the campaign's timeout)", what, timeout);
    return o;
  }
  if (r.signal != 0) {
    o.reason = fmt::format("{} was killed by signal {}", what, r.signal);
    return o;
  }
  static const std::regex positioned(R"(^\S[^\n]*:\d+:\d+: error: [^\n]*(\n  hint: [^\n]*)?)", std::regex::multiline);
  std::smatch m;
  if (r.exit_code == 1 && std::regex_search(r.err, m, positioned)) {
    o.status = PointStatus::kRefused;
    o.reason = m.str(0);
    return o;
  }
  o.reason = fmt::format("{} exited with status {}: {}", what, r.exit_code, tail(r.err));
  return o;
}

// Why verify failed: its error, else the check that did not hold (the global error, one step's
// error, the one-step errors summed, or the accuracy against the high-accuracy solution), else
// what it printed on stderr.
std::string failure(const VerifyResult& v, const std::string& err) {
  if (!v.error.empty()) return v.error;
  if (v.max_error > v.tolerance)
    return fmt::format("max_error {:.3e} > tolerance {:.3e} ({}), at {} t = {:.6g}", v.max_error, v.tolerance,
                       to_string(v.tolerance_basis), v.worst_state, v.worst_time);
  if (v.local && v.local->ratio > 1)
    return fmt::format(
        "local check: one step's error {:.3e} > its tolerance {:.3e} ({}), {:.3g} times, at {} t = {:.6g}",
        v.local->max_error, v.local->tolerance, to_string(v.local->tolerance_basis), v.local->ratio,
        v.local->worst_state, v.local->worst_time);
  if (v.local && v.local->bias_ratio > 1)
    return fmt::format(
        "local check: one-step errors summed over the samples {:.3e} > their bound {:.3e}, {:.3g} times, "
        "at {}",
        std::fabs(v.local->bias_sum), v.local->bias_bound, v.local->bias_ratio, v.local->bias_state);
  if (v.pass && v.accuracy && !v.accuracy->pass())
    return fmt::format(
        "not accurate: {:.3e} off the high-accuracy solution at {} t = {:.6g}, above its tolerance "
        "{:.3e} ({})",
        v.accuracy->max_error, v.accuracy->worst_state, v.accuracy->worst_time, v.accuracy->worst_tolerance(),
        v.accuracy->tolerance_source);
  return tail(err);
}

// A step no longer than `factor` times the largest stable step, rounded down to 3 significant
// digits (so that the command line shows it as it is used).
std::string step_below(double factor, double largest) {
  const double h = factor * largest;
  const double unit = std::pow(10.0, std::floor(std::log10(h)) - 2);
  return fmt::format("{:.3g}", std::floor(h / unit * (1 + 1e-12)) * unit);
}

Outcome run(const Campaign& c, const CampaignPoint& p, const std::string& dualrate, std::string& step_seconds,
            std::vector<std::string>& command) {
  const auto start = std::chrono::steady_clock::now();
  const auto remaining = [&] {  // at least a moment: run_captured takes 0 for no limit
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::max(c.timeout_seconds - spent, 1e-3);
  };
  if (p.step != "default" && p.step.back() == 'x') {
    std::vector<std::string> analyze = {dualrate, "analyze", p.model_file, "--scheme", p.scheme};
    for (const auto& [name, value] : p.params) analyze.insert(analyze.end(), {"--param", name + "=" + value});
    analyze.emplace_back("--json");
    const CapturedProcess a = run_captured(analyze, remaining());
    if (a.exit_code != 0) return ended(a, "dualrate analyze", c.timeout_seconds);
    const nlohmann::ordered_json j = printed_json(a.out);
    if (!j.is_object() || !j.contains("max_stable_step"))
      return {PointStatus::kFail, "dualrate analyze printed no largest stable step: " + tail(a.out + a.err), nullptr,
              0};
    if (!j.value("max_stable_step_bounded", false) || !j.at("max_stable_step").is_number())
      return {PointStatus::kRefused,
              fmt::format("step {}: {} has no largest stable step on this model (stable at every step the analysis "
                          "tried)",
                          p.step, p.scheme),
              nullptr, 0};
    step_seconds = step_below(std::stod(p.step.substr(0, p.step.size() - 1)), j.at("max_stable_step").get<double>());
  }
  command = verify_arguments(c, p, step_seconds);
  std::vector<std::string> argv = command;
  argv.insert(argv.begin(), dualrate);
  const CapturedProcess v = run_captured(argv, remaining());
  if (v.exit_code != 0 && v.exit_code != 2) return ended(v, "dualrate verify", c.timeout_seconds);
  Outcome o;
  o.exit_code = v.exit_code;
  o.verify = printed_json(v.out);
  if (!o.verify.is_object()) {
    o.reason = "dualrate verify printed no result: " + tail(v.out + v.err);
    return o;
  }
  const VerifyResult result = o.verify.get<VerifyResult>();
  o.status = result.pass_all() && v.exit_code == 0 ? PointStatus::kPass : PointStatus::kFail;
  if (o.status == PointStatus::kFail) o.reason = failure(result, v.err);
  return o;
}

}  // namespace

int run_campaign_point(const std::string& dir, const std::string& id, const std::string& results_dir,
                       const std::string& dualrate, const std::string& version) {
  const Campaign c = read_campaign_project(dir);
  if (c.version != version)
    throw std::runtime_error(
        fmt::format("{} was written by dualrate {}; this is dualrate {}: write it again with "
                    "dualrate campaign {} -o {}",
                    dir, c.version, version, c.file, dir));
  const auto p = std::find_if(c.points.begin(), c.points.end(), [&](const CampaignPoint& q) { return q.id == id; });
  if (p == c.points.end()) throw std::runtime_error(fmt::format("campaign {} has no point '{}'", c.name, id));

  if (model_digest(p->model_file) != p->model_digest)
    throw std::runtime_error(
        fmt::format("{} changed since the campaign's project was written: write it again with "
                    "dualrate campaign {} -o {}",
                    p->model_file, c.file, dir));
  const auto start = std::chrono::steady_clock::now();
  std::string step_seconds;
  std::vector<std::string> command;
  const Outcome o = run(c, *p, dualrate, step_seconds, command);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::ordered_json result = {
      {"campaign", c.name},
      {"point", point_json(*p)},
      {"status", to_string(o.status)},
      {"reason", o.reason},
      {"step_seconds", step_seconds.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(step_seconds)},
      {"command", command},
      {"exit_code", o.exit_code},
      {"seconds", seconds},
      {"finished_unix", std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()},
      {"verify", o.verify}};
  // Written under a temporary name and renamed: a shard killed while writing leaves no result.
  std::filesystem::create_directories(results_dir);
  const std::filesystem::path path = std::filesystem::path(results_dir) / fmt::format("{:06}.json", p->index);
  const std::filesystem::path partial = path.string() + fmt::format(".partial-{}", getpid());
  write_file(partial, result.dump(1) + "\n");
  std::filesystem::rename(partial, path);

  std::string line = fmt::format("{} {}", upper(to_string(o.status)), id);
  if (!step_seconds.empty()) line += fmt::format(" (h = {} s)", step_seconds);
  if (o.verify.is_object()) {
    const VerifyResult result = o.verify.get<VerifyResult>();
    line += fmt::format(": max_error {:.3e}, tolerance {:.3e}", result.max_error, result.tolerance);
  }
  std::cout << line << "\n";
  if (!o.reason.empty()) std::cout << o.reason << "\n";
  std::cout << "result: " << path.string() << "\n";
  return o.status == PointStatus::kPass ? 0 : o.status == PointStatus::kRefused ? kPointRefused : 2;
}

}  // namespace dualrate
