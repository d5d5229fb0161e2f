// Shared helpers for the unit tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/functions.hpp"
#include "model/model.hpp"

namespace dualrate::test {

inline std::string source_path(const std::string& relative) { return std::string(DUALRATE_SOURCE_DIR) + "/" + relative; }

// The .yaml files directly under each of `dirs` (relative to the source tree), sorted.
inline std::vector<std::string> yaml_files(std::initializer_list<const char*> dirs) {
  std::vector<std::string> files;
  for (const char* dir : dirs)
    for (const auto& e : std::filesystem::directory_iterator(source_path(dir)))
      if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Every model file under models/ and tests/models/valid/.
inline std::vector<std::string> all_model_files() { return yaml_files({"models", "tests/models/valid"}); }

inline Model load(const std::string& path) {
  init_symbolic();
  return load_model_file(path);
}

inline std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace dualrate::test
