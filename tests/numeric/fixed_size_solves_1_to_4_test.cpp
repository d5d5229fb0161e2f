// Sizes 1 to 4 of the fixed-size solves (fixed_size_solves_test.hpp): LU and LLT.
#include "fixed_size_solves_test.hpp"

namespace dualrate::fixed_size_solves_test {
namespace {

TEST(FixedSizeSolves, BitForBitTheRuntimesForSizes1To4) {
  std::mt19937 random(5);
  expect_same_as_runtime<1>(random);
  expect_same_as_runtime<2>(random);
  expect_same_as_runtime<3>(random);
  expect_same_as_runtime<4>(random);
}

TEST(FixedSizeSolves, RefuseSizesTheyDoNotCover) {
  EXPECT_THROW(solve_lu_as_runtime<float>(17, std::vector<float>(289, 1.0F), std::vector<float>(17, 1.0F)),
               std::invalid_argument);
  EXPECT_THROW(solve_llt_as_runtime<float>(9, std::vector<float>(81, 1.0F), std::vector<float>(9, 1.0F)),
               std::invalid_argument);
  EXPECT_THROW(solve_llt_as_runtime<float>(2, std::vector<float>(3, 1.0F), std::vector<float>(2, 1.0F)),
               std::invalid_argument);
}

}  // namespace
}  // namespace dualrate::fixed_size_solves_test
