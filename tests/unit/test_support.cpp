#include "test_support.hpp"

namespace dualrate::test {

const char* source_dir() { return DUALRATE_SOURCE_DIR; }
const char* cli() { return DUALRATE_CLI; }

}  // namespace dualrate::test
