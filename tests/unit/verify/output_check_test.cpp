// verify's check of the outputs (verify/output_check.hpp): the roundings counted, where the
// comparison from the generated state is exact, and defects in an output equation caught.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/process.hpp"
#include "emit/cpp_emitter.hpp"
#include "reference/output_sensitivity.hpp"
#include "test_support.hpp"
#include "registry/registry.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

TEST(OutputOperations, CountsTheRoundingsOfAnExpression) {
  const GiNaC::symbol x("x"), y("y"), z("z");
  EXPECT_EQ(output_operations(x), 0);
  EXPECT_EQ(output_operations(x * y + z), 2);
  EXPECT_EQ(output_operations(GiNaC::pow(x, 3)), 2);       // x*x*x
  EXPECT_EQ(output_operations(GiNaC::pow(x, -2)), 2);      // 1/(x*x)
  EXPECT_EQ(output_operations(GiNaC::sin(x) * y + 2), 4);  // sin's own rounding and its result's, *, +
  EXPECT_EQ(output_operations(GiNaC::sqrt(x)), 2);
}

// Tables are evaluated with the runtime's arithmetic (Table::evaluate_as_generated): only a
// solved acceleration rounds otherwise.
TEST(OutputExactDifference, TablesRoundAsTheGeneratedCode) {
  EXPECT_EQ(output_exact_difference(test::load(test::source_path("models/dc_motor.yaml"))), "");
  EXPECT_EQ(output_exact_difference(test::load(test::source_path("models/f16_longitudinal.yaml"))), "");
}

// The model's outputs at x = 0 and at a state: dy/dx and the terms rho_k is relative to, for
// dc_motor's shaft_power = (Kt I - b omega) omega: d/d omega = Kt I - 2 b omega, d/dI = Kt omega.
TEST(OutputSensitivity, DifferentiatesThroughTheVariables) {
  const Model m = test::load(test::source_path("models/dc_motor.yaml"));
  const OutputSensitivity s(m);
  double Kt = 0, b = 0;
  for (const auto& p : m.parameters) {
    if (p.name == "Kt") Kt = p.value;
    if (p.name == "b") b = p.value;
  }
  const std::vector<double> x{0.0, 100.0, 2.0}, u{12.0, 0.0};
  const OutputSensitivity::At a = s.at(0.1, x, u);
  std::size_t power = 0;
  while (m.outputs[power].name != "shaft_power") ++power;
  const auto k = static_cast<Eigen::Index>(power);
  EXPECT_DOUBLE_EQ(a.d_dx(k, 1), Kt * 2.0 - 2 * b * 100.0);
  EXPECT_DOUBLE_EQ(a.d_dx(k, 2), Kt * 100.0);
  EXPECT_DOUBLE_EQ(a.d_dx(k, 0), 0.0);
  EXPECT_GT(a.terms(k), std::fabs((Kt * 2.0 - b * 100.0) * 100.0));
}

// verify --header of dc_motor's rk4 header in float with `edit` applied: the outputs are
// compared from the generated state bit for bit.
VerifyResult verify_dc_motor(const std::function<std::string(std::string)>& edit) {
  const Model m = test::load(test::source_path("models/dc_motor.yaml"));
  VerifyOptions o;
  o.generate = {"rk4", m.simulation.step.value(), 1, ScalarType::kFloat, "test"};
  o.t_end = 0.05;
  const std::filesystem::path dir = make_temp_dir("dualrate-output-mutation");
  o.header_file = (dir / (m.name + ".hpp")).string();
  std::ofstream(o.header_file) << edit(generate_header(m, o.generate, precompute_scheme(m, o.generate)));
  const VerifyResult r = verify(m, o);
  std::filesystem::remove_all(dir);
  return r;
}

TEST(OutputCheck, TheHeaderAsGeneratedGivesTheModelsOutputsBitForBit) {
  const VerifyResult r = verify_dc_motor([](std::string h) { return h; });
  EXPECT_EQ(r.error, "");
  ASSERT_TRUE(r.outputs) << r.json();
  EXPECT_TRUE(r.outputs->exact_skipped.empty());
  EXPECT_EQ(r.outputs->samples, r.steps + 1);
  EXPECT_EQ(r.outputs->differing, 0) << r.json();
  EXPECT_LE(r.outputs->ratio, 1.0) << r.json();
  EXPECT_TRUE(r.pass) << r.json();
}

// An output equation off by 0.1%: the states are untouched, so every state check passes (the
// exact step check too); the outputs from the generated state differ from the first row whose
// output is not zero.
TEST(OutputCheck, AnOutputOffByATenthOfAPercentFails) {
  const VerifyResult r = verify_dc_motor([](std::string h) {
    const std::string line = "    y_[2] = ";
    const std::size_t at = h.find(line);
    if (at == std::string::npos) return std::string();
    const std::size_t end = h.find(';', at);
    return h.substr(0, at + line.size()) + "Scalar(1.001)*(" + h.substr(at + line.size(), end - at - line.size()) +
           ")" + h.substr(end);
  });
  EXPECT_EQ(r.error, "");
  EXPECT_LE(r.max_error, r.tolerance) << r.json();
  ASSERT_TRUE(r.exact_step) << r.json();
  EXPECT_EQ(r.exact_step->differing, 0) << r.json();
  ASSERT_TRUE(r.outputs) << r.json();
  EXPECT_GT(r.outputs->differing, 0) << r.json();
  EXPECT_EQ(r.outputs->differing_output, "electrical_power");
  EXPECT_FALSE(r.pass) << r.json();
}

// An output that reads tables is compared bit for bit too, and so is the step through them:
// the F-16's outputs and states as generated, in float.
TEST(OutputCheck, AnOutputThatReadsATableIsTheGeneratedOutputBitForBit) {
  const Model m = test::load(test::source_path("models/f16_longitudinal.yaml"));
  VerifyOptions o;
  o.generate = {"rk4", m.simulation.step.value(), 1, ScalarType::kFloat, "test"};
  o.t_end = 3;
  const VerifyResult r = verify(m, o);
  EXPECT_EQ(r.error, "");
  ASSERT_TRUE(r.outputs) << r.json();
  EXPECT_EQ(r.outputs->exact_skipped, "");
  EXPECT_EQ(r.outputs->differing, 0) << r.json();
  ASSERT_TRUE(r.exact_step) << r.json();
  EXPECT_EQ(r.exact_step->differing, 0) << r.json();
  EXPECT_TRUE(r.pass) << r.json();
}

}  // namespace
}  // namespace dualrate
