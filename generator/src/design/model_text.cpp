#include "design/model_text.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace dualrate {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool top_level(const std::string& line) { return !line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#'; }

// The lines [first, end) of the top-level key `key`'s block; first == lines.size() if absent.
std::pair<std::size_t, std::size_t> block(const std::vector<std::string>& lines, const std::string& key) {
  const std::regex start("^" + key + "\\s*:.*");
  std::size_t first = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (std::regex_match(lines[i], start)) {
      first = i;
      break;
    }
  if (first == lines.size()) return {first, first};
  std::size_t end = first + 1;
  while (end < lines.size() && !top_level(lines[end])) ++end;
  // Trailing blank and comment lines belong to what follows.
  while (end > first + 1 && lines[end - 1].find_first_not_of(" \t") == std::string::npos) --end;
  return {first, end};
}

// A scalar as YAML writes it (quoted when plain style would read it otherwise).
std::string scalar(const YAML::Node& n) {
  YAML::Emitter out;
  out << n;
  return out.c_str();
}

// The initial value text of every state, as the file writes it.
std::map<std::string, std::string> initial_values(const YAML::Node& states) {
  std::map<std::string, std::string> values;
  const auto read = [&values](const YAML::Node& m) {
    if (!m.IsMap()) return;
    for (auto it = m.begin(); it != m.end(); ++it) values[it->first.Scalar()] = scalar(it->second);
  };
  bool split = false;
  for (auto it = states.begin(); it != states.end(); ++it)
    if ((it->first.Scalar() == "slow" || it->first.Scalar() == "fast") && (it->second.IsMap() || it->second.IsNull()))
      split = true;
  if (split) {
    read(states["slow"]);
    read(states["fast"]);
  } else {
    read(states);
  }
  return values;
}

std::string format_step(double h) { return fmt::format("{}", h); }

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace

std::string with_partition(const std::string& text, const Model& model, const std::vector<std::string>& fast) {
  std::vector<std::string> lines = split_lines(text);
  const YAML::Node root = YAML::Load(text);
  const auto values = initial_values(root["states"]);
  std::vector<std::string> block_lines{"states:", "  slow:"};
  std::vector<std::string> fast_lines{"  fast:"};
  for (const State& x : model.states) {
    const bool is_fast = std::count(fast.begin(), fast.end(), x.name) > 0;
    (is_fast ? fast_lines : block_lines).push_back(fmt::format("    {}: {}", x.name, values.at(x.name)));
  }
  block_lines.insert(block_lines.end(), fast_lines.begin(), fast_lines.end());
  const auto [first, end] = block(lines, "states");
  if (first == lines.size()) throw std::runtime_error("the model file has no top-level states:");
  lines.erase(lines.begin() + static_cast<long>(first), lines.begin() + static_cast<long>(end));
  lines.insert(lines.begin() + static_cast<long>(first), block_lines.begin(), block_lines.end());
  return joined(lines);
}

std::string with_input_holds(const std::string& text, const Model& model) {
  std::vector<std::string> lines = split_lines(text);
  const YAML::Node inputs = YAML::Load(text)["inputs"];
  const auto [first, end] = block(lines, "inputs");
  if (first == lines.size() || !inputs.IsMap()) throw std::runtime_error("the model file has no top-level inputs:");
  std::vector<std::string> block_lines{"inputs:"};
  for (const Input& u : model.inputs) {
    const YAML::Node written = inputs[u.name];
    const YAML::Node value = written.IsMap() ? written["value"] : written;
    if (u.hold == InputHold::kZero && !written.IsMap()) {
      block_lines.push_back(fmt::format("  {}: {}", u.name, scalar(value)));
      continue;
    }
    YAML::Emitter out;
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "value" << YAML::Value << value;
    if (u.hold != InputHold::kZero) out << YAML::Key << "hold" << YAML::Value << to_string(u.hold);
    if (written.IsMap() && written["jump"]) out << YAML::Key << "jump" << YAML::Value << written["jump"];
    if (!u.unit.empty()) out << YAML::Key << "unit" << YAML::Value << u.unit;
    if (!u.description.empty()) out << YAML::Key << "description" << YAML::Value << u.description;
    out << YAML::EndMap;
    block_lines.push_back(fmt::format("  {}: {}", u.name, out.c_str()));
  }
  lines.erase(lines.begin() + static_cast<long>(first), lines.begin() + static_cast<long>(end));
  lines.insert(lines.begin() + static_cast<long>(first), block_lines.begin(), block_lines.end());
  return joined(lines);
}

std::string states_block(const std::string& text) {
  const std::vector<std::string> lines = split_lines(text);
  const auto [first, end] = block(lines, "states");
  return joined({lines.begin() + static_cast<long>(first), lines.begin() + static_cast<long>(end)});
}

namespace {

// Leaves out the entry `key` of the block mapping whose entries in lines [first, end) are
// indented by `indent`: its line and those indented further below it.
void erase_entry(std::vector<std::string>& lines, std::size_t first, std::size_t& end, const std::string& indent,
                 const std::string& key) {
  const std::regex line("^" + indent + key + "\\s*:.*");
  for (std::size_t i = first + 1; i < end; ++i) {
    if (!std::regex_match(lines[i], line)) continue;
    std::size_t last = i + 1;
    while (last < end) {
      const auto pos = lines[last].find_first_not_of(' ');
      if (pos != std::string::npos && pos <= indent.size() && lines[last][pos] != '#') break;
      ++last;
    }
    lines.erase(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(last));
    end -= last - i;
    return;
  }
}

}  // namespace

std::string with_simulation(const std::string& text, const DesignedSimulation& simulation) {
  std::vector<std::string> lines = split_lines(text);
  std::vector<std::pair<std::string, std::string>> set{{"scheme", simulation.scheme},
                                                       {"step", format_step(simulation.step)}};
  if (simulation.ratio > 1) set.emplace_back("ratio", std::to_string(simulation.ratio));
  if (!simulation.linearization.empty()) set.emplace_back("linearization", simulation.linearization);
  auto [first, end] = block(lines, "simulation");
  if (first == lines.size()) {
    if (!lines.empty() && !lines.back().empty()) lines.emplace_back();
    lines.emplace_back("simulation:");
    for (const auto& [key, value] : set) lines.push_back("  " + key + ": " + value);
  } else {
    if (!std::regex_match(lines[first], std::regex("^simulation\\s*:\\s*(#.*)?")))
      throw std::runtime_error(
          "the model file's simulation: is not a block mapping: write its keys on lines of their own");
    std::string indent = "  ";
    for (std::size_t i = first + 1; i < end; ++i) {
      const auto pos = lines[i].find_first_not_of(' ');
      if (pos != std::string::npos && lines[i][pos] != '#') {
        indent = lines[i].substr(0, pos);
        break;
      }
    }
    std::size_t insert_at = first + 1;
    for (const auto& [key, value] : set) {
      const std::regex line("^" + indent + key + "\\s*:.*");
      bool found = false;
      for (std::size_t i = first + 1; i < end; ++i)
        if (std::regex_match(lines[i], line)) {
          lines[i] = indent + key + ": " + value;
          found = true;
        }
      if (!found) {
        lines.insert(lines.begin() + static_cast<long>(insert_at++), indent + key + ": " + value);
        ++end;
      }
    }
    if (simulation.without_scheme_options) erase_entry(lines, first, end, indent, "scheme_options");
  }
  return joined(lines);
}

}  // namespace dualrate
