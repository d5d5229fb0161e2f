// Generated function bodies as straight-line code (straight_line.hpp): shared subexpressions
// are computed once, placed before their first use, and counted as emitted.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "emit/cpp_emitter.hpp"
#include "ir/function_cost.hpp"
#include "ir/straight_line.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

std::vector<GiNaC::ex> rates(const Model& m) {
  std::vector<GiNaC::ex> r;
  for (const auto& x : m.states) r.push_back(x.rhs);
  return r;
}

void collect_symbols(const GiNaC::ex& e, std::set<std::string>& names) {
  if (GiNaC::is_a<GiNaC::symbol>(e)) names.insert(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
  for (const auto& operand : e) collect_symbols(operand, names);
}

// Every symbol a local or result uses is a state, input, parameter, t or an earlier local.
void expect_defined_before_use(const Model& m, const StraightLine& body) {
  std::set<std::string> known{m.time.get_name()};
  for (const auto& x : m.states) known.insert(x.name);
  for (const auto& u : m.inputs) known.insert(u.name);
  for (const auto& p : m.parameters) known.insert(p.name);
  const auto check = [&](const GiNaC::ex& e) {
    std::set<std::string> used;
    collect_symbols(e, used);
    for (const auto& name : used) EXPECT_TRUE(known.count(name)) << e << " uses " << name << " before it is defined";
  };
  for (const auto& l : body.locals) {
    if (!l.solved()) check(l.value);
    known.insert(l.name());
  }
  for (const auto& r : body.results) check(r);
}

TEST(StraightLine, SharesRecurringTermsOnceBeforeTheirFirstUse) {
  const Model m = test::load(test::source_path("tests/models/valid/shared_terms.yaml"));
  const StraightLine shared = straight_line(m, rates(m));
  const StraightLine plain = straight_line(m, rates(m), false);
  long terms = 0;
  for (const auto& l : shared.locals) terms += l.variable ? 0 : 1;
  EXPECT_GE(terms, 3);                 // sin(th), sin(th)*cos(th), lever*w^2 (or its parts)
  ASSERT_EQ(plain.locals.size(), 1u);  // lever alone
  expect_defined_before_use(m, shared);
  // The same values: substitute the locals back, last first.
  for (std::size_t i = 0; i < shared.results.size(); ++i) {
    GiNaC::ex back = shared.results[i], plain_back = plain.results[i];
    for (auto l = shared.locals.rbegin(); l != shared.locals.rend(); ++l) back = back.subs(l->symbol == l->value);
    for (const auto& l : plain.locals) plain_back = plain_back.subs(l.symbol == l.value);
    EXPECT_TRUE((back - plain_back).expand().is_zero()) << back << " vs " << plain_back;
  }
  const long with = straight_line_ops(m, shared).total(), without = straight_line_ops(m, plain).total();
  EXPECT_LT(with, without);
  EXPECT_EQ(derivative_ops(m, Rows::kAll).total(), with);
}

// Sharing never changes the order of a statement's operations (so float generated code rounds
// as the reference core's evaluation of the model: verify's exact step check): each local and
// result, its shared terms expanded, does the operations of the same statement unshared. On
// the spacecraft, sharing omega_B^2 and sin(theta_R) would have computed
// b_P*cse0_*cse6_*d_H*m_P, the factors in another order than b_P*d_H*omega_B^2*sin(theta_R)*m_P.
TEST(StraightLine, SharingKeepsTheOrderOfEveryStatementsOperations) {
  for (const auto& file : test::all_model_files()) {
    const Model m = test::load(file);
    const StraightLine shared = straight_line(m, rates(m));
    const StraightLine plain = straight_line(m, rates(m), false);
    SharedOrders orders;
    std::map<std::string, OperationOrder> variables;  // each variable local's operations
    for (const auto& l : shared.locals) {
      if (l.solved()) continue;
      const OperationOrder order = operation_order(l.value, orders);
      if (l.variable) {
        variables[l.name()] = order;
      } else {
        orders[l.symbol] = order;
      }
    }
    for (const auto& l : plain.locals) {
      if (!l.solved()) {
        EXPECT_EQ(variables.at(l.name()), operation_order(l.value)) << file << ": " << l.name();
      }
    }
    ASSERT_EQ(shared.results.size(), plain.results.size());
    for (std::size_t i = 0; i < plain.results.size(); ++i)
      EXPECT_EQ(operation_order(shared.results[i], orders), operation_order(plain.results[i])) << file << ": " << i;
  }
}

// Nothing recurs: the body is the model's, and costs the same.
TEST(StraightLine, LeavesAModelWithoutRepeatsAsWritten) {
  const Model m = test::load(test::source_path("tests/models/valid/van_der_pol.yaml"));
  const StraightLine body = straight_line(m, rates(m));
  EXPECT_TRUE(body.locals.empty());
  EXPECT_EQ(straight_line_ops(m, body).total(), straight_line_ops(m, straight_line(m, rates(m), false)).total());
}

// The emitted derivatives() computes each shared term once, as a local named cseN_.
TEST(StraightLine, EmittedHeaderDeclaresTheSharedTerms) {
  const Model m = test::load(test::source_path("tests/models/valid/shared_terms.yaml"));
  const std::string h = generate_header(m, {"rk4", 0.01, 1, ScalarType::kDouble, "test"}, {});
  const auto body = h.substr(h.find("static void derivatives"),
                             h.find("static void slow_derivatives") - h.find("static void derivatives"));
  EXPECT_NE(body.find("const Scalar cse0_ = "), std::string::npos) << body;
  EXPECT_EQ(body.find("sin(th)", body.find("sin(th)") + 1), std::string::npos) << body;
}

}  // namespace
}  // namespace dualrate
