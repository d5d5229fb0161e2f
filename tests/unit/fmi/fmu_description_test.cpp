// The FMU's generator side, layer by layer: the variables and their numbering, the model
// descriptions of FMI 3.0 and 2.0, the glue's instance slots, and the one generation pipeline
// that generate, verify and fmu share.
#include <gtest/gtest.h>

#include <string>

#include "emit/generation.hpp"
#include "fmi/fmu_glue.hpp"
#include "fmi/fmu_variables.hpp"
#include "fmi/model_description.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

using Kind = FmuVariable::Kind;

GenerateRequest rk4_request(double step) { return {"rk4", step, 1, ScalarType::kDouble, "test"}; }

FmuLayout layout(ScalarType scalar, bool arrays) {
  FmuLayout l;
  l.scalar = scalar;
  l.arrays = arrays;
  l.step = 1e-5;
  return l;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(FmuVariables, NumberedAsTheWrapperReadsThem) {
  const Model m = test::load(test::kCalibrationMotor);
  const std::vector<FmuVariable> v = fmu_variables(m, layout(ScalarType::kDouble, false));
  // time, omega, I, der(omega), der(I), V, time_constant, R, Kt, friction[0..3]
  ASSERT_EQ(v.size(), 13U);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].value_reference, i) << v[i].name;
  EXPECT_EQ(v[0].kind, Kind::kTime);
  EXPECT_EQ(v[1].name, "omega");
  EXPECT_EQ(v[3].name, "der(omega)");
  EXPECT_EQ(v[3].derivative_of, 1U);
  EXPECT_EQ(v[4].derivative_of, 2U);
  EXPECT_EQ(v[5].kind, Kind::kInput);
  EXPECT_EQ(*v[5].start, 12);
  EXPECT_EQ(v[6].kind, Kind::kOutput);
  EXPECT_EQ(v[7].name, "R");
  EXPECT_EQ(*v[7].min, 0.5);
  EXPECT_EQ(*v[7].max, 2);
  EXPECT_EQ(v[7].unit, "ohm");
  EXPECT_EQ(v[12].name, "friction[3]");
  EXPECT_EQ(v[12].index, 5);  // the sixth of the Calibration's values
  EXPECT_EQ(tunable_values(m, ScalarType::kDouble)[5].member, "friction[3]");
}

TEST(FmuVariables, TablesAsArraysAndTheTasksClocks) {
  const Model m = test::load(test::kCalibrationMotor);
  FmuLayout l = layout(ScalarType::kDouble, true);
  l.scheduled = true;
  l.calculated_states = true;
  l.ratio = 10;
  const std::vector<FmuVariable> v = fmu_variables(m, l);
  // time, omega, I, V, time_constant, R, Kt, friction (4 values), fast_task, slow_task: no
  // derivatives in Scheduled Execution, no start values for the states the tasks calculate.
  ASSERT_EQ(v.size(), 10U);
  EXPECT_FALSE(v[1].start);
  EXPECT_EQ(v[3].kind, Kind::kInput);
  EXPECT_EQ(v[7].name, "friction");
  EXPECT_EQ(v[7].index, 2);
  EXPECT_EQ(v[7].count, 4);
  EXPECT_EQ(v[8].kind, Kind::kClock);
  EXPECT_EQ(v[8].interval, 1e-5);
  EXPECT_EQ(v[9].index, 1);
  EXPECT_EQ(v[9].interval, 1e-4);
  EXPECT_EQ(v[9].priority, 1);
}

TEST(FmuVariables, FloatLimitsAreTheCheckedOnes) {
  const Model m = test::load(test::kCalibrationMotor);
  const std::vector<FmuVariable> v = fmu_variables(m, layout(ScalarType::kFloat, false));
  // Kt's min 0.03 rounded inward to float: the smallest float at or above it.
  EXPECT_EQ(*v[8].min, static_cast<double>(0.030000001192092896F));
  EXPECT_GE(*v[8].min, 0.03);
  EXPECT_EQ(*v[8].start, static_cast<double>(0.05F));
}

FmuDescription description(const Model& m, int version) {
  FmuDescription d;
  d.fmi_version = version;
  d.model_identifier = "motor";
  d.token = "{token}";
  d.generator_version = "test";
  d.step = 1e-5;
  d.internal_step = 1e-5;
  d.variables = fmu_variables(m, layout(ScalarType::kDouble, version == 3));
  return d;
}

TEST(ModelDescription, Fmi3) {
  const Model m = test::load(test::kCalibrationMotor);
  const std::string xml = model_description_xml(m, description(m, 3));
  EXPECT_NE(xml.find("fmiVersion=\"3.0\""), std::string::npos);
  EXPECT_NE(xml.find("instantiationToken=\"{token}\""), std::string::npos);
  EXPECT_NE(xml.find("<CoSimulation modelIdentifier=\"motor\" fixedInternalStepSize=\"1.0000000000000001e-05\""),
            std::string::npos);
  // friction is one array variable of 4 values.
  EXPECT_EQ(count(xml, "<Float64 "), 10U);
  EXPECT_NE(xml.find("name=\"friction\" valueReference=\"9\""), std::string::npos);
  EXPECT_NE(xml.find("start=\"0.080000000000000002 0.10000000000000001 0.13 0.20000000000000001\" min=\"0\" "
                     "max=\"1\">\n      <Dimension start=\"4\" />"),
            std::string::npos);
  EXPECT_NE(xml.find("name=\"der(I)\" valueReference=\"4\" causality=\"local\" variability=\"continuous\" "
                     "derivative=\"2\""),
            std::string::npos);
  EXPECT_NE(xml.find("name=\"R\" valueReference=\"7\" causality=\"parameter\" variability=\"tunable\" "
                     "initial=\"exact\" unit=\"ohm\" start=\"1\" min=\"0.5\" max=\"2\""),
            std::string::npos);
  EXPECT_EQ(count(xml, "<ContinuousStateDerivative "), 2U);
  EXPECT_NE(xml.find("<Output valueReference=\"6\" />"), std::string::npos);
}

TEST(ModelDescription, Fmi2NamesDerivativesByIndex) {
  const Model m = test::load(test::kCalibrationMotor);
  const std::string xml = model_description_xml(m, description(m, 2));
  EXPECT_NE(xml.find("fmiVersion=\"2.0\""), std::string::npos);
  EXPECT_NE(xml.find("guid=\"{token}\""), std::string::npos);
  EXPECT_EQ(count(xml, "<ScalarVariable "), 13U);
  // der(omega), the fourth variable, is omega's (the second) derivative.
  EXPECT_NE(xml.find("<Real derivative=\"2\" />"), std::string::npos);
  EXPECT_NE(xml.find("<Outputs>\n      <Unknown index=\"7\" />"), std::string::npos);
}

TEST(BuildDescription, ListsTheSourcesAlone) {
  const Model m = test::load(test::kCalibrationMotor);
  FmuSources s;
  s.files = {"fmi3.cpp"};
  s.include_directories = {".", "runtime"};
  s.defines = {{"EIGEN_DONT_VECTORIZE", ""}};
  const std::string xml = build_description_xml(description(m, 3), s);
  EXPECT_NE(xml.find("<SourceFile name=\"fmi3.cpp\" />"), std::string::npos);
  EXPECT_NE(xml.find("<IncludeDirectory name=\"runtime\" />"), std::string::npos);
  EXPECT_NE(xml.find("<PreprocessorDefinition name=\"EIGEN_DONT_VECTORIZE\" />"), std::string::npos);
}

TEST(FmuGlue, ASlotPerInstanceNamespaceAndTheVariablesTable) {
  const Model tunable = test::load(test::kCalibrationMotor);
  ASSERT_EQ(fmu_instances(tunable).size(), static_cast<std::size_t>(kFmuSlots));
  const FmuGlue glue{"motor.hpp", "{t}", false, false, fmu_variables(tunable, layout(ScalarType::kDouble, true))};
  const std::string text = fmu_glue(tunable, rk4_request(1e-5), glue);
  EXPECT_EQ(count(text, "struct Slot<"), static_cast<std::size_t>(kFmuSlots));
  EXPECT_NE(text.find("model::recalibrate(v, model::fmu7::active_constants)"), std::string::npos);
  EXPECT_NE(text.find("case 5: return c.friction[3];"), std::string::npos);
  EXPECT_NE(text.find("{dualrate::fmi::VariableKind::kTunable, 2, 4},  // 9 friction"), std::string::npos);
  EXPECT_NE(text.find("kStep = 0x1.4f8b588e368f1p-17;"), std::string::npos);  // h = 1e-5 exactly as declared
  // Without tunable values every slot is the namespace's own Data.
  const Model plain = test::load("models/dc_motor.yaml");
  EXPECT_TRUE(fmu_instances(plain).empty());
  const FmuGlue plain_glue{"dc_motor.hpp", "{t}", false, false,
                           fmu_variables(plain, layout(ScalarType::kDouble, true))};
  EXPECT_EQ(count(fmu_glue(plain, rk4_request(1e-4), plain_glue),
                  "using Run = dualrate::fmi::SingleRateRun<Model, model::Data, Step>;"),
            static_cast<std::size_t>(kFmuSlots));
}

TEST(Generation, TheHeaderIsTheEmittersAndAnUnstableStepIsRefused) {
  const Model m = test::load("models/dc_motor.yaml");
  const Generation g = generate_code(m, {rk4_request(1e-4)});
  EXPECT_EQ(g.header.text, generate_traced_header(m, rk4_request(1e-4), g.design).text);
  // rk4's largest stable step on dc_motor is 0.466 ms (the model file's description).
  EXPECT_THROW(generate_code(m, {rk4_request(1e-3)}), ModelError);
  GenerationRequest unjudged{rk4_request(1e-3)};
  unjudged.judged = false;
  EXPECT_NO_THROW(generate_code(m, unjudged));
}

}  // namespace
}  // namespace dualrate
