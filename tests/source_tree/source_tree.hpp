// The source tree of this clone, for the tests and programs that read its files (models,
// campaigns). Defined in source_tree.cpp, the one unit that names the clone's path, so that every
// other unit compiles to the same bytes in every clone (ccache, scripts/ccache-env).
#pragma once

#include <string>

namespace dualrate::test {

const char* source_dir();
inline std::string source_path(const std::string& relative) { return std::string(source_dir()) + "/" + relative; }

}  // namespace dualrate::test
