#include "test_support.hpp"

namespace dualrate::test {

const char* cli() { return DUALRATE_CLI; }

}  // namespace dualrate::test
