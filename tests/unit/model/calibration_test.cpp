// Calibration in the model language: parameters in the mapping form (value, unit, description,
// tunable with min and max), tunable tables, parameters derived from tunable ones, --param on a
// tunable parameter; simulate and analyze run a tunable model at its values; generate takes it
// with the schemes that can follow a calibration and refuses the others. The model-file errors are files
// in tests/models/errors/ (parameter_*.yaml, table_*limits*.yaml, errors_test.cpp).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/diagnostics.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "emit/cpp_emitter.hpp"
#include "analysis/stability_over_range.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// A refusal: exit status 1 and the output starting with `message` (FILE:LINE:COL: error: ...).
void expect_refused(const ProcessResult& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output.rfind(message, 0), 0u) << r.output;
}

// dualrate generate MODEL OPTIONS... -o OUT.
ProcessResult generate(const std::string& model, std::vector<std::string> options, const std::string& out) {
  options.insert(options.begin(), {test::cli(), "generate", model});
  options.insert(options.end(), {"-o", out});
  return run_process(options);
}

void expect_error(const ModelError& e, const std::string& file, int line, int column, const std::string& message) {
  EXPECT_EQ(e.loc().file, file) << e.format();
  EXPECT_EQ(e.loc().line, line) << e.format();
  EXPECT_EQ(e.loc().column, column) << e.format();
  EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.format();
}

// A one-state model with `parameters` (indented entries) and x' = -k*x.
std::string with_parameters(const std::string& parameters) {
  return "name: m\nparameters:\n" + parameters + "states:\n  slow:\n    x: 1\nequations:\n  x: -k*x\n";
}

// The error of a model whose parameters section is `parameters` (one entry, on line 3 of
// m.yaml): at that line, `column`, saying `message`.
void expect_parameter_error(const std::string& parameters, int column, const std::string& message) {
  expect_error(test::model_error(with_parameters(parameters)), "m.yaml", 3, column, message);
}

TEST(Calibration, MappingFormTunableParametersAndTables) {
  const Model m = test::load(test::source_path(test::kCalibrationMotor));
  const Parameter& j = test::parameter(m, "J");
  EXPECT_FALSE(j.tunable);
  EXPECT_EQ(j.unit, "");
  const Parameter& r = test::parameter(m, "R");
  EXPECT_TRUE(r.tunable);
  EXPECT_EQ(r.value, 1.0);
  EXPECT_EQ(r.min, 0.5);
  EXPECT_EQ(r.max, 2.0);
  EXPECT_EQ(r.unit, "ohm");
  EXPECT_EQ(r.range_loc.line, 7);
  EXPECT_EQ(r.range_loc.column, 34);
  EXPECT_EQ(test::parameter(m, "Kt").unit, "N*m/A");
  const Parameter& l = test::parameter(m, "L");
  EXPECT_FALSE(l.tunable);
  EXPECT_EQ(l.value, 1.0e-4);
  EXPECT_EQ(l.unit, "H");
  EXPECT_EQ(l.description, "armature inductance");
  EXPECT_DOUBLE_EQ(test::parameter(m, "tau").value, 1.0e-4);
  EXPECT_EQ(test::parameter(m, "Ke").value, 0.05);  // value: Kt, an expression in the mapping form
  ASSERT_EQ(m.tables.size(), 1u);
  const Table& friction = *m.tables[0];
  EXPECT_TRUE(friction.tunable);
  EXPECT_EQ(friction.min, 0.0);
  EXPECT_EQ(friction.max, 1.0);
  EXPECT_EQ(friction.range_loc.line, 17);
  EXPECT_EQ(friction.values, (std::vector<double>{0.08, 0.1, 0.13, 0.2}));
}

TEST(Calibration, DerivedParametersDependOnTunableOnes) {
  const Model m = test::load(test::source_path(test::kCalibrationMotor));
  for (const std::string name : {"J", "R", "Kt", "L"})
    EXPECT_FALSE(depends_on_tunable(m, test::parameter(m, name))) << name;
  EXPECT_TRUE(depends_on_tunable(m, test::parameter(m, "tau")));  // L/R
  EXPECT_TRUE(depends_on_tunable(m, test::parameter(m, "Ke")));   // value: Kt
  init_symbolic();
  const Model n = load_model_text(
      "name: n\ntables:\n  T: {breakpoints: [[0, 1]], values: [1, 2], tunable: true, min: 0, max: 3}\n"
      "  F: {breakpoints: [[0, 1]], values: [1, 2]}\nparameters:\n  a: T(0.5)\n  b: 2*a\n  c: F(0.5)\n"
      "  g: {value: 1, tunable: false}\n  k: c*g\nstates:\n  slow:\n    x: 1\nequations:\n  x: -k*x\n",
      "n.yaml");
  EXPECT_TRUE(
      depends_on_tunable(n, test::parameter(n, "a")));  // calls a tunable table: the call stays in its expression
  EXPECT_EQ(test::parameter(n, "a").value, 1.5);
  EXPECT_EQ(test::parameter(n, "c").value, 1.5);
  EXPECT_TRUE(depends_on_tunable(n, test::parameter(n, "b")));   // through a
  EXPECT_FALSE(depends_on_tunable(n, test::parameter(n, "c")));  // a table that is not tunable
  EXPECT_FALSE(test::parameter(n, "g").tunable);
  EXPECT_FALSE(depends_on_tunable(n, test::parameter(n, "k")));
}

TEST(Calibration, ParamOverrideOfATunableParameterStaysWithinItsLimits) {
  init_symbolic();
  const std::string text = read_file(test::source_path(test::kCalibrationMotor));
  const Model m = load_model_text(text, "motor.yaml", {{"R", 2.0}});
  EXPECT_TRUE(test::parameter(m, "R").tunable);
  EXPECT_TRUE(test::parameter(m, "R").overridden);
  EXPECT_EQ(test::parameter(m, "R").value, 2.0);
  EXPECT_DOUBLE_EQ(test::parameter(m, "tau").value, 0.5e-4);
  expect_error(test::model_error(text, {{"R", 2.5}}), "m.yaml", 7, 34,
               "--param R=2.5: outside the limits [0.5, 2] of tunable");
  // A derived parameter given a number is no longer derived.
  const Model n = load_model_text(text, "motor.yaml", {{"tau", 1e-3}});
  EXPECT_FALSE(depends_on_tunable(n, test::parameter(n, "tau")));
}

TEST(Calibration, TunableIsTheWordTrueOrFalse) {
  expect_parameter_error("  k: {value: 1, tunable: \"true\", min: 0, max: 2}\n", 26,
                         "tunable of parameter 'k' must be true or false, not 'true'");
  expect_parameter_error("  k: {value: 1, tunable: True, min: 0, max: 2}\n", 26, "must be true or false, not 'True'");
  init_symbolic();
  EXPECT_FALSE(
      test::parameter(load_model_text(with_parameters("  k: {value: 1, tunable: false}\n"), "m.yaml"), "k").tunable);
}

TEST(Calibration, ATunableValueIsANumberWithinItsLimits) {
  // Negative limits and exponents; the value may sit on either limit.
  init_symbolic();
  const Model m =
      load_model_text(with_parameters("  k: {value: -2.5e-1, tunable: true, min: -0.25, max: 1e3}\n"), "m.yaml");
  EXPECT_EQ(test::parameter(m, "k").value, -0.25);
  expect_parameter_error("  k: {value: 3, tunable: true, min: 0, max: 2}\n", 14,
                         "the value 3 of tunable parameter 'k' is outside its limits [0, 2]");
  expect_parameter_error("  k: {value: pi/2, tunable: true, min: 0, max: 2}\n", 14,
                         "must be a number, not an expression: 'pi/2'");
  expect_parameter_error("  k: {value: .nan, tunable: true, min: 0, max: 2}\n", 14, "is not finite");
  expect_parameter_error("  k: {value: 1, tunable: true, min: -.inf, max: 2}\n", 37,
                         "min of parameter 'k' is not finite: '-.inf'");
  expect_parameter_error("  k: {value: 1, tunable: true, min: 0, max: 1e999}\n", 45,
                         "max of parameter 'k' is not finite: '1e999'");
  expect_parameter_error("  k: {value: 1, tunable: true, min: 3, max: 2}\n", 32,
                         "the limits of parameter 'k' are empty: min 3 is not below max 2");
  expect_parameter_error("  k: {value: 1, tunable: true}\n", 17, "tunable parameter 'k' has no min and max");
  expect_parameter_error("  k: {value: 1, tunable: true, min: 0}\n", 17, "tunable parameter 'k' has no max");
  expect_parameter_error("  k: {value: 1, max: 2}\n", 17, "'max' of parameter 'k', which is not tunable");
  expect_parameter_error("  k: {}\n", 3, "parameter 'k' has no value");
  expect_parameter_error("  k: {value: 1, unit: [m, s]}\n", 23, "the unit of parameter 'k' must be a single value");
}

class TunableValuesFile : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("dualrate-calibration"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string model(const std::string& csv) {
    std::ofstream(dir_ + "/map.csv", std::ios::binary) << csv;
    const std::string path = dir_ + "/m.yaml";
    std::ofstream(path, std::ios::binary)
        << "name: m\ntables:\n  T:\n    breakpoints: [[0, 1, 2], [0, 1]]\n    values_file: map.csv\n"
           "    tunable: true\n    min: -1\n    max: 5\nstates:\n  slow:\n    x: 0\nequations:\n  x: T(t, 0.5)\n";
    return path;
  }
  std::string dir_;
};

TEST_F(TunableValuesFile, ValuesFromAFileAreTunableWithinTheLimits) {
  init_symbolic();
  const Model m = load_model_file(model("1, 2\n3, 4\n5, -1\n"));
  EXPECT_TRUE(m.tables.at(0)->tunable);
  EXPECT_EQ(m.tables.at(0)->values, (std::vector<double>{1, 2, 3, 4, 5, -1}));
  try {
    load_model_file(model("1, 2\n3, 4\n5, 6\n"));
    ADD_FAILURE() << "loaded without error";
  } catch (const ModelError& e) {
    expect_error(e, dir_ + "/map.csv", 3, 4, "value 6 of tunable table 'T' is outside its limits [-1, 5]");
  }
}

// The motor with its tunable parameters and table written as plain numbers and a plain table.
std::string folded(const std::string& text) {
  const std::string plain = std::regex_replace(text, std::regex(R"(\{value: ([-0-9.e]+), tunable: true[^}]*\})"), "$1");
  return std::regex_replace(plain, std::regex("    tunable: true\n    min: 0\n    max: 1\n"), "");
}

TEST(Calibration, SimulateAndAnalyzeRunATunableModelAtItsValues) {
  const std::string dir = make_temp_dir("dualrate-calibration");
  const std::string tunable = test::source_path(test::kCalibrationMotor), plain = dir + "/motor.yaml";
  const std::string text = folded(read_file(tunable));
  ASSERT_EQ(text.find("tunable: true"), std::string::npos) << text;
  std::ofstream(plain, std::ios::binary) << text;
  const ProcessResult a = run_process({test::cli(), "simulate", tunable, "-o", dir + "/tunable.csv"});
  const ProcessResult b = run_process({test::cli(), "simulate", plain, "-o", dir + "/plain.csv"});
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_EQ(read_file(dir + "/tunable.csv"), read_file(dir + "/plain.csv"));
  const ProcessResult c = run_process({test::cli(), "analyze", tunable, "--json"});
  const ProcessResult d = run_process({test::cli(), "analyze", plain, "--json"});
  ASSERT_EQ(c.exit_code, 0) << c.output;
  ASSERT_EQ(d.exit_code, 0) << d.output;
  EXPECT_EQ(c.output, d.output);
  std::filesystem::remove_all(dir);
}

// Generated code takes calibration with the single-rate schemes, recomputing on the target what
// depends on a tunable value (sp_ll's and quasistatic's matrices); a design that changes over a
// tunable range and that generated code does not recompute (quasistatic's scheduled constants)
// is refused at the range (loss of tunability is an error). The dual-rate tasks take calibration.
TEST(Calibration, GenerateTakesCalibrationOrRefusesAtTheRange) {
  const std::string model = test::source_path(test::kCalibrationMotor);
  const std::string out = make_temp_dir("dualrate-calibration");
  const auto at_step = [&](const std::string& file, const std::string& scheme) {
    return generate(file, {"--scheme", scheme, "--step", "1e-5"}, out);
  };
  for (const char* scheme : {"rk4", "sp_ll", "quasistatic"}) {
    const ProcessResult r = at_step(model, scheme);
    ASSERT_EQ(r.exit_code, 0) << scheme << ": " << r.output;
    const std::string header = read_file(out + "/motor.hpp");
    EXPECT_NE(header.find("struct Calibration {"), std::string::npos) << scheme;
    if (std::string(scheme) != "rk4") {  // g_z = -R/L: an exponential recomputed on the target, its plan fixed
      EXPECT_NE(
          header.find(std::string(scheme) == "sp_ll" ? "dualrate::expm::phi_blocks<" : "dualrate::expm::exponential<"),
          std::string::npos)
          << scheme;
    }
    std::filesystem::remove(out + "/motor.hpp");
  }
  const ProcessResult tasks = at_step(model, "mrabm4");  // the tasks take a computed set at a release
  ASSERT_EQ(tasks.exit_code, 0) << tasks.output;
  EXPECT_NE(read_file(out + "/motor.hpp")
                .find("using Tasks = dualrate::DualRate<Scheme, dualrate::OverrunPolicy::kSkip, "
                      "TakeConstants>;"),
            std::string::npos);
  std::filesystem::remove(out + "/motor.hpp");
  const std::string scheduled = out + "/scheduled.yaml";
  std::ofstream(scheduled) << std::regex_replace(read_file(model), std::regex("  scheme: rk4\n"),
                                                 "  scheme: quasistatic\n  linearization: scheduled\n"
                                                 "  schedule:\n    by: [omega]\n");
  const ProcessResult lost = at_step(scheduled, "quasistatic");
  expect_refused(lost, scheduled +
                           ":7:34: error: quasistatic's precomputed constants change with tunable "
                           "parameter 'R' (at R = 0.5): generated code cannot recompute them on the target");
  std::filesystem::remove(scheduled);
  EXPECT_TRUE(std::filesystem::is_empty(out));
  std::filesystem::remove_all(out);
}

// --jacobian's Jacobian reads the calibrated parameters by name (it follows them); a constant
// mass matrix's inverse is folded, so a calibrated parameter in it (quarter_car_relative's
// [[ms + mu, mu], [mu, mu]] with ms tunable) is refused.
TEST(Calibration, JacobianFollowsAndAConstantMassMatrixIsRefused) {
  const std::string out = make_temp_dir("dualrate-calibration");
  const ProcessResult jacobian =
      generate(test::source_path(test::kCalibrationMotor), {"--scheme", "rk4", "--jacobian"}, out);
  ASSERT_EQ(jacobian.exit_code, 0) << jacobian.output;
  const std::string header = read_file(out + "/motor.hpp");
  EXPECT_NE(header.find("static void jacobian("), std::string::npos);
  // d(I')/dI = -R/L: the tunable R by name, the fixed L = 1e-4 folded.
  EXPECT_NE(header.find("= -Scalar(10000)*R;"), std::string::npos) << header;
  std::filesystem::remove(out + "/motor.hpp");
  const std::string text = read_file(test::source_path("models/quarter_car_relative.yaml"));
  const std::string model = out + "/quarter_car_relative.yaml";
  std::ofstream(model) << std::regex_replace(text, std::regex("\n  ms: 300\n"),
                                             "\n  ms: {value: 300, tunable: true, min: 200, max: 400}\n");
  const auto ms = text.begin() + static_cast<long>(text.find("\n  ms:") + 1);
  const long line = 1 + std::count(text.begin(), ms, '\n');
  const ProcessResult mass = generate(model, {"--scheme", "rk4"}, out);
  expect_refused(mass,
                 fmt::format("{}:{}:35: error: parameter 'ms' is in the mass matrix, which is constant", model, line));
  std::filesystem::remove_all(out);
}

// The generated calibration code's own names end in '_' (no model name does): parameters named
// k, a, gz, v and out compile with -Wshadow and verify, with their scenario's write, for the two
// schemes that recompute matrices.
TEST(Calibration, ModelNamesDoNotClashWithTheGeneratedOnes) {
  for (const char* scheme : {"sp_ll", "quasistatic"}) {
    const ProcessResult r = run_process(
        {test::cli(), "verify", test::source_path("tests/models/calibration/names.yaml"), "--scheme", scheme});
    EXPECT_EQ(r.exit_code, 0) << scheme << ": " << r.output;
    EXPECT_NE(r.output.find("calibration at 0.05 (step 50): a = 150, k = 3: applied"), std::string::npos) << r.output;
  }
}

// smfe keeps h_s and N fixed, so its design holds over the calibration range: g_z = -R/L is
// fastest at R = 2 (-2e4 1/s), whose inner step 1/2e4 = 5e-5 s the header fixes (at the model's
// R = 1 alone it would be 1e-4 s).
TEST(Calibration, SmfeDesignHoldsOverTheCalibrationRange) {
  const std::string out = make_temp_dir("dualrate-calibration");
  const ProcessResult r =
      generate(test::source_path(test::kCalibrationMotor), {"--scheme", "smfe", "--step", "1e-3"}, out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string header = read_file(out + "/motor.hpp");
  std::smatch h_s;
  ASSERT_TRUE(std::regex_search(header, h_s, std::regex(R"(static constexpr Scalar inner_step = [^;]*;  // (\S+))")))
      << header;
  // L / R at R = 2 through the eigenvalue solver: to a few units of double rounding.
  EXPECT_NEAR(std::stod(h_s[1]), 1.0e-4 / 2, 1e-14 * 5e-5);
  EXPECT_NE(header.find("at every point of the calibration range"), std::string::npos);
  std::filesystem::remove_all(out);
}

// rk4 at h = 2.7e-4 is stable at the model's values (largest stable step 2.785e-4 with
// g_z = -R/L = -10^4) but not where R is larger: the worst point of the range is named (the
// friction curve, which barely reaches the fast mode, at one of its extreme patterns).
TEST(Calibration, GenerateChecksStabilityOverTheCalibrationRange) {
  const std::string model = test::source_path(test::kCalibrationMotor);
  const std::string out = make_temp_dir("dualrate-calibration");
  const ProcessResult r = generate(model, {"--scheme", "rk4", "--step", "2.7e-4"}, out);
  expect_refused(r, model +
                        ":7:34: error: rk4 at h = 0.00027 is unstable over the calibration range: the "
                        "one-step map's spectral radius (relative to the model's growth where it grows) reaches "
                        "19.3652 > 1 at R = 2, Kt = 0.03, friction: ");
  EXPECT_TRUE(std::filesystem::is_empty(out));
  const ProcessResult anyway = generate(model, {"--scheme", "rk4", "--step", "2.7e-4", "--allow-unstable"}, out);
  EXPECT_EQ(anyway.exit_code, 0) << anyway.output;
  std::filesystem::remove_all(out);
}

// The range's worst point inside it, at none of the grid's points (interior_maximum.yaml: rk4
// unstable for |k - 1| < 0.40 only), is found by the search, to 1/64 of the range; the
// range [1.5, 3], which leaves it out, is stable.
TEST(Calibration, StabilityOverTheRangeFindsAnInteriorMaximum) {
  const std::string model = test::source_path("tests/models/calibration/interior_maximum.yaml");
  const std::string out = make_temp_dir("dualrate-calibration");
  const ProcessResult r = generate(model, {}, out);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  std::smatch k;
  ASSERT_TRUE(std::regex_search(r.output, k, std::regex(R"(unstable over the calibration range: .* at k = (\S+) )")))
      << r.output;
  EXPECT_NEAR(std::stod(k[1]), 1.0, 3.0 / 64);
  const std::string narrowed = out + "/narrowed.yaml";
  std::ofstream(narrowed) << std::regex_replace(read_file(model), std::regex("min: 0,"), "min: 1.5,");
  const ProcessResult stable = generate(narrowed, {}, out);
  EXPECT_EQ(stable.exit_code, 0) << stable.output;
  std::filesystem::remove_all(out);
}

// smfe keeps its h_s and N at every write: the range is judged with the header's design at each
// point. Over k in [100, 400] the design for the whole range is stable everywhere, and so is the
// scheme's own design at each point; a design made for k in [100, 120] (dead-beat h_s = 1/120)
// is unstable where k h_s > 2, which judging it at every point finds.
TEST(Calibration, StabilityOverTheRangeJudgesTheHeadersDesign) {
  const std::string text = R"(name: fast_k
parameters:
  k: {value: 110, tunable: true, min: 100, max: 400}
states:
  slow:
    x: 1
  fast:
    z: 0
equations:
  x: -x + 0.1*z
  z: -k*z + x
simulation: {t_end: 1, scheme: smfe, step: 0.1}
)";
  const Model m = load_model_text(text, "fast_k.yaml");
  std::string narrow_text = text;
  narrow_text.replace(narrow_text.find("max: 400"), 8, "max: 120");
  const Model narrow = load_model_text(narrow_text, "fast_k.yaml");
  const GenerateRequest request{"smfe", 0.1, 1, ScalarType::kDouble, "test"};
  const SchemeDesign whole = precompute_scheme(m, request);
  const SchemeDesign made_narrow = precompute_scheme(narrow, request);
  EXPECT_TRUE(stability_over_range(m, "smfe", 0.1, 1, {}, &whole).stable);
  EXPECT_TRUE(stability_over_range(m, "smfe", 0.1, 1, {}).stable);
  const RangeStability r = stability_over_range(m, "smfe", 0.1, 1, {}, &made_narrow);
  EXPECT_FALSE(r.stable);
  EXPECT_EQ(r.where, "k = 400");
  EXPECT_GT(r.spectral_radius, 1.5);
}

// A tunable table's values are varied over their limits: table_slope.yaml is stable with its
// values and unstable where they alternate min/max (its slope -1000 at the initial state);
// alternating max/min, where the model itself grows (+1000 1/s), is said so, not refused.
TEST(Calibration, StabilityOverTheRangeVariesTheTables) {
  const std::string model = test::source_path("tests/models/calibration/table_slope.yaml");
  const std::string out = make_temp_dir("dualrate-calibration");
  const ProcessResult r = generate(model, {}, out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find(model + ":12:5: error: rk4 at h = 0.003 is unstable over the calibration range: the "
                                  "one-step map's spectral radius (relative to the model's growth where it grows) "
                                  "reaches 1.375 > 1 at T: alternating min/max (the worst of the 5 points checked"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("note: the model itself grows at 1 of the 5 points of the calibration range checked "
                          "(fastest at T: alternating max/min: a mode at +1000 1/s)"),
            std::string::npos)
      << r.output;
  std::filesystem::remove_all(out);
}

// Tunable tables alone recompute nothing in double: recalibrate() then declares no double
// alias, which the strict flags of generated code (-Werror, unused local typedefs) refuse.
// The float build of table_slope.yaml compiles and verifies (verify builds it whatever the
// range's stability, which generate refuses above).
TEST(Calibration, TunableTablesAloneCompileInFloat) {
  const std::string model = test::source_path("tests/models/calibration/table_slope.yaml");
  const ProcessResult r = run_process({test::cli(), "verify", model, "--scalar", "float"});
  EXPECT_EQ(r.output.find("did not compile"), std::string::npos) << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace dualrate
