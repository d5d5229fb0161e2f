// Operation counts of the IR (ir/op_count.hpp) and the Cortex-M target table (targets/cross_target.hpp)
// against the toolchain files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "emit/cpp_emitter.hpp"
#include "ir/function_cost.hpp"
#include "registry/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/budget.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

TEST(OpCount, CountsExpressionAsPrinted) {
  const GiNaC::realsymbol a("a"), b("b");
  // Printed as a*b - sin(a) + a/b: two additions, one multiplication, one division, one call.
  const OpCount c = count_ops(a * b + a / b - GiNaC::sin(a));
  EXPECT_EQ(c.add, 2);
  EXPECT_EQ(c.mul, 1);
  EXPECT_EQ(c.div, 1);
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(c.functions, std::set<std::string>{"dualrate::math::sin"});
  // powi<3>: two multiplications; -2*a: a literal product and a negation.
  EXPECT_EQ(count_ops(GiNaC::pow(a, 3)).mul, 2);
  const OpCount n = count_ops(-2 * a);
  EXPECT_EQ(n.mul, 1);
  EXPECT_EQ(n.neg, 1);
  EXPECT_EQ(count_ops(GiNaC::sqrt(a)).functions, std::set<std::string>{"std::sqrt"});
}

TEST(OpCount, SchemesAddTheirVectorArithmetic) {
  const Model m = test::load(test::source_path("models/dc_motor.yaml"));
  const long n = static_cast<long>(m.states.size());
  const long d = derivative_ops(m, Rows::kAll).total();
  EXPECT_GT(d, 0);
  const auto cost = [&](const char* scheme) {
    GenerateRequest o{scheme, 1e-3, 1, ScalarType::kDouble, "test"};
    return step_cost(m, o, precompute_scheme(m, o));
  };
  EXPECT_EQ(cost("euler").ops.total(), d + 2 * n);
  EXPECT_EQ(cost("euler").bound.total(), d);
  EXPECT_EQ(cost("rk2").ops.total(), 2 * d + 5 * n + 2);
  // rk4, line by line of dualrate::Rk4::step: h/2 and the two stage times (3), the three stage
  // states (3 n adds, 3 n products), the weighted sum with h/6 (3 n adds, 3 n products, a
  // quotient) and the update (n).
  EXPECT_EQ(cost("rk4").ops.total(), 4 * d + 13 * n + 4);
  EXPECT_EQ(cost("rk4").bound.total(), 4 * d);
  EXPECT_GT(cost("sp_ll").bound.total(), d + 5 * derivative_ops(m, Rows::kSlow).total());
  // sp_ll's vector arithmetic, line by line of dualrate::SpLl::step: integral_y's sum (nf), h/2
  // and the two stage times (3), the manifold's offset (2 nf) and the manifold at k1..k4, f1 and
  // z_next (6 nf), the stage inputs (3 ns adds, 3 ns products), RK4's sum with h/6 and the update
  // with the f_z term (5 ns adds, 3 ns products, a quotient), b (nf), c (ns, nf quotients),
  // y_next and z_next (3 nf).
  const long ns = static_cast<long>(m.slow_count), nf = n - ns;
  EXPECT_EQ(cost("sp_ll").ops.total() - cost("sp_ll").bound.total(), 14 * nf + 15 * ns + 4);
  // prk25, line by line of dualrate::Prk with Prk25Tableau: 2 slow and 5 fast right-hand
  // sides; 6 slow and 15 fast non-zero coefficients, each h w (a product) times a partition
  // added to it (n products, n sums); the stage times t + c h at the 5 evaluations whose c is not
  // zero (slow stage 3, fast stages 1-4: a product and a sum each).
  EXPECT_EQ(cost("prk25").bound.total(),
            2 * derivative_ops(m, Rows::kSlow).total() + 5 * derivative_ops(m, Rows::kFast).total());
  EXPECT_EQ(cost("prk25").ops.total() - cost("prk25").bound.total(), 6 * (2 * ns + 1) + 15 * (2 * nf + 1) + 5 * 2);
  EXPECT_THROW(cost("nope"), std::invalid_argument);
}

TEST(OpCount, DualRateSchemesCountAMacroStep) {
  const Model m = test::load(test::source_path("models/aircraft_pitch.yaml"));
  const long fast = derivative_ops(m, Rows::kFast).total(), slow = derivative_ops(m, Rows::kSlow).total();
  const auto cost = [&](const char* scheme, int ratio) {
    GenerateRequest o{scheme, 1e-3, ratio, ScalarType::kDouble, "test"};
    return step_cost(m, o, {});
  };
  // Serial: two f_e per tick, two f_r per slow job; parallel: twice the fast rounds, a third f_r.
  EXPECT_EQ(cost("mrabm4", 4).bound.total(), 4 * 2 * fast + 2 * slow);
  EXPECT_EQ(cost("mrabm4_parallel", 4).bound.total(), 4 * 4 * fast + 3 * slow);
  // Each tick's and each job's vector arithmetic comes on top; a tick's is the same at any ratio.
  const long tick = cost("mrabm4", 5).ops.total() - cost("mrabm4", 4).ops.total();
  EXPECT_GT(tick, 2 * fast);
  EXPECT_EQ(cost("mrabm4", 9).ops.total() - cost("mrabm4", 4).ops.total(), 5 * tick);
  EXPECT_GT(cost("mrabm4", 4).ops.total(), cost("mrabm4", 4).bound.total());
  // Line by line of dualrate::Mrabm4: a tick's w = j / R and t_{n+1} (a quotient, a product); a
  // round's interpolation (2 ns sums, ns products), predictor (4 nf sums, 5 nf products, h/24)
  // and corrector (4 nf sums, 4 nf products, h/24); the slow job's H and t_k (2 products), its
  // correction and the predictions A and B (12 ns sums, 14 ns products, three quotients);
  // parallel: t_{k+1}, A' (4 ns sums, 4 ns products, H/24) and B' (2 ns sums).
  const long ns = static_cast<long>(m.slow_count), nf = static_cast<long>(m.fast_count());
  const auto vector_ops = [&](const char* scheme, int ratio) {
    return cost(scheme, ratio).ops.total() - cost(scheme, ratio).bound.total();
  };
  const long round = 3 * ns + 17 * nf + 2, job = 26 * ns + 5;
  EXPECT_EQ(vector_ops("mrabm4", 4), 4 * 2 + 4 * round + job);
  EXPECT_EQ(vector_ops("mrabm4_parallel", 4), 4 * 2 + 8 * round + job + 10 * ns + 2);
}

TEST(OpCount, PortableMathFunctions) {
  EXPECT_EQ(portable_math_functions({"dualrate::math::sin", "std::sqrt", "std::abs", "dualrate::math::min",
                                     "dualrate::math::pow", "dualrate::math::heaviside"}),
            (std::set<std::string>{"dualrate::math::pow", "dualrate::math::sin"}));
  const Model pendulum = test::load(test::source_path("models/pendulum_particle.yaml"));
  EXPECT_EQ(portable_math_functions(called_functions(pendulum)),
            (std::set<std::string>{"dualrate::math::cos", "dualrate::math::sin"}));
}

TEST(CrossTargets, ToolchainFilesMatchTheTable) {
  ASSERT_EQ(cross_targets().size(), 7u);
  for (const auto& t : cross_targets()) {
    std::ifstream in(test::source_path(std::string("toolchains/") + t.name + ".cmake"));
    ASSERT_TRUE(in) << t.name;
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find(std::string("set(DUALRATE_CPU_FLAGS \"") + t.cpu_flags + "\")"), std::string::npos)
        << t.name;
    EXPECT_NE(text.str().find(std::string("set(DUALRATE_BOARD ") + t.board + ")"), std::string::npos) << t.name;
    const std::string board_file = t.linux_user ? "/tasks_main.cpp" : "/memory.ld";
    EXPECT_TRUE(std::ifstream(test::source_path(std::string("targets/") + t.board + board_file)).good()) << t.board;
  }
  EXPECT_EQ(find_cross_target("cortex-m4f")->default_scalar, std::string("float"));
  EXPECT_EQ(find_cross_target("cortex-m33")->default_scalar, std::string("float"));  // FPv5-SP
  EXPECT_EQ(find_cross_target("cortex-m55")->default_scalar, std::string("double"));
  EXPECT_EQ(find_cross_target("cortex-m33-dual")->cores, 2);
  EXPECT_EQ(find_cross_target("cortex-m33")->cores, 1);
  EXPECT_EQ(find_cross_target("cortex-m0"), nullptr);
  EXPECT_NE(unknown_target_message("cortex-m33dual").find("did you mean 'cortex-m33-dual'?"), std::string::npos);
  EXPECT_NE(unknown_target_message("cortex_m55").find("did you mean 'cortex-m55'?"), std::string::npos);
  EXPECT_NE(unknown_target_message("m4f").find("(available: host, cortex-m3, cortex-m4f"), std::string::npos);
  // --cpu-hz above the typical part's clock is warned about, at or below it not.
  EXPECT_EQ(clock_warning(*find_cross_target("cortex-m33"), 160e6), "");
  EXPECT_NE(clock_warning(*find_cross_target("cortex-m33"), 1e9)
                .find("above the 160 MHz of cortex-m33's typical part "
                      "(STM32U585)"),
            std::string::npos);
}

}  // namespace
}  // namespace dualrate
