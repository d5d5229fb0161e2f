// A scheme's constants as a float build holds and applies them (ir/float_constants.hpp): which
// value of an entry the exact step check takes, and the product in the emitted order.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/float_constants.hpp"

namespace dualrate {
namespace {

using Eigen::MatrixXd;

NamedMatrix matrix(const MatrixXd& value) { return {"m", value, "a test matrix"}; }

// Entry by entry against u_f (|own| + 2^-16 max |own|), u_f = 2^-24: max |own| = 4 here.
TEST(ConfirmedConstants, KeepTheDesignsValueWithinOneFloatRoundingElseTakeTheReferences) {
  const double u_f = 0x1p-24;
  MatrixXd own(2, 2), design(2, 2);
  own << 4, 1, 1e-9, 0;
  const double small = u_f * 0x1p-16 * 4;  // what an entry far below the largest may differ by
  design << 4 * (1 + 0.9 * u_f), 1 * (1 + 1.1 * u_f), 1e-9 + 0.9 * small, 0.9 * small;
  const MatrixXd kept = named(confirmed_constants<float>({matrix(design)}, {matrix(own)}), "m").value;
  EXPECT_EQ(kept(0, 0), design(0, 0));
  EXPECT_EQ(kept(0, 1), own(0, 1));  // 1.1 roundings off: a wrong constant
  EXPECT_EQ(kept(1, 0), design(1, 0));
  EXPECT_EQ(kept(1, 1), design(1, 1));
  design(1, 1) = 1.1 * small;
  EXPECT_EQ(named(confirmed_constants<float>({matrix(design)}, {matrix(own)}), "m").value(1, 1), 0.0);
  EXPECT_THROW(confirmed_constants<float>({matrix(design)}, {{"other", own, ""}}), std::logic_error);
  EXPECT_THROW(confirmed_constants<float>({matrix(design)}, {matrix(MatrixXd::Zero(2, 3))}), std::logic_error);
}

// In double the entry's own rounding, u_d |own| (u_d = 2^-53), is far below the matrix share
// 2^-40 max |own|, which decides: within it the design's value is kept, beyond it a wrong one.
TEST(ConfirmedConstants, InDoubleKeepTheDesignsValueWithinTheMatrixShare) {
  MatrixXd own(2, 2), design(2, 2);
  own << 4, 1, 1e-9, 0;
  const double share = 0x1p-40 * 4;
  design << 4 + 1.1 * share, 1 + 0.9 * share, 1e-9 - 0.9 * share, 1.1 * share;
  const MatrixXd kept = named(confirmed_constants<double>({matrix(design)}, {matrix(own)}), "m").value;
  EXPECT_EQ(kept(0, 0), own(0, 0));
  EXPECT_EQ(kept(0, 1), design(0, 1));
  EXPECT_EQ(kept(1, 0), design(1, 0));
  EXPECT_EQ(kept(1, 1), own(1, 1));
}

// generated code's r_[0] = Scalar(c0)*v_[0] + v_[2] - Scalar(c1)*v_[1]; r_[1] = -(v_[0] +
// Scalar(c2)*v_[2]); r_[2] = Scalar(0): left to right in float, each coefficient a float.
TEST(ProductInFloat, SumsEachRowLeftToRightWithFloatCoefficients) {
  MatrixXd m(3, 3);
  const double c0 = 0.1, c1 = 1.0 / 3, c2 = 2.5e7;
  m << c0, -c1, 1, -1, 0, -c2, 0, 0, 0;
  const LinearMap map = linear_map({"m", m, "a test matrix"});
  Eigen::VectorXf v(3);
  v << 3.0F, 7.0F, 1e-3F;
  const Eigen::VectorXf r = product_in<float>(map, v);
  const float row0 = static_cast<float>(c0) * v[0] + v[2] - static_cast<float>(c1) * v[1];
  const float row1 = -(v[0] + static_cast<float>(c2) * v[2]);
  EXPECT_EQ(r[0], row0);
  EXPECT_EQ(r[1], row1);
  EXPECT_EQ(r[2], 0.0F);
  EXPECT_FALSE(std::signbit(r[2]));
  // In another order the sum rounds otherwise: the order is the emitted one, not any.
  EXPECT_NE(r[0], static_cast<float>(c0) * v[0] - static_cast<float>(c1) * v[1] + v[2]);
}

}  // namespace
}  // namespace dualrate
