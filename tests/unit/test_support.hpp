// Shared helpers for the unit tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/diagnostics.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "source_tree.hpp"

namespace dualrate::test {

// The CLI under test (defined in test_support.cpp alone, which names this clone's paths: the
// other sources stay the same in every clone, for ccache); source_dir() and source_path() are
// source_tree.hpp's.
const char* cli();

// The .yaml files directly under each of `dirs` (relative to the source tree), sorted.
inline std::vector<std::string> yaml_files(std::initializer_list<const char*> dirs) {
  std::vector<std::string> files;
  for (const char* dir : dirs)
    for (const auto& e : std::filesystem::directory_iterator(source_path(dir)))
      if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The calibration tests' model (tunable parameters with limits), relative to the source tree.
inline const std::string kCalibrationMotor = "tests/models/calibration/motor.yaml";

// The parameter of `m` named `name`; std::invalid_argument when there is none.
inline const Parameter& parameter(const Model& m, const std::string& name) {
  for (const auto& p : m.parameters)
    if (p.name == name) return p;
  throw std::invalid_argument("no parameter " + name);
}

// The ModelError that loading `text` (as the file m.yaml, with `overrides`) raises; a test
// failure when it loads (any other exception escapes to the test).
inline ModelError model_error(const std::string& text, const std::vector<ParameterOverride>& overrides = {}) {
  init_symbolic();
  try {
    load_model_text(text, "m.yaml", overrides);
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "loaded without error";
  return ModelError({}, "");
}

// Every model file under models/ and tests/models/valid/.
inline std::vector<std::string> all_model_files() { return yaml_files({"models", "tests/models/valid"}); }

inline Model load(const std::string& path) {
  init_symbolic();
  return load_model_file(path);
}

// The model a model file's `text` describes, read as the file `file`.
inline Model load_text(const std::string& text, const std::string& file = "m.yaml") {
  init_symbolic();
  return load_model_text(text, file);
}

// What an error file expects: "# expect: LINE:COL: <substring of the message>" on the first
// line and, optionally, "# hint: <substring of the hint>" on the second.
struct Expectation {
  int line = 0;  // 0: the file has no valid expectation
  int column = 0;
  std::string message;
  std::string hint;
};

inline Expectation read_expectation(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  static const std::regex expect("# expect: ([0-9]+):([0-9]+): (.+)");
  static const std::regex hint("# hint: (.+)");
  Expectation e;
  std::smatch m;
  if (!std::regex_match(first, m, expect)) return e;
  e.line = std::stoi(m[1].str());
  e.column = std::stoi(m[2].str());
  e.message = m[3].str();
  if (std::regex_match(second, m, hint)) e.hint = m[1].str();
  return e;
}

// The error raised for the error file `path` is the one its first lines expect.
inline void expect_error_as_stated(const ModelError& error, const std::string& path, const Expectation& e) {
  EXPECT_EQ(error.loc().file, path);
  EXPECT_EQ(error.loc().line, e.line) << error.format();
  EXPECT_EQ(error.loc().column, e.column) << error.format();
  EXPECT_NE(std::string(error.what()).find(e.message), std::string::npos) << error.format();
  if (!e.hint.empty()) {
    EXPECT_NE(error.hint().find(e.hint), std::string::npos) << error.format();
  }
}

// The CLI's output for the error file `path` starts with `PATH:LINE:COL: error: ` and has the
// expected message and hint; its exit status is 1.
inline void expect_cli_error_as_stated(int exit_code, const std::string& output, const std::string& path,
                                       const Expectation& e) {
  EXPECT_EQ(exit_code, 1) << output;
  const std::string prefix = path + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: ";
  EXPECT_EQ(output.compare(0, prefix.size(), prefix), 0) << output;
  EXPECT_NE(output.find(e.message), std::string::npos) << output;
  if (!e.hint.empty()) {
    EXPECT_NE(output.find("\n  hint: "), std::string::npos) << output;
    EXPECT_NE(output.find(e.hint), std::string::npos) << output;
  }
}

inline std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace dualrate::test
