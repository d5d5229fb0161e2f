// The counted arithmetic (ir/counted_arithmetic.hpp): each operation as written, a vector's per
// entry, a literal's nowhere.
#include "ir/counted_arithmetic.hpp"

#include <gtest/gtest.h>

namespace dualrate {
namespace {

TEST(CountedArithmetic, CountsEachOperationAsWritten) {
  OpCount ops;
  const CountedScalar h(ops), t(ops);
  const CountedVector x(3, ops), k(3, ops);
  const CountedScalar half = h / CountedScalar(2);                          // 1 quotient
  const CountedScalar mid = t + half;                                       // 1 addition
  const CountedVector next = x + half * k;                                  // 3 products, 3 additions
  CountedVector sum = (h / CountedScalar(6)) * (k + CountedScalar(2) * k);  // 1 quotient, 3 + 3 products, 3 additions
  sum -= next / mid;                                                        // 3 quotients, 3 additions
  EXPECT_EQ(ops.div, 5);
  EXPECT_EQ(ops.add, 10);
  EXPECT_EQ(ops.mul, 9);
  EXPECT_EQ(ops.neg + ops.calls, 0);
  EXPECT_EQ(sum.rows(), 3);
}

TEST(CountedArithmetic, LiteralsCountNowhere) {
  OpCount ops;
  const CountedScalar two(2), six(6);
  const CountedScalar third = two / six;
  EXPECT_EQ(third.ops(), nullptr);
  EXPECT_EQ(ops.total(), 0);
  const CountedVector v(4, ops);
  const CountedVector w = third * v;  // the vector counts
  EXPECT_EQ(ops.mul, 4);
  EXPECT_EQ(&w.ops(), &ops);
}

}  // namespace
}  // namespace dualrate
