// Model-file errors: every file in tests/models/errors/ is rejected with the position and
// message its first lines state, by the loader and by the CLI; hostile input (deep nesting,
// garbage bytes, huge expressions) gives a ModelError, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "base/diagnostics.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "base/process.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class ModelErrorFile : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelErrorFile, LoaderReportsPositionAndMessage) {
  const std::string& path = GetParam();
  const test::Expectation e = test::read_expectation(path);
  ASSERT_GT(e.line, 0) << path << ": the first line must be '# expect: LINE:COL: message'";
  init_symbolic();
  try {
    check_model_scheme(load_model_file(path));
    FAIL() << path << " loaded without error";
  } catch (const ModelError& error) {
    test::expect_error_as_stated(error, path, e);
  }
}

// The CLI prints the error to stderr and nothing to stdout (run_process captures both), exits
// with status 1 and writes no header.
TEST_P(ModelErrorFile, CliExitsWithStatus1AndThePosition) {
  const std::string& path = GetParam();
  const test::Expectation e = test::read_expectation(path);
  ASSERT_GT(e.line, 0);
  const std::string out = make_temp_dir("dualrate-errors");
  const ProcessResult r = run_process({test::cli(), "generate", path, "-o", out});
  test::expect_cli_error_as_stated(r.exit_code, r.output, path, e);
  EXPECT_TRUE(std::filesystem::is_empty(out));
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Files, ModelErrorFile, ::testing::ValuesIn(test::yaml_files({"tests/models/errors"})),
                         [](const auto& info) {
                           std::string name = test::stem(info.param);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// A model whose one equation, x: ..., starts at line 6, column 6.
std::string with_equation(const std::string& expression) {
  return "name: m\nstates:\n  slow:\n    x: 1\nequations:\n  x: " + expression + "\n";
}

std::string repeat(const std::string& s, std::size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

void expect_error(const ModelError& e, int line, int column, const std::string& message) {
  EXPECT_EQ(e.loc().line, line) << e.format();
  EXPECT_EQ(e.loc().column, column) << e.format();
  EXPECT_TRUE(contains(e.what(), message)) << e.format();
}

TEST(ModelErrors, DeepParentheses) {
  expect_error(test::model_error(with_equation(repeat("(", 100000) + "x" + repeat(")", 100000))), 6, 6, "is too long");
  // Within the length limit: the 65th '(' is one level too deep.
  expect_error(test::model_error(with_equation(repeat("(", 9000) + "x" + repeat(")", 9000))), 6, 6 + 64,
               "nests deeper than 64 levels");
  expect_error(test::model_error(with_equation(repeat("sin(", 3000) + "x" + repeat(")", 3000))), 6, 6 + 64 * 4 + 3,
               "nests deeper than 64 levels");
  expect_error(test::model_error(with_equation(repeat("(", 9000))), 6, 6 + 64, "nests deeper than 64 levels");
  expect_error(test::model_error(with_equation(repeat(")", 9000))), 6, 6, "unmatched ')'");
}

TEST(ModelErrors, LongChainsOfSigns) {
  expect_error(test::model_error(with_equation(repeat("-", 100000) + "x")), 6, 6, "is too long");
  expect_error(test::model_error(with_equation(repeat("-", 9000) + "x")), 6, 6 + 8, "too many operators in a row");
  expect_error(test::model_error(with_equation("0" + repeat(" -", 9000) + " x")), 6, 6 + 18,
               "too many operators in a row");
  expect_error(test::model_error(with_equation(repeat("-(", 5000) + "x" + repeat(")", 5000))), 6, 6 + 64 * 2 + 1,
               "nests deeper than 64 levels");
  // A sign after an operator nests (x^(-x^(-x ...))): bounded like parentheses.
  expect_error(test::model_error(with_equation("x" + repeat("^-x", 5000))), 6, 6 + 2 + 64 * 3,
               "nests deeper than 64 levels");
  // ... but does not accumulate along a product: x*(-x)*(-x)... is flat.
  const Model m = test::load_text(with_equation("x" + repeat("*-x", 5000)));
  EXPECT_TRUE((m.states[0].rhs - GiNaC::pow(m.states[0].symbol, 5001)).is_zero()) << m.states[0].rhs;
}

TEST(ModelErrors, DeeplyNestedYaml) {
  expect_error(test::model_error(repeat("[", 100000)), 1, 1, "invalid YAML: nested more than");
  expect_error(test::model_error(repeat("{", 100000)), 1, 1, "invalid YAML: nested more than");
  EXPECT_TRUE(contains(test::model_error(with_equation(repeat("[", 100000))).what(), "invalid YAML: nested more than"));
  std::string blocks;
  for (int i = 0; i < 3000; ++i) blocks += std::string(i, ' ') + "a:\n";
  EXPECT_TRUE(contains(test::model_error(blocks).what(), "invalid YAML: nested more than"));
}

TEST(ModelErrors, BinaryGarbage) {
  std::mt19937 random(20261122);
  for (int i = 0; i < 300; ++i) {
    std::string garbage(1 + random() % 500, '\0');
    for (char& c : garbage) c = static_cast<char>(random());
    SCOPED_TRACE(i);
    test::model_error(garbage);
    test::model_error("name: m\n" + garbage);
    test::model_error(with_equation(garbage));
  }
  const char nul[] = "name: m\0\nstates: {slow: {x: 1}}\nequations: {x: -x}\n";
  test::model_error(std::string(nul, sizeof nul - 1));
  expect_error(test::model_error(with_equation("x +\x01 1")), 6, 9, "unexpected character U+0001");
  expect_error(test::model_error(with_equation("x\xc2\xa0+ 1")), 6, 7, "unexpected character U+00A0");
  expect_error(test::model_error(with_equation("x \xff 1")), 6, 8, "unexpected byte 0xFF");
}

TEST(ModelErrors, HugeExpressions) {
  expect_error(test::model_error(with_equation("x" + repeat(" + x", 262144))), 6, 6,
               "is too long (1048577 characters, at most 20000)");
  expect_error(test::model_error(with_equation(repeat("1", 1000000))), 6, 6, "is too long");
  // Within the length limit: a huge number is out of range, a long sum loads.
  expect_error(test::model_error(with_equation(repeat("9", 19999))), 6, 6, "number out of range");
  // Exact arithmetic that would take GiNaC minutes or all memory is refused at once.
  expect_error(test::model_error(with_equation("x*9^(9^9)")), 6, 6, "a power of numbers with more than 1048576 bits");
  expect_error(test::model_error(with_equation("x*(1/3)^(-2000000)")), 6, 6, "a power of numbers");
  expect_error(test::model_error(with_equation("x*0.82^(-387E8^2.)")), 6, 6, "a power of numbers");
  expect_error(test::model_error(with_equation("x + 1e22222222222")), 6, 10, "number out of range: '1e22222222222'");
  const Model exact = test::load_text(with_equation("x*2^10*(2/3)^2*(-1)^(9^9)"));
  EXPECT_TRUE((exact.states[0].rhs + GiNaC::numeric(4096, 9) * exact.states[0].symbol).is_zero())
      << exact.states[0].rhs;
  const Model m = test::load_text(with_equation("x" + repeat("+x", 9999)));
  EXPECT_TRUE((m.states[0].rhs - 10000 * m.states[0].symbol).is_zero());
}

// GiNaC's parser applies a sign after an operator to the rest of the expression (2*-3+4 would
// be 2*(-3+4)); the loader must give the usual meaning, and reject a^b^c, which GiNaC cannot
// parse, at the second '^'.
TEST(ModelErrors, SignAfterOperatorBindsToItsOperand) {
  const std::vector<std::pair<std::string, double>> cases = {
      {"2*-3+4", -2}, {"2^-1+1", 1.5},       {"2/-2*4", -4},       {"1 - -2 - 1", 2},
      {"-2^2", -4},   {"2*-3^2", -18},       {"2^-(1+1)*4", 1},    {"-(2+3)*-2", 10},
      {"2*--3", 6},   {"min(-1+2, -3)", -3}, {"2^-3^2", 1.0 / 512}};
  for (const auto& [text, value] : cases) {
    const Model m =
        test::load_text("name: m\nparameters:\n  p: " + text + "\nstates:\n  slow:\n    x: 1\nequations:\n  x: -x\n");
    EXPECT_DOUBLE_EQ(m.parameters[0].value, value) << text;
  }
  expect_error(test::model_error(with_equation("x^2^x")), 6, 9, "ambiguous power");
  test::load_text(with_equation("(x^2)^x + x^(2^x)"));
}

// User names that are GiNaC built-ins (I the imaginary unit, E, D, Pi, gamma, beta, lambda,
// eps, Euler, Catalan, zeta, psi, Li) are ordinary symbols with the values the model gives.
TEST(ModelErrors, OddNamesAreOrdinarySymbols) {
  const Model m = test::load(test::source_path("tests/models/valid/odd_names.yaml"));
  const std::vector<std::pair<std::string, double>> parameters = {
      {"I", 2},    {"E", 3},      {"D", 0.5},   {"Pi", 1.5},  {"gamma", 0.25},
      {"beta", 4}, {"lambda", 2}, {"eps", 0.1}, {"Euler", 1}, {"Catalan", 0.75}};
  ASSERT_EQ(m.parameters.size(), parameters.size());
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    EXPECT_EQ(m.parameters[i].name, parameters[i].first);
    EXPECT_EQ(m.parameters[i].value, parameters[i].second) << parameters[i].first;
  }
  EXPECT_EQ(m.states[0].initial_value, 1.5);   // Pi, not 3.14159...
  EXPECT_EQ(m.states[1].initial_value, 0.75);  // Catalan, not 0.91596...
  // At x = 1, y = 0.5:  x' = -lambda*x + I*E = -2 + 6 = 4 (real: I is not the imaginary unit);
  // y' = (D*x - y)/eps - gamma*beta*y + Euler = 0 - 0.5 + 1 = 0.5.
  const std::vector<GiNaC::ex> rhs = m.resolved_rhs();
  GiNaC::exmap at;
  at[m.states[0].symbol] = 1;
  at[m.states[1].symbol] = GiNaC::numeric(1, 2);
  const std::vector<double> expected = {4, 0.5};
  for (std::size_t i = 0; i < rhs.size(); ++i) {
    const GiNaC::ex v = rhs[i].subs(at).evalf();
    ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(v) && GiNaC::ex_to<GiNaC::numeric>(v).is_real()) << v;
    EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(v).to_double(), expected[i]) << m.states[i].name;
  }
  const std::string out = make_temp_dir("dualrate-odd-names");
  const ProcessResult r =
      run_process({test::cli(), "generate", test::source_path("tests/models/valid/odd_names.yaml"), "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace dualrate
