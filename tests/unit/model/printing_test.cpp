// The canonical printing of model expressions (model/printing).
#include <gtest/gtest.h>

#include <ginac/ginac.h>

#include <optional>

#include "model/printing.hpp"

namespace dualrate {
namespace {

// GiNaC holds an integer power of a sum with integer coefficients in the sign that makes its
// first term (in GiNaC's order, by symbol hash) positive; the canonical sign (preferred_sign:
// here by text, a - b) may be the other one. Such a power, found by fuzz_pipeline as a stack
// overflow: the sign went back and forth between the two until the stack ran out
// (tests/models/valid/odd_power_sign.yaml is a model with it).
struct HeldPower {
  GiNaC::symbol a, b;
  GiNaC::ex power;  // (b - a)^3 as GiNaC holds it
};

// Fresh symbols until GiNaC holds (b - a)^3, not -(a - b)^3: each pair is either, by its hashes.
std::optional<HeldPower> power_in_the_other_sign() {
  for (int attempt = 0; attempt < 64; ++attempt) {
    HeldPower p{GiNaC::symbol("a"), GiNaC::symbol("b"), 0};
    p.power = GiNaC::pow(p.b - p.a, 3);
    if (GiNaC::is_a<GiNaC::power>(p.power) && cpp_expression(p.power.op(0)) == "b - a") return p;
  }
  return std::nullopt;
}

TEST(Printing, AnOddPowerOfASumInTheSignGiNaCRefuses) {
  const std::optional<HeldPower> held = power_in_the_other_sign();
  ASSERT_TRUE(held) << "GiNaC held (a - b)^3 for 64 fresh pairs of symbols";
  const GiNaC::symbol c("c");
  const GiNaC::ex& power = held->power;
  EXPECT_EQ(cpp_expression(c * power), "-c*dualrate::math::powi<3>(a - b)");
  EXPECT_EQ(cpp_expression(power), "-dualrate::math::powi<3>(a - b)");
  EXPECT_EQ(cpp_expression(c / power), "-c/dualrate::math::powi<3>(a - b)");
  EXPECT_EQ(cpp_expression(power + c), "c - dualrate::math::powi<3>(a - b)");
  EXPECT_TRUE(negative_sign(power));
  EXPECT_EQ(cpp_expression(unsigned_form(power)), "dualrate::math::powi<3>(a - b)");
  EXPECT_EQ(cpp_expression(canonical_form(c * power + c)), cpp_expression(c - c * GiNaC::pow(held->a - held->b, 3)));
}

TEST(Printing, AnEvenPowerPrintsItsBaseInTheCanonicalSign) {
  const GiNaC::symbol b("b"), a("a"), c("c");
  EXPECT_EQ(cpp_expression(c * GiNaC::pow(b - a, 2)), "c*dualrate::math::powi<2>(a - b)");
  EXPECT_EQ(cpp_expression(c * GiNaC::pow(a - b, 2)), "c*dualrate::math::powi<2>(a - b)");
}

}  // namespace
}  // namespace dualrate
