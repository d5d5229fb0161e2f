// The campaign file: read with its positions, checked against the models, schemes and targets
// it names, and expanded into its points.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "base/diagnostics.hpp"
#include "base/text_io.hpp"
#include "campaign/campaign.hpp"
#include "model/model.hpp"
#include "registry/registry.hpp"
#include "targets/cross_target.hpp"

namespace dualrate {

namespace {

const std::vector<std::string> kKeys = {"campaign", "models", "schemes", "steps",     "targets", "scalar",
                                        "params",   "t_end",  "tasks",   "tolerance", "timeout"};

std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : separator) + i;
  return s;
}

// A number as the campaign file writes it: the whole scalar, finite.
std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string thousands(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A count of points: exact with thousands separators, or in powers of ten past 10^15.
std::string count_text(double n) {
  return n < 1e15 ? thousands(static_cast<std::size_t>(n)) : fmt::format("{:.3g}", n);
}

// A model's parameter points, and how many there are (a grid over the limit is not built).
struct ParameterGrid {
  double count = 1;
  std::vector<std::vector<ParameterSetting>> points;
};

// What each parameter point of each model runs with, as the campaign file lists them.
struct Dimensions {
  std::vector<std::string> schemes;
  std::vector<std::string> steps{"default"};
  std::vector<std::string> targets{"host"};
  std::vector<std::string> scalars;  // empty: each target's own
};

class CampaignReader {
 public:
  CampaignReader(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {}

  Campaign read();

 private:
  SourceLoc at(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    return m.line < 0 ? SourceLoc{file_, 1, 1} : SourceLoc{file_, m.line + 1, m.column + 1};
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& what, const std::string& hint = {}) const {
    throw ModelError(at(n), what, hint);
  }
  std::string text(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar() || n.Scalar().empty()) fail(n, what + " must be a single value");
    return n.Scalar();
  }
  double positive(const YAML::Node& n, const std::string& what) const {
    const std::optional<double> v = number(text(n, what));
    if (!v || *v <= 0) fail(n, fmt::format("{} must be a positive number, not '{}'", what, n.Scalar()));
    return *v;
  }
  // A list of distinct values (one value alone is a list of one).
  std::vector<YAML::Node> list(const YAML::Node& n, const std::string& key) const;

  std::map<std::string, std::pair<YAML::Node, YAML::Node>> top(const YAML::Node& root) const;
  void read_models(const YAML::Node& node);
  void read_params(const YAML::Node& node);
  ParameterGrid grid(const Model& model, const YAML::Node& node) const;
  void check_parameter(const Model& model, const YAML::Node& name, const YAML::Node& value) const;

  YAML::Node parse() const;
  std::string read_name(const YAML::Node& node) const;
  std::vector<std::string> read_schemes(const YAML::Node& node) const;
  std::vector<std::string> read_steps(const YAML::Node& node) const;
  std::vector<std::string> read_targets(const YAML::Node& node) const;
  std::vector<std::string> read_scalars(const YAML::Node& node) const;
  Tasks read_tasks(const YAML::Node& node) const;
  // Refuses a campaign over kMaxCampaignPoints points, at `where`, before any is expanded.
  void check_size(const Dimensions& dims, const YAML::Node& where) const;
  // Every combination, numbered from 1: per model, scheme, step, target, scalar and parameter point.
  std::vector<CampaignPoint> expand(const Dimensions& dims) const;

  std::string text_, file_;
  std::vector<Model> models_;
  std::vector<std::string> model_files_;
  std::map<std::string, ParameterGrid> points_;  // by model name
};

std::vector<YAML::Node> CampaignReader::list(const YAML::Node& n, const std::string& key) const {
  std::vector<YAML::Node> items;
  if (n.IsScalar())
    items.push_back(n);
  else if (n.IsSequence())
    for (const auto& item : n) items.push_back(item);
  else
    fail(n, fmt::format("'{}' must be a list", key), fmt::format("for example {}: [a, b]", key));
  if (items.empty()) fail(n, fmt::format("'{}' is empty", key), "a campaign needs at least one of each");
  std::set<std::string> seen;
  for (const auto& item : items) {
    const std::string value = text(item, fmt::format("an entry of '{}'", key));
    if (!seen.insert(value).second) fail(item, fmt::format("'{}' is listed twice in '{}'", value, key));
  }
  return items;
}

std::map<std::string, std::pair<YAML::Node, YAML::Node>> CampaignReader::top(const YAML::Node& root) const {
  if (!root.IsMap()) fail(root, "a campaign file is a mapping", "start with 'campaign: NAME'");
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> keys;
  for (const auto& kv : root) {
    const std::string key = text(kv.first, "a key");
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      fail(kv.first, fmt::format("unknown key '{}'", key),
           did_you_mean(key, kKeys, "expected one of: " + joined(kKeys)));
    if (!keys.emplace(key, std::make_pair(kv.first, kv.second)).second)
      fail(kv.first, fmt::format("'{}' is given twice", key));
  }
  for (const char* required : {"campaign", "models", "schemes"})
    if (!keys.count(required))
      fail(root, fmt::format("the campaign file has no '{}'", required), "campaign, models and schemes are required");
  return keys;
}

void CampaignReader::read_models(const YAML::Node& node) {
  const std::filesystem::path base = std::filesystem::path(file_).parent_path();
  for (const YAML::Node& item : list(node, "models")) {
    const std::filesystem::path path = std::filesystem::weakly_canonical(base / item.Scalar());
    if (!std::filesystem::is_regular_file(path))
      fail(item, fmt::format("no model file '{}'", item.Scalar()),
           fmt::format("a model's path is relative to the campaign file's folder ({})", base.string()));
    models_.push_back(load_model_file(path.string()));
    check_model_scheme(models_.back());
    model_files_.push_back(path.string());
    for (std::size_t i = 0; i + 1 < models_.size(); ++i)
      if (models_[i].name == models_.back().name)
        fail(item,
             fmt::format("two models are named '{}' ({} and {})", models_.back().name, model_files_[i], path.string()),
             "points and params are keyed by the model's name");
  }
}

void CampaignReader::check_parameter(const Model& model, const YAML::Node& name, const YAML::Node& value) const {
  const std::string n = text(name, "a parameter's name");
  std::vector<std::string> names;
  for (const auto& p : model.parameters) names.push_back(p.name);
  if (std::find(names.begin(), names.end(), n) == names.end())
    fail(name, fmt::format("model '{}' has no parameter '{}'", model.name, n),
         did_you_mean(n, names, "its parameters: " + joined(names)));
  if (!number(text(value, "a parameter's value")))
    fail(value, fmt::format("the value '{}' of parameter '{}' is not a number", value.Scalar(), n));
}

// A grid (`{name: [values], ...}`, every combination in the order written) or a list of
// points (`[{name: value, ...}, ...]`).
ParameterGrid CampaignReader::grid(const Model& model, const YAML::Node& node) const {
  std::vector<std::vector<ParameterSetting>> points;
  if (node.IsSequence()) {
    if (node.size() == 0) fail(node, fmt::format("an empty list of points for model '{}'", model.name));
    for (const auto& point : node) {
      if (!point.IsMap() || point.size() == 0)
        fail(point, "a point is a mapping of parameters to values", "for example {ms: 250, kt: 180000}");
      std::vector<ParameterSetting> settings;
      for (const auto& kv : point) {
        check_parameter(model, kv.first, kv.second);
        settings.emplace_back(kv.first.Scalar(), kv.second.Scalar());
      }
      points.push_back(settings);
    }
    return {static_cast<double>(points.size()), points};
  }
  if (!node.IsMap() || node.size() == 0)
    fail(node, fmt::format("the parameters of model '{}' are a grid or a list of points", model.name),
         "a grid: {ms: [250, 300], kt: [180000, 200000]}; points: [{ms: 250}, {ms: 300, kt: 200000}]");
  std::vector<std::pair<YAML::Node, std::vector<YAML::Node>>> axes;
  double count = 1;
  for (const auto& kv : node) {
    if (kv.second.IsSequence() && kv.second.size() == 0)
      fail(kv.second, fmt::format("an empty grid: parameter '{}' has no values", kv.first.Scalar()),
           "give at least one value, or leave the parameter out to keep the model's");
    axes.emplace_back(kv.first, list(kv.second, kv.first.Scalar()));
    for (const auto& value : axes.back().second) check_parameter(model, kv.first, value);
    count *= static_cast<double>(axes.back().second.size());
  }
  // A grid over the limit is counted, not built: the caller refuses it with its size.
  if (count > static_cast<double>(kMaxCampaignPoints)) return {count, {}};
  points.emplace_back();
  for (const auto& [name, values] : axes) {
    std::vector<std::vector<ParameterSetting>> next;
    for (const auto& partial : points)
      for (const auto& value : values) {
        next.push_back(partial);
        next.back().emplace_back(name.Scalar(), value.Scalar());
      }
    points = std::move(next);
  }
  return {count, points};
}

void CampaignReader::read_params(const YAML::Node& node) {
  if (!node.IsMap()) fail(node, "'params' maps a model's name to its grid or points");
  std::vector<std::string> names;
  for (const auto& m : models_) names.push_back(m.name);
  for (const auto& kv : node) {
    const std::string name = text(kv.first, "a model's name");
    const auto model = std::find_if(models_.begin(), models_.end(), [&](const Model& m) { return m.name == name; });
    if (model == models_.end())
      fail(kv.first, fmt::format("'{}' is not a model of this campaign", name),
           did_you_mean(name, names, "params are keyed by the name of a listed model: " + joined(names)));
    if (points_.count(name)) fail(kv.first, fmt::format("the parameters of '{}' are given twice", name));
    points_[name] = grid(*model, kv.second);
  }
}

std::string point_id(const CampaignPoint& p) {
  std::string id = fmt::format("{}/{}/h={}/{}/{}", p.model, p.scheme, p.step, p.target, p.scalar);
  std::string params;
  for (const auto& [name, value] : p.params) params += (params.empty() ? "" : ",") + name + "=" + value;
  return params.empty() ? id : id + "/" + params;
}

YAML::Node CampaignReader::parse() const {
  try {
    return YAML::Load(text_);
  } catch (const YAML::Exception& e) {
    throw ModelError({file_, e.mark.line + 1, e.mark.column + 1}, e.msg, "the campaign file is YAML");
  }
}

std::string CampaignReader::read_name(const YAML::Node& node) const {
  std::string name = text(node, "the campaign's name");
  const auto name_character = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
  };
  if (!std::all_of(name.begin(), name.end(), name_character))
    fail(node, fmt::format("the campaign's name '{}' has characters other than letters, digits, '_' and '-'", name),
         "it names the CMake project and the report");
  return name;
}

std::vector<std::string> CampaignReader::read_schemes(const YAML::Node& node) const {
  std::vector<std::string> schemes;
  const std::vector<std::string> known = scheme_names();
  for (const YAML::Node& item : list(node, "schemes")) {
    if (std::find(known.begin(), known.end(), item.Scalar()) == known.end())
      fail(item, fmt::format("unknown scheme '{}'", item.Scalar()),
           did_you_mean(item.Scalar(), known, "the schemes: " + joined(known)));
    schemes.push_back(item.Scalar());
  }
  return schemes;
}

std::vector<std::string> CampaignReader::read_steps(const YAML::Node& node) const {
  std::vector<std::string> steps;
  for (const YAML::Node& item : list(node, "steps")) {
    const std::string s = item.Scalar();
    const bool factor = s.size() > 1 && s.back() == 'x';
    const std::optional<double> v = number(factor ? s.substr(0, s.size() - 1) : s);
    if (s != "default" && (!v || *v <= 0))
      fail(item, fmt::format("'{}' is not a step", s),
           "'default' (the model's step), a factor of the largest stable step such as 0.5x, or seconds such as "
           "0.001");
    steps.push_back(s);
  }
  return steps;
}

std::vector<std::string> CampaignReader::read_targets(const YAML::Node& node) const {
  std::vector<std::string> targets;
  std::vector<std::string> names{"host"};
  for (const auto& t : cross_targets()) names.emplace_back(t.name);
  for (const YAML::Node& item : list(node, "targets")) {
    if (item.Scalar() != "host" && !find_cross_target(item.Scalar()))
      fail(item, fmt::format("unknown target '{}'", item.Scalar()),
           did_you_mean(item.Scalar(), names, "the targets: " + joined(names)));
    targets.push_back(item.Scalar());
  }
  return targets;
}

std::vector<std::string> CampaignReader::read_scalars(const YAML::Node& node) const {
  std::vector<std::string> scalars;
  for (const YAML::Node& item : list(node, "scalar")) {
    if (item.Scalar() != "float" && item.Scalar() != "double")
      fail(item, fmt::format("unknown scalar '{}'", item.Scalar()), "float or double");
    scalars.push_back(item.Scalar());
  }
  return scalars;
}

Tasks CampaignReader::read_tasks(const YAML::Node& node) const {
  const std::string tasks = text(node, "tasks");
  const std::optional<Tasks> kind = named(kDualRateTaskKinds, tasks);
  if (!kind)
    fail(node, fmt::format("tasks is 'single' or 'multi', not '{}'", tasks),
         "verify --tasks of the dual-rate schemes: 'multi' also runs the preemptive executive");
  return *kind;
}

void CampaignReader::check_size(const Dimensions& dims, const YAML::Node& where) const {
  double total = 0;
  std::string breakdown;
  const double per_grid_point = static_cast<double>(dims.schemes.size() * dims.steps.size() * dims.targets.size() *
                                                    std::max<std::size_t>(1, dims.scalars.size()));
  for (const auto& m : models_) {
    const auto p = points_.find(m.name);
    const double count = per_grid_point * (p == points_.end() ? 1.0 : p->second.count);
    total += count;
    breakdown += fmt::format("{}{} {}", breakdown.empty() ? "" : ", ", m.name, count_text(count));
  }
  if (total > static_cast<double>(kMaxCampaignPoints))
    fail(where,
         fmt::format("the campaign has {} points ({}), over the limit of {}", count_text(total), breakdown,
                     thousands(kMaxCampaignPoints)),
         "each model's points are schemes x steps x targets x scalars x parameter points; split the campaign or list "
         "the parameter points to run instead of a full grid");
}

std::vector<CampaignPoint> CampaignReader::expand(const Dimensions& dims) const {
  std::vector<CampaignPoint> points;
  const std::vector<std::string> dual = scheme_names_with(&SchemeTraits::dual_rate);
  for (std::size_t m = 0; m < models_.size(); ++m) {
    const std::string digest = model_digest(model_files_[m]);
    const auto found = points_.find(models_[m].name);
    const std::vector<std::vector<ParameterSetting>> grid_points =
        found == points_.end() ? std::vector<std::vector<ParameterSetting>>{{}} : found->second.points;
    for (const auto& scheme : dims.schemes)
      for (const auto& step : dims.steps)
        for (const auto& target : dims.targets) {
          const CrossTarget* cross = find_cross_target(target);
          const std::vector<std::string> target_scalars =
              dims.scalars.empty() ? std::vector<std::string>{cross ? cross->default_scalar : "double"} : dims.scalars;
          for (const auto& scalar : target_scalars)
            for (const auto& params : grid_points) {
              CampaignPoint p;
              p.index = points.size() + 1;
              p.model = models_[m].name;
              p.model_file = model_files_[m];
              p.model_digest = digest;
              p.scheme = scheme;
              p.step = step;
              p.target = target;
              p.scalar = scalar;
              p.params = params;
              p.dual_rate = std::find(dual.begin(), dual.end(), scheme) != dual.end();
              p.id = point_id(p);
              points.push_back(std::move(p));
            }
        }
  }
  return points;
}

Campaign CampaignReader::read() {
  const YAML::Node root = parse();
  const auto keys = top(root);
  Campaign c;
  c.file = file_;
  c.name = read_name(keys.at("campaign").second);
  read_models(keys.at("models").second);
  Dimensions dims;
  dims.schemes = read_schemes(keys.at("schemes").second);
  if (keys.count("steps")) dims.steps = read_steps(keys.at("steps").second);
  if (keys.count("targets")) dims.targets = read_targets(keys.at("targets").second);
  if (keys.count("scalar")) dims.scalars = read_scalars(keys.at("scalar").second);
  if (keys.count("params")) read_params(keys.at("params").second);
  if (keys.count("t_end")) c.t_end = positive(keys.at("t_end").second, "t_end");
  if (keys.count("tolerance")) c.tolerance = positive(keys.at("tolerance").second, "tolerance");
  if (keys.count("timeout")) c.timeout_seconds = positive(keys.at("timeout").second, "timeout");
  if (keys.count("tasks")) c.tasks = read_tasks(keys.at("tasks").second);
  // Counted before anything is expanded: a grid of millions is refused, not built.
  check_size(dims, keys.count("params") ? keys.at("params").first : keys.at("models").first);
  c.points = expand(dims);
  return c;
}

}  // namespace

std::string model_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c; in.get(c);) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

Campaign load_campaign_text(const std::string& text, const std::string& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  return CampaignReader(text, ec ? path : absolute.lexically_normal().string()).read();
}

Campaign load_campaign(const std::string& path) {
  if (!std::ifstream(path, std::ios::binary))
    throw ModelError({path, 1, 1}, "cannot read campaign file", "check the path");
  return load_campaign_text(read_file(path), path);
}

}  // namespace dualrate
