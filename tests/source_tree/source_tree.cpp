#include "source_tree.hpp"

namespace dualrate::test {

const char* source_dir() { return DUALRATE_SOURCE_DIR; }

}  // namespace dualrate::test
