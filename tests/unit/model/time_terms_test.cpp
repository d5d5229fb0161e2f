// Time terms (Model::with_time_terms, dr_time): the largest subexpressions of t and parameters
// are marked, shared only whole, printed in the model's Time and rounded once to Scalar, and
// the reference core's float evaluation computes them the same way.
#include <gtest/gtest.h>

#include <dualrate/portable_math.h>

#include <cmath>
#include <map>
#include <string>

#include "emit/cpp_emitter.hpp"
#include "ir/straight_line.hpp"
#include "model/evaluator.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "model/printing.hpp"

namespace dualrate {
namespace {

const char* const kTimed = R"(name: timed
parameters:
  w: 3
  c: 0.5
  k: 2
states:
  slow:
    x: 1
  fast:
    y: 0
variables:
  phase: w*t + c
equations:
  x: sin(w*t)*x + cos(w*t) - c*x + k*t*x
  y: sin(w*t) - y + sin(phase)
simulation:
  t_end: 1
  step: 0.01
)";

// Every t of e lies inside a time term, and no time term holds another or a state.
void expect_time_only_in_terms(const Model& m, const GiNaC::ex& e) {
  if (is_time_term(e)) {
    EXPECT_TRUE(e.op(0).has(m.time)) << e;
    for (const auto& x : m.states) EXPECT_FALSE(e.op(0).has(x.symbol)) << e;
    for (auto node = e.op(0).preorder_begin(); node != e.op(0).preorder_end(); ++node)
      EXPECT_FALSE(is_time_term(*node) && !node->is_equal(e)) << e;
    return;
  }
  EXPECT_FALSE(e.is_equal(m.time)) << "t outside a time term";
  for (const auto& operand : e) expect_time_only_in_terms(m, operand);
}

TEST(TimeTerms, MarkTheLargestSubexpressionsOfTimeAndParameters) {
  const Model m = load_model_text(kTimed, "timed.yaml");
  ASSERT_TRUE(m.uses_time());
  for (const auto& x : m.states) expect_time_only_in_terms(m, m.with_time_terms(x.rhs));
  const std::string rhs = cpp_expression(m.with_time_terms(m.states[0].rhs));
  EXPECT_NE(rhs.find("static_cast<Scalar>(dualrate::math::sin(t*Time(w)))"), std::string::npos) << rhs;
  EXPECT_NE(rhs.find("static_cast<Scalar>(t)"), std::string::npos) << rhs;  // k*t*x: t alone is the term
  const std::string phase = cpp_expression(m.with_time_terms(m.variables[0].expr));
  EXPECT_EQ(phase, "static_cast<Scalar>(Time(c) + t*Time(w))");  // factors in Scalar text order, as always
  // Without t nothing is marked.
  EXPECT_EQ(m.with_time_terms(m.states[1].rhs.subs(m.time == 0)), canonical_form(m.states[1].rhs.subs(m.time == 0)));
}

// w*t recurs inside sin(w*t) and cos(w*t): sharing it as a Scalar local would round it to
// float before the sine. Terms are shared whole (sin(w*t), twice) or not at all.
TEST(TimeTerms, AreSharedOnlyWhole) {
  const Model m = load_model_text(kTimed, "timed.yaml");
  std::vector<GiNaC::ex> roots;
  for (const auto& x : m.states) roots.push_back(x.rhs);
  const StraightLine body = straight_line(m, roots);
  bool shared_sine = false;
  for (const auto& l : body.locals) {
    if (l.solved()) continue;
    expect_time_only_in_terms(m, l.value);
    if (!l.variable && is_time_term(l.value)) shared_sine = true;
    for (auto node = l.value.preorder_begin(); node != l.value.preorder_end(); ++node) {
      if (!is_time_term(*node)) continue;
      for (const auto& other : body.locals) EXPECT_FALSE(node->op(0).has(other.symbol)) << *node;
    }
  }
  EXPECT_TRUE(shared_sine);
  for (const auto& r : body.results) expect_time_only_in_terms(m, r);
}

TEST(TimeTerms, TimeIsDoubleExactlyWhereTheModelUsesIt) {
  const Model timed = load_model_text(kTimed, "timed.yaml");
  const std::string h = generate_header(timed, {"rk4", 0.01, 1, ScalarType::kFloat, "test"}, {});
  EXPECT_NE(h.find("  using Time = double;"), std::string::npos);
  EXPECT_NE(h.find("static void derivatives(Time t,"), std::string::npos);
  std::string untimed_text = kTimed;
  untimed_text.replace(untimed_text.find("w*t + c"), 7, "w + c");
  for (const char* from : {"sin(w*t)*x + cos(w*t) - c*x + k*t*x", "sin(w*t) - y"}) {
    const std::string to = std::string(from).find("y") != std::string::npos ? "x - y" : "-c*x";
    untimed_text.replace(untimed_text.find(from), std::string(from).size(), to);
  }
  const Model untimed = load_model_text(untimed_text, "untimed.yaml");
  EXPECT_FALSE(untimed.uses_time());
  const std::string u = generate_header(untimed, {"rk4", 0.01, 1, ScalarType::kFloat, "test"}, {});
  EXPECT_NE(u.find("  using Time = Scalar;"), std::string::npos);
}

// At t = 1e5 + 1 ms a float t is off by up to 3.9 ms; the float evaluation's time term uses
// the double t (parameters rounded to float first, as the generated constants are), then
// rounds once.
TEST(TimeTerms, FloatEvaluationComputesThemInDoubleAtTheDoubleTime) {
  const Model m = load_model_text(kTimed, "timed.yaml");
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> slots;
  slots[m.time] = 0;
  for (std::size_t i = 0; i < m.parameters.size(); ++i) slots[m.parameters[i].symbol] = static_cast<int>(i) + 1;
  const Evaluator sine(m.with_time_terms(GiNaC::sin(m.parameters[0].symbol * m.time)), slots);
  const double t = 1e5 + 1e-3;
  const float values[] = {static_cast<float>(t), 3.0F, 0.5F, 2.0F};
  const float expected = static_cast<float>(dualrate_libm_sin(3.0 * t));
  EXPECT_EQ(sine(values, t), expected);
  EXPECT_NE(dualrate_libm_sinf(3.0F * static_cast<float>(t)), expected);  // what a float t gives
}

}  // namespace
}  // namespace dualrate
