// Sizes 9 to 16 of the fixed-size solves (fixed_size_solves_test.hpp): LU only, its triangular
// solves in panels of 8 joined by a matrix-vector product.
#include "fixed_size_solves_test.hpp"

namespace dualrate::fixed_size_solves_test {
namespace {

TEST(FixedSizeSolves, BitForBitTheRuntimesForSizes9To16) {
  static_assert(kMaxUnblockedLu == 16, "a size the LU's transcription covers is not tested");
  std::mt19937 random(7);
  expect_same_as_runtime<9>(random);
  expect_same_as_runtime<10>(random);
  expect_same_as_runtime<11>(random);
  expect_same_as_runtime<12>(random);
  expect_same_as_runtime<13>(random);
  expect_same_as_runtime<14>(random);
  expect_same_as_runtime<15>(random);
  expect_same_as_runtime<16>(random);
}

}  // namespace
}  // namespace dualrate::fixed_size_solves_test
