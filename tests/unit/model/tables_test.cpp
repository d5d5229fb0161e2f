// Look-up tables (model/tables.hpp): integrals of tables of time against their closed forms
// (1-D to 3-D, clamp and linear extrapolation, flat), derivatives through a table against
// the cells' slopes, values_file against inline values and its errors at the CSV's own
// line, and the float check of breakpoints. The model-file errors of the tables section are
// files in tests/models/errors/ (table_*.yaml, errors_test.cpp). The reference core's
// arithmetic of a table against the runtime's lookup, bit for bit.
#include <dualrate/lookup.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/process.hpp"
#include "emit/cpp_emitter.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "numeric/linearization.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// x' = the table expression `rate` (of t), from x(0) = 0, integrated on a grid that holds
// every breakpoint: rk4 (Simpson's rule on each step here) integrates a continuous piecewise
// linear function of t exactly, euler (left end points) a piecewise constant one, so x(t_end)
// is the closed-form integral up to rounding: a few dozen additions of numbers below 500, each
// rounded to 1.1e-16 relative, far below the 1e-11 (1e-9 for the 3-D table's ~500) used.
double integral(const std::string& tables, const std::string& rate, double t_end, const std::string& scheme = "rk4") {
  const double h = 0.125;
  const Model m =
      test::load_text("name: m\ntables:\n" + tables + "states:\n  slow:\n    x: 0\nequations:\n  x: " + rate + "\n");
  const ReferenceCore core(m);
  const Trace trace = core.simulate(RunOptions{scheme, h, t_end, 1});
  EXPECT_NEAR(trace.rows.back()[0], t_end, 1e-12);
  return trace.rows.back()[1];
}

const std::string kRamp =  // 1-D over [0, 2]: 1 -> 3 -> -1 at t = 0, 1, 2
    "  R:\n    breakpoints: [[0, 1, 2]]\n    values: [1, 3, -1]\n";

TEST(Tables, IntegralOfAOneDimensionalTableOfTime) {
  // Trapezoids: (1 + 3)/2 + (3 - 1)/2 = 3 over [0, 2].
  EXPECT_NEAR(integral(kRamp, "R(t)", 2), 3, 1e-11);
  // Clamp holds -1 after t = 2 (and 1 before 0: R(-t) reads the mirror image).
  EXPECT_NEAR(integral(kRamp, "R(t)", 3), 3 - 1, 1e-11);
  EXPECT_NEAR(integral(kRamp, "R(t - 1)", 3), 1 + 3, 1e-11);
  // Linear extrapolation continues the end cells: slope -4 after 2, so R = -1 - 4 (t - 2).
  const std::string linear = kRamp + "    extrapolation: linear\n";
  EXPECT_NEAR(integral(linear, "R(t)", 3), 3 + (-1 - 2), 1e-11);
  // Before 0 the first cell's slope 2: R(t - 1) = 1 + 2 (t - 1) on [0, 1], integral 0.
  EXPECT_NEAR(integral(linear, "R(t - 1)", 3), 0 + 3, 1e-11);
  // Flat: the lower breakpoint's value; the jump at t = 1 lies on the grid.
  const std::string flat = "  F:\n    breakpoints: [[0, 1, 2]]\n    values: [1, 3, -1]\n    interpolation: flat\n";
  EXPECT_NEAR(integral(flat, "F(t)", 3, "euler"), 1 + 3 - 1, 1e-11);
}

TEST(Tables, IntegralOfTwoAndThreeDimensionalTables) {
  // T(t, y) over t in {0, 2}, y in {0, 1}: T(t, 0.25) = (1 - 0.25) T(t, 0) + 0.25 T(t, 1), each
  // linear in t: integral over [0, 2] = 0.75 (0 + 2) + 0.25 (4 + 8) = 4.5.
  const std::string two = "  T:\n    breakpoints: [[0, 2], [0, 1]]\n    values: [[0, 4], [2, 8]]\n";
  EXPECT_NEAR(integral(two, "T(t, 0.25)", 2), 4.5, 1e-11);
  // Clamped in y: T(t, 5) = T(t, 1), integral 4 + 8 = 12; linear in y: T(t, 2) = 2 T(t,1) - T(t,0).
  EXPECT_NEAR(integral(two, "T(t, 5)", 2), 12, 1e-11);
  EXPECT_NEAR(integral(two + "    extrapolation: linear\n", "T(t, 2)", 2), 2 * 12 - 2, 1e-11);
  // 3-D: U(t, y, z) = t + 10 y + 100 z tabulated on t in {0, 1, 3}, y in {0, 1}, z in {0, 2}:
  // multilinear, so reproduced exactly; integral over [0, 3] of t + 10 (0.5) + 100 (1.5) =
  // 4.5 + 15 + 450.
  std::string values = "[";
  for (double t : {0.0, 1.0, 3.0}) {
    values += std::string(values.size() > 1 ? ", " : "") + "[";
    for (double y : {0.0, 1.0}) {
      values += std::string(y > 0 ? ", " : "") + "[";
      for (double z : {0.0, 2.0}) values += (z > 0 ? ", " : "") + std::to_string(t + 10 * y + 100 * z);
      values += "]";
    }
    values += "]";
  }
  values += "]";
  const std::string three = "  U:\n    breakpoints: [[0, 1, 3], [0, 1], [0, 2]]\n    values: " + values + "\n";
  EXPECT_NEAR(integral(three, "U(t, 0.5, 1.5)", 3), 4.5 + 15 + 450, 1e-9);
}

// The Jacobian through a table is the cell's slope (the right cell at a breakpoint), 0 where
// the argument is clamped; the analysis evaluates it at a point.
TEST(Tables, JacobianIsTheCellsSlope) {
  const Model m = test::load_text("name: m\ntables:\n" + kRamp +
                                  "states:\n  slow:\n    x: 0.5\n    y: 0\nequations:\n  x: R(x)\n  y: R(2*x + y)\n");
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  const auto at = [&](double x, double y) { return evaluate(m, j, 0, {x, y}, {}); };
  EXPECT_DOUBLE_EQ(at(0.5, 0)(0, 0), 2);
  EXPECT_DOUBLE_EQ(at(1, 0)(0, 0), -4);   // breakpoint: the cell on its right
  EXPECT_DOUBLE_EQ(at(2, 0)(0, 0), -4);   // last breakpoint: the last cell
  EXPECT_DOUBLE_EQ(at(2.5, 0)(0, 0), 0);  // clamped
  EXPECT_DOUBLE_EQ(at(0.25, 0.1)(1, 0), 2 * 2);
  EXPECT_DOUBLE_EQ(at(0.25, 0.6)(1, 1), -4);
  // Finite differences inside a cell agree (the interpolant is linear there).
  const ReferenceCore core(m);
  ReferenceCore::Vector f0(2), f1(2);
  core.derivatives(0, {0.3, 0.2}, {}, f0);
  core.derivatives(0, {0.3 + 1e-6, 0.2}, {}, f1);
  EXPECT_NEAR((f1[1] - f0[1]) / 1e-6, at(0.3, 0.2)(1, 0), 1e-6);
}

// The schemes that precompute at a design point (sp_ll with its blocks frozen, smfe's inner
// step, quasistatic's reduced form) accept a table model and generate it, and their reference
// runs reach a state near rk4's: a slow x driven through a 1-D table and a fast z through a 2-D
// one, over 2 s. The bound is a sanity check, not these schemes' accuracy (tested in their
// seeds' reproductions): 10% of x(2) = 1.88, where smfe's first-order error at D = 0.1 is 0.064
// and frozen sp_ll's and quasistatic's are below 0.05.
TEST(Tables, SchemesThatPrecomputeAcceptATableModel) {
  const Model m = test::load_text("name: m\ntables:\n" + kRamp +
                                  "  G:\n    breakpoints: [[0, 1, 2], [-1, 1]]\n    values: [[0, 1], [2, 4], [1, -1]]\n"
                                  "states:\n  slow:\n    x: 0.5\n  fast:\n    z: 0\nequations:\n  x: R(t) - 0.5*x + z\n"
                                  "  z: (G(x, z) - 20*z)\n");
  const ReferenceCore core(m);
  const double t_end = 2;
  const std::vector<double> exact = core.simulate(RunOptions{"rk4", 1e-3, t_end, 1}).rows.back();
  struct Case {
    const char* scheme;
    double step;
    bool frozen;
  };
  for (const Case& c : {Case{"sp_ll", 0.01, true}, Case{"smfe", 0.1, false}, Case{"quasistatic", 0.01, false}}) {
    GenerateRequest o;
    o.scheme = c.scheme;
    o.step = c.step;
    Model lm = m;
    if (c.frozen) lm.simulation.linearization = Linearization::kFrozen;
    const SchemeDesign design = precompute_scheme(lm, o);
    EXPECT_NE(generate_header(m, o, design).find("static Scalar G(Scalar x0_, Scalar x1_)"), std::string::npos)
        << c.scheme;
    RunOptions run{c.scheme, c.step, t_end, 1};
    run.linearization = lm.simulation.linearization;
    run.scheme_options = design.options;
    const std::vector<double> last = core.simulate(run).rows.back();
    EXPECT_NEAR(last[1], exact[1], 0.1 * exact[1]) << c.scheme;
  }
}

class ValuesFile : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("dualrate-tables"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // A model with table T over 3 x 2 breakpoints read from `csv`, its text written next to it.
  std::string model(const std::string& csv) {
    write("map.csv", csv);
    return write("m.yaml",
                 "name: m\ntables:\n  T:\n    breakpoints: [[0, 1, 2], [0, 1]]\n    values_file: map.csv\n"
                 "states:\n  slow:\n    x: 0\nequations:\n  x: T(t, 0.5)\n");
  }
  ModelError error(const std::string& csv) {
    const std::string path = model(csv);
    init_symbolic();
    try {
      load_model_file(path);
    } catch (const ModelError& e) {
      return e;
    }
    ADD_FAILURE() << "loaded without error";
    return ModelError({}, "");
  }
  std::string dir_;
};

TEST_F(ValuesFile, EqualsInlineValues) {
  init_symbolic();
  const Model m = load_model_file(model("# torque map, N m\n1, 2\n\n3.5,4\n  5 , -6e-1\n"));
  ASSERT_EQ(m.tables.size(), 1u);
  EXPECT_EQ(m.tables[0]->values, (std::vector<double>{1, 2, 3.5, 4, 5, -0.6}));
  EXPECT_EQ(m.tables[0]->values_file, "map.csv");
}

TEST_F(ValuesFile, WrongShapeIsReportedAtTheFilesOwnLine) {
  const std::string csv = dir_ + "/map.csv";
  auto expect = [&](const ModelError& e, int line, int column, const std::string& message) {
    EXPECT_EQ(e.loc().file, csv) << e.format();
    EXPECT_EQ(e.loc().line, line) << e.format();
    EXPECT_EQ(e.loc().column, column) << e.format();
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.format();
  };
  expect(error("1, 2\n3, 4\n"), 2, 1, "2 rows of values, not 3");
  expect(error("1, 2\n3, 4\n5, 6\n7, 8\n"), 4, 1, "more than 3 rows");
  expect(error("1, 2\n3, 4, 9\n5, 6\n"), 2, 7, "row 2 has more than 2 values");
  expect(error("1, 2\n3\n5, 6\n"), 2, 1, "row 2 has 1 values, not 2");
  expect(error("1, 2\n3, x4\n5, 6\n"), 2, 4, "'x4' is not a finite number");
  expect(error("1, 2\n3, nan\n5, 6\n"), 2, 4, "'nan' is not a finite number");
  expect(error("1, 2\n3,\n5, 6\n"), 2, 3, "'' is not a finite number");
}

TEST_F(ValuesFile, MissingOrUnreadableIsReportedAtTheModelsKey) {
  const std::string path = model("1, 2\n3, 4\n5, 6\n");
  std::filesystem::remove(dir_ + "/map.csv");
  std::filesystem::create_directory(dir_ + "/map.csv");  // a directory cannot be read as a file
  for (int round = 0; round < 2; ++round) {
    init_symbolic();
    try {
      load_model_file(path);
      ADD_FAILURE() << "loaded without error";
    } catch (const ModelError& e) {
      EXPECT_EQ(e.loc().file, path);
      EXPECT_EQ(e.loc().line, 5) << e.format();
      EXPECT_EQ(e.loc().column, 18) << e.format();
      EXPECT_NE(std::string(e.what()).find("cannot read values_file"), std::string::npos) << e.format();
    }
    std::filesystem::remove(dir_ + "/map.csv");
  }
}

// The table of EvaluatedAsGeneratedIsTheRuntimesLookupBitForBit through the runtime's lookup
// (dualrate/lookup.hpp) in S: a non-uniform axis of 4 breakpoints (binary search) and a
// uniform one of 3 (index arithmetic), the generated code's forms.
template <class S, lookup::Interpolation I, lookup::Extrapolation E, unsigned Slope>
S runtime_lookup(const Table& t, S x0, S x1) {
  S values[12];
  for (std::size_t i = 0; i < 12; ++i) values[i] = static_cast<S>(t.values[i]);
  const auto& b0 = t.breakpoints[0];
  const auto& b1 = t.breakpoints[1];
  const lookup::Axis<S, 4, false> a0{{S(b0[0]), S(b0[1]), S(b0[2]), S(b0[3])}, S(0)};
  const lookup::Axis<S, 3, true> a1{{S(b1[0]), S(b1[1]), S(b1[2])}, S(1) / (S(b1[1]) - S(b1[0]))};
  return lookup::table<I, E, Slope>(values, a0, x0, a1, x1);
}

template <class S>
bool same_bits(S a, S b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The reference core evaluates a table with the runtime's arithmetic after its own cell search
// (Table::evaluate_as_generated), so that verify's exact step check covers models with tables:
// bit for bit the runtime's lookup in float and double, at breakpoints (which belong to the
// cell on their right), inside cells, on either side outside (clamped; extrapolated linearly),
// at NaN, for the value and each slope, linear and flat.
template <class S, lookup::Interpolation I, lookup::Extrapolation E>
void expect_runtime_arithmetic(Table t) {
  t.interpolation = I == lookup::Interpolation::kLinear ? Table::Interpolation::kLinear : Table::Interpolation::kFlat;
  t.extrapolation = E == lookup::Extrapolation::kClamp ? Table::Extrapolation::kClamp : Table::Extrapolation::kLinear;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  for (S x0 : {S(-2), S(-1), S(-0.5), S(0.3), S(0.31), S(0.7), S(1.9), S(2.5), S(3), nan})
    for (S x1 : {S(-0.1), S(0), S(0.25), S(0.5), S(0.9999), S(1), S(1.5)}) {
      const S args[2] = {x0, x1};
      const S value = runtime_lookup<S, I, E, 0>(t, x0, x1);
      const S d0 = runtime_lookup<S, I, E, 1>(t, x0, x1), d1 = runtime_lookup<S, I, E, 2>(t, x0, x1);
      EXPECT_TRUE(same_bits(t.evaluate_as_generated<S>(args, 0), value)) << x0 << ", " << x1;
      EXPECT_TRUE(same_bits(t.evaluate_as_generated<S>(args, 1), d0)) << x0 << ", " << x1;
      EXPECT_TRUE(same_bits(t.evaluate_as_generated<S>(args, 2), d1)) << x0 << ", " << x1;
    }
}

TEST(Tables, EvaluatedAsGeneratedIsTheRuntimesLookupBitForBit) {
  Table t;
  t.breakpoints = {{-1, 0.3, 0.7, 2.5}, {0, 0.5, 1}};
  t.values = {0.1, -2.3, 4.7, 1.0 / 3, 5.5, -0.7, 2.2, 9.1, -4.4, 0.05, 1e3, -1e-3};
  using lookup::Extrapolation;
  using lookup::Interpolation;
  expect_runtime_arithmetic<float, Interpolation::kLinear, Extrapolation::kClamp>(t);
  expect_runtime_arithmetic<float, Interpolation::kLinear, Extrapolation::kLinear>(t);
  expect_runtime_arithmetic<float, Interpolation::kFlat, Extrapolation::kClamp>(t);
  expect_runtime_arithmetic<double, Interpolation::kLinear, Extrapolation::kClamp>(t);
  expect_runtime_arithmetic<double, Interpolation::kLinear, Extrapolation::kLinear>(t);
  expect_runtime_arithmetic<double, Interpolation::kFlat, Extrapolation::kClamp>(t);
}

TEST(Tables, BreakpointsThatFloatCannotSeparateAreRefusedForFloat) {
  const Model m = test::load_text(
      "name: m\ntables:\n  T:\n    breakpoints: [[1, 1.00000001, 2]]\n    values: [1, 2, 3]\n"
      "states:\n  slow:\n    x: 0\nequations:\n  x: T(x)\n");
  GenerateRequest o;
  o.scheme = "rk4";
  o.step = 0.01;
  EXPECT_NO_THROW(generate_header(m, o, {}));
  o.scalar = ScalarType::kFloat;
  try {
    generate_header(m, o, {});
    ADD_FAILURE() << "float header generated";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 4) << e.format();
    EXPECT_NE(std::string(e.what()).find("are equal in float"), std::string::npos) << e.format();
  }
}

}  // namespace
}  // namespace dualrate
