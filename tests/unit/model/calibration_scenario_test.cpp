// Calibration writes in a scenario (model/calibration.hpp): the calibration file and the model's
// simulation: calibration: (every error positioned in the file that holds it), the step a write
// applies at (first_step_at), whether it is applied (check_write, calibration_events), and the
// model at calibrated values (calibrated_model).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "base/diagnostics.hpp"
#include "model/calibration.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

const Model& motor() {
  static const Model m = [] {
    init_symbolic();
    return load_model_file(test::kCalibrationMotor);
  }();
  return m;
}

ModelError scenario_error(const std::string& text) {
  try {
    load_calibration_text(motor(), text, "c.yaml");
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "read without error:\n" << text;
  return ModelError({}, "");
}

void expect_error(const std::string& text, int line, int column, const std::string& message,
                  const std::string& hint = "") {
  const ModelError e = scenario_error(text);
  EXPECT_EQ(e.loc().file, "c.yaml") << e.format();
  EXPECT_EQ(e.loc().line, line) << e.format();
  EXPECT_EQ(e.loc().column, column) << e.format();
  EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.format();
  EXPECT_NE(e.hint().find(hint), std::string::npos) << e.format();
}

const char* const kScenario =
    "- at: 0.25\n"
    "  set: {R: 1.6}\n"
    "- at: 0.5\n"
    "  set: {Kt: 0.07, friction: [0.1, 0.12, 0.16, 0.25]}\n"
    "- at: 0.75\n"
    "  set: {R: 3.0}\n";

TEST(CalibrationFile, ReadsTheWritesInOrder) {
  const auto w = load_calibration_text(motor(), kScenario, "c.yaml");
  ASSERT_EQ(w.size(), 3U);
  EXPECT_EQ(w[0].at, 0.25);
  EXPECT_EQ(w[0].loc.line, 1);
  ASSERT_EQ(w[0].set.size(), 1U);
  EXPECT_EQ(w[0].set[0].name, "R");
  EXPECT_FALSE(w[0].set[0].table);
  EXPECT_EQ(w[0].set[0].values, std::vector<double>{1.6});
  EXPECT_EQ(w[0].set[0].loc.line, 2);
  EXPECT_EQ(w[0].set[0].loc.column, 9);
  ASSERT_EQ(w[1].set.size(), 2U);
  EXPECT_TRUE(w[1].set[1].table);
  EXPECT_EQ(w[1].set[1].values, (std::vector<double>{0.1, 0.12, 0.16, 0.25}));
  EXPECT_EQ(w[2].set[0].values, std::vector<double>{3.0});  // outside the limits: refused when it applies
  EXPECT_TRUE(load_calibration_text(motor(), "[]", "c.yaml").empty());
}

TEST(CalibrationFile, NamesMustBeTunableParametersOrTables) {
  expect_error("- at: 0.1\n  set: {Rr: 1.6}\n", 2, 9, "model 'motor' has no parameter or table 'Rr'",
               "did you mean 'R'?");
  expect_error("- at: 0.1\n  set: {J: 0.02}\n", 2, 9, "parameter 'J' is not tunable",
               "declare it 'tunable: true' with 'min' and 'max'");
  expect_error("- at: 0.1\n  set: {R: 1.5, tau: 1}\n", 2, 17, "parameter 'tau' is not tunable");
  expect_error("- at: 0.1\n  set: {R: 1.5, R: 1.2}\n", 2, 17, "'R' is set twice in one write");
}

TEST(CalibrationFile, ValuesAreNumbersAndTablesComplete) {
  expect_error("- at: 0.1\n  set: {R: 2*x}\n", 2, 12, "the value of 'R' must be a number, not '2*x'");
  expect_error("- at: 0.1\n  set: {R: [1.5]}\n", 2, 12, "the value of 'R' must be a number, not a list");
  expect_error("- at: 0.1\n  set: {friction: [0.1, 0.2]}\n", 2, 19, "table 'friction' has 4 values; this list gives 2",
               "[0.08, 0.1, 0.13, 0.2]");
  expect_error("- at: 0.1\n  set: {friction: 0.1}\n", 2, 19, "table 'friction' takes a list of its 4 values");
  expect_error("- at: 0.1\n  set: {friction: [0.1, 0.2, x, 0.3]}\n", 2, 30,
               "value 2 of table 'friction' must be a number, not 'x'");
}

TEST(CalibrationFile, EntriesAreMappingsWithAtAndSet) {
  expect_error("at: 0.1\nset: {R: 1.5}\n", 1, 1, "a calibration scenario must be a list of writes, not a mapping");
  expect_error("- 0.25\n", 1, 3, "a calibration write must be a mapping with 'at' and 'set', not a single value");
  expect_error("- at: 0.1\n  sett: {R: 1.5}\n", 2, 3, "unknown key 'sett' in a calibration write",
               "did you mean 'set'?");
  expect_error("- set: {R: 1.5}\n", 1, 3, "a calibration write has no 'at'");
  expect_error("- at: 0.1\n", 1, 3, "a calibration write has no 'set'");
  expect_error("- at: 0.1\n  set: {}\n", 2, 3, "'set' is empty");
  expect_error("- at: 0.1\n  set: 1.5\n", 2, 8, "'set' must be a mapping of names to values, not a single value");
  expect_error("", 1, 1, "empty calibration file");
  expect_error("- at: [0.1\n", 2, 1, "invalid YAML");
}

TEST(CalibrationFile, TimesAreNonNegativeNumbersInOrder) {
  expect_error("- at: -0.1\n  set: {R: 1.5}\n", 1, 7, "'at' is negative: -0.1");
  expect_error("- at: soon\n  set: {R: 1.5}\n", 1, 7, "'at' must be a number, not 'soon'");
  expect_error("- at: .inf\n  set: {R: 1.5}\n", 1, 7, "'at' must be a finite number");
  expect_error("- at:\n  set: {R: 1.5}\n", 1, 3, "'at' must be a number, not an empty value");
  expect_error("- at: 0.5\n  set: {R: 1.5}\n- at: 0.25\n  set: {R: 1.2}\n", 3, 3,
               "the write at 0.25 comes after one at 0.5");
}

TEST(CalibrationFile, ModelFileSimulationSection) {
  init_symbolic();
  std::string text =
      "name: m\nparameters:\n  k: {value: 1, tunable: true, min: 0.5, max: 2}\n"
      "states:\n  x: 1\nequations:\n  x: -k*x\nsimulation:\n  calibration:\n";
  const Model m = load_model_text(text + "    - {at: 0.1, set: {k: 1.5}}\n", "m.yaml");
  ASSERT_EQ(m.simulation.calibration.size(), 1U);
  EXPECT_EQ(m.simulation.calibration[0].set[0].values, std::vector<double>{1.5});
  try {
    load_model_text(text + "    - {at: 0.1, set: {kk: 1.5}}\n", "m.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().file, "m.yaml");
    EXPECT_EQ(e.loc().line, 10);
    EXPECT_EQ(e.loc().column, 23);
    EXPECT_NE(std::string(e.what()).find("no parameter or table 'kk'"), std::string::npos) << e.format();
  }
  try {
    load_model_text(text, "m.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 9);
    EXPECT_NE(std::string(e.what()).find("must be a list of writes, not an empty value"), std::string::npos);
  }
}

TEST(CalibrationFile, MissingFile) {
  try {
    load_calibration_file(motor(), "no/such/calibration.yaml");
    ADD_FAILURE() << "read";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().file, "no/such/calibration.yaml");
    EXPECT_NE(std::string(e.what()).find("cannot read calibration file"), std::string::npos);
  }
}

TEST(CalibrationStep, FirstStepAtOrAfterTheTime) {
  EXPECT_EQ(first_step_at(0, 0.01), 0);
  EXPECT_EQ(first_step_at(0.25, 0.01), 25);  // 0.25/0.01 = 24.999999999999996: on step 25
  EXPECT_EQ(first_step_at(0.3, 0.1), 3);     // 2.9999999999999996
  EXPECT_EQ(first_step_at(0.251, 0.01), 26);
  EXPECT_EQ(first_step_at(0.25 + 1e-13, 0.01), 25);  // within 1e-9 of a step: on it
  EXPECT_EQ(first_step_at(0.25 + 1e-9, 0.01), 26);   // 1e-7 of a step past it
  EXPECT_EQ(first_step_at(1e-13, 0.01), 0);
  EXPECT_EQ(first_step_at(0.25, 0.01, 10), 30);  // the next macro step of 10 steps
  EXPECT_EQ(first_step_at(0.3, 0.01, 10), 30);
  EXPECT_EQ(first_step_at(0, 0.01, 4), 0);
  EXPECT_EQ(first_step_at(0.25, 0.01, 1), 25);
}

CalibrationWrite write_of(double at, std::vector<CalibrationValue> set) { return {at, {}, std::move(set)}; }

TEST(CalibrationCheck, AppliedOrRefusedWhole) {
  const CalibrationValues start = initial_calibration(motor());
  EXPECT_EQ(start.at("R"), std::vector<double>{1.0});
  EXPECT_EQ(start.at("friction"), (std::vector<double>{0.08, 0.1, 0.13, 0.2}));
  EXPECT_EQ(start.count("J"), 0U);

  const WriteCheck ok = check_write(motor(), start, write_of(0.1, {{"R", {1.6}, {}, false}}));
  EXPECT_TRUE(ok.applied);
  EXPECT_EQ(ok.values.at("R"), std::vector<double>{1.6});
  EXPECT_EQ(ok.values.at("Kt"), start.at("Kt"));

  const WriteCheck above = check_write(motor(), ok.values, write_of(0.1, {{"R", {3.0}, {}, false}}));
  EXPECT_FALSE(above.applied);
  EXPECT_EQ(above.reason, "R = 3 is above its max 2");
  EXPECT_EQ(above.values, ok.values);

  const WriteCheck below = check_write(motor(), start, write_of(0.1, {{"friction", {0.1, 0.1, -1, 0.2}, {}, true}}));
  EXPECT_EQ(below.reason, "friction[2] = -1 is below its min 0");

  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(check_write(motor(), start, write_of(0.1, {{"R", {nan}, {}, false}})).reason, "R = nan is not finite");

  // All or nothing: R is within its limits, Kt is not.
  const WriteCheck part =
      check_write(motor(), start, write_of(0.1, {{"R", {1.6}, {}, false}, {"Kt", {0.1}, {}, false}}));
  EXPECT_FALSE(part.applied);
  EXPECT_EQ(part.reason, "Kt = 0.1 is above its max 0.08");
  EXPECT_EQ(part.values, start);
}

TEST(CalibrationCheck, EventsInOrderFromTheValuesBefore) {
  const auto writes = load_calibration_text(motor(), kScenario, "c.yaml");
  const auto events = calibration_events(motor(), writes, 0.01);
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events[0].step, 25);
  EXPECT_EQ(events[1].step, 50);
  EXPECT_EQ(events[2].step, 75);
  EXPECT_TRUE(events[0].check.applied && events[1].check.applied);
  EXPECT_FALSE(events[2].check.applied);
  EXPECT_EQ(events[2].check.values.at("R"), std::vector<double>{1.6});  // the previous values stay
  EXPECT_EQ(events[2].check.values.at("Kt"), std::vector<double>{0.07});
  EXPECT_EQ(describe(writes[0], events[0]), "at 0.25 (step 25): R = 1.6 applied");
  EXPECT_EQ(describe(writes[2], events[2]), "at 0.75 (step 75): R = 3 refused: R = 3 is above its max 2");
  const auto segments = calibration_segments(motor(), writes, 0.01);
  ASSERT_EQ(segments.size(), 2U);  // the refused write makes none
  EXPECT_EQ(segments[0].from, 25);
  EXPECT_EQ(segments[1].from, 50);
}

TEST(CalibratedModel, DerivedParametersAndTablesFollow) {
  CalibrationValues v = initial_calibration(motor());
  const Model same = calibrated_model(motor(), v);
  for (std::size_t i = 0; i < motor().parameters.size(); ++i)
    EXPECT_EQ(same.parameters[i].value, motor().parameters[i].value) << motor().parameters[i].name;
  v["R"] = {1.6};
  v["Kt"] = {0.07};
  v["friction"] = {0.1, 0.12, 0.16, 0.25};
  const Model c = calibrated_model(motor(), v);
  EXPECT_EQ(test::parameter(c, "R").value, 1.6);
  EXPECT_EQ(test::parameter(c, "tau").value, 1.0e-4 / 1.6);
  EXPECT_EQ(test::parameter(c, "Ke").value, 0.07);
  EXPECT_EQ(test::parameter(c, "J").value, 0.01);
  EXPECT_EQ(c.tables[0]->values, v["friction"]);
  EXPECT_EQ(motor().tables[0]->values, (std::vector<double>{0.08, 0.1, 0.13, 0.2}));  // the model's own stays
  // The equations call the new table: d(omega)/dt at omega = 100, I = 0 is -0.001 friction(100) / J.
  const GiNaC::ex rhs = c.resolve(c.states[0].rhs);
  GiNaC::exmap at{{c.states[0].symbol, 100}, {c.states[1].symbol, 0}};
  EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(rhs.subs(at).evalf()).to_double(), -0.001 * 0.12 / 0.01);
}

}  // namespace
}  // namespace dualrate
