// Sizes 5 to 8 of the fixed-size solves (fixed_size_solves_test.hpp): LU and LLT, the largest
// size the LLT covers.
#include "fixed_size_solves_test.hpp"

namespace dualrate::fixed_size_solves_test {
namespace {

TEST(FixedSizeSolves, BitForBitTheRuntimesForSizes5To8) {
  static_assert(kMaxUnrolledSolve == 8, "a size the LLT's transcription covers is not tested");
  std::mt19937 random(6);
  expect_same_as_runtime<5>(random);
  expect_same_as_runtime<6>(random);
  expect_same_as_runtime<7>(random);
  expect_same_as_runtime<8>(random);
}

}  // namespace
}  // namespace dualrate::fixed_size_solves_test
