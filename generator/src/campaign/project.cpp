// The campaign's CMake project: CMakeLists.txt with a CTest test per point, and campaign.json,
// the campaign as the tests run it.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "campaign/campaign.hpp"
#include "base/text_io.hpp"
#include "campaign/campaign_json.hpp"

namespace dualrate {

namespace {

// A CMake quoted argument (a list stays a list: labels are one).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\' || c == '$') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The emulation a point runs under, in rough seconds for CTest's COST (the order in which
// `ctest -j` starts the tests until it has measured them itself).
double cost(const Campaign& c, const CampaignPoint& p) {
  double seconds = p.target == "host" ? 1 : p.target == "cortex-a53-linux" ? 4 : 3;
  if (p.dual_rate && c.tasks == Tasks::kMulti) seconds *= 2;
  if (p.step != "default" && p.step.back() == 'x') seconds += 0.5;  // the analysis that finds the step
  return seconds;
}

// A dual-rate run of real-time threads (the host's, or cortex-a53-linux's under qemu-aarch64)
// measures deadlines: it needs the two cores its threads run on, and no other such run beside it.
bool realtime_threads(const Campaign& c, const CampaignPoint& p) {
  return p.dual_rate && c.tasks == Tasks::kMulti && (p.target == "host" || p.target == "cortex-a53-linux");
}

std::string cmake_lists(const Campaign& c, const std::string& dualrate) {
  std::string s = fmt::format(
      "# The verification campaign {}: {} points, one CTest test each.\n"
      "# Written by dualrate {} from {}; regenerate it instead of editing it:\n"
      "#   dualrate campaign {} -o DIR\n"
      "# One machine:          cmake -S DIR -B DIR/build && ctest --test-dir DIR/build -j N\n"
      "# Shard k of K:         cmake -S DIR -B BUILD_k && ctest --test-dir BUILD_k -I k,,K\n"
      "#                       (or by label: -L '^target=cortex-m4f$')\n"
      "# Every shard merged:   dualrate campaign report DIR BUILD_1 ... BUILD_K\n"
      "cmake_minimum_required(VERSION 3.16)\n"
      "project(dualrate_campaign_{} NONE)\n"
      "enable_testing()\n"
      "set(DUALRATE {} CACHE FILEPATH \"The dualrate that runs the points\")\n"
      "set(CAMPAIGN_RESULTS \"${{CMAKE_BINARY_DIR}}/results\" CACHE PATH \"Where each point writes its result\")\n",
      c.name, c.points.size(), c.version, c.file, c.file, c.name, quoted(dualrate));
  for (const CampaignPoint& p : c.points) {
    s += fmt::format(
        "add_test(NAME {0} COMMAND \"${{DUALRATE}}\" campaign point \"${{CMAKE_CURRENT_SOURCE_DIR}}\" {0} --results "
        "\"${{CAMPAIGN_RESULTS}}\")\n",
        quoted(p.id));
    s += fmt::format("set_tests_properties({} PROPERTIES LABELS {} COST {} TIMEOUT {} SKIP_RETURN_CODE {}{})\n",
                     quoted(p.id),
                     quoted(fmt::format("campaign={};model={};scheme={};target={};scalar={}", c.name, p.model, p.scheme,
                                        p.target, p.scalar)),
                     cost(c, p), c.timeout_seconds + 60, kPointRefused,
                     realtime_threads(c, p) ? " PROCESSORS 2 RESOURCE_LOCK dualrate_realtime_threads" : "");
  }
  return s;
}

}  // namespace

nlohmann::ordered_json point_json(const CampaignPoint& p) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : p.params) params[name] = value;
  return {{"index", p.index},
          {"id", p.id},
          {"model", p.model},
          {"model_file", p.model_file},
          {"model_digest", p.model_digest},
          {"scheme", p.scheme},
          {"step", p.step},
          {"target", p.target},
          {"scalar", p.scalar},
          {"params", params},
          {"dual_rate", p.dual_rate}};
}

void write_campaign_project(const Campaign& c, const std::string& dir, const std::string& dualrate) {
  std::filesystem::create_directories(dir);
  nlohmann::ordered_json manifest = {{"campaign", c.name},
                                     {"dualrate", c.version},
                                     {"file", c.file},
                                     {"t_end", c.t_end ? nlohmann::ordered_json(*c.t_end) : nullptr},
                                     {"tolerance", c.tolerance ? nlohmann::ordered_json(*c.tolerance) : nullptr},
                                     {"tasks", to_string(c.tasks)},
                                     {"timeout", c.timeout_seconds},
                                     {"points", nlohmann::ordered_json::array()}};
  for (const CampaignPoint& p : c.points) manifest["points"].push_back(point_json(p));
  write_file(std::filesystem::path(dir) / "campaign.json", manifest.dump(1) + "\n");
  write_file(std::filesystem::path(dir) / "CMakeLists.txt", cmake_lists(c, dualrate));
}

Campaign read_campaign_project(const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / "campaign.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{} is not a campaign project: it has no campaign.json", dir));
  try {
    const nlohmann::ordered_json m = nlohmann::ordered_json::parse(in);
    Campaign c;
    c.name = m.at("campaign").get<std::string>();
    c.version = m.at("dualrate").get<std::string>();
    c.file = m.at("file").get<std::string>();
    if (!m.at("t_end").is_null()) c.t_end = m.at("t_end").get<double>();
    if (!m.at("tolerance").is_null()) c.tolerance = m.at("tolerance").get<double>();
    const std::string tasks = m.at("tasks").get<std::string>();
    const std::optional<Tasks> kind = named(kDualRateTaskKinds, tasks);
    if (!kind) throw std::runtime_error(fmt::format("{}: tasks '{}' is not single or multi", path.string(), tasks));
    c.tasks = *kind;
    c.timeout_seconds = m.at("timeout").get<double>();
    for (const auto& j : m.at("points")) {
      CampaignPoint p;
      p.index = j.at("index").get<std::size_t>();
      p.id = j.at("id").get<std::string>();
      p.model = j.at("model").get<std::string>();
      p.model_file = j.at("model_file").get<std::string>();
      p.model_digest = j.at("model_digest").get<std::string>();
      p.scheme = j.at("scheme").get<std::string>();
      p.step = j.at("step").get<std::string>();
      p.target = j.at("target").get<std::string>();
      p.scalar = j.at("scalar").get<std::string>();
      p.dual_rate = j.at("dual_rate").get<bool>();
      for (const auto& [name, value] : j.at("params").items()) p.params.emplace_back(name, value.get<std::string>());
      c.points.push_back(std::move(p));
    }
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(
        fmt::format("{}: not a campaign written by dualrate campaign: {}", path.string(), e.what()));
  }
}

std::vector<std::string> verify_arguments(const Campaign& c, const CampaignPoint& p, const std::string& step_seconds) {
  std::vector<std::string> args = {"verify",   p.model_file, "--scheme", p.scheme,
                                   "--target", p.target,     "--scalar", p.scalar};
  if (p.step != "default") args.insert(args.end(), {"--step", step_seconds.empty() ? p.step : step_seconds});
  if (c.t_end) args.insert(args.end(), {"--t-end", fmt::format("{:.17g}", *c.t_end)});
  if (c.tolerance) args.insert(args.end(), {"--tolerance", fmt::format("{:.17g}", *c.tolerance)});
  if (p.dual_rate) args.insert(args.end(), {"--tasks", to_string(c.tasks)});
  for (const auto& [name, value] : p.params) args.insert(args.end(), {"--param", name + "=" + value});
  args.emplace_back("--json");
  return args;
}

}  // namespace dualrate
