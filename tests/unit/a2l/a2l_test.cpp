// dualrate a2l's generator side: the layout of the generated Calibration struct and the addresses
// found from it in a program (ProgramImage written by hand), the errors of a program without the
// model's objects or with objects of the wrong size and of a model without tunable values, the ELF
// reader on this test's own executable, and the A2L file's CHARACTERISTICs for each table form.
// The whole command on built programs, with the ASAP2 checker: tests/a2l/a2l_program.sh.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "a2l/a2l_file.hpp"
#include "a2l/calibration_layout.hpp"
#include "a2l/elf.hpp"
#include "test_support.hpp"

// An object this test finds in its own executable's symbol table.
namespace a2l_probe {
extern const double values[3];
__attribute__((used)) const double values[3] = {1.5, -2.0, 0.25};
}  // namespace a2l_probe

namespace dualrate {
namespace {

const std::string kMotor = "tests/models/calibration/motor.yaml";

Model motor() { return test::load(test::source_path(kMotor)); }

// A program with motor.yaml's objects in Scalars of `scalar` bytes, the calibration of `values`.
ProgramImage motor_program(std::uint64_t scalar, std::uint64_t values = 6) {
  ProgramImage p;
  p.file = "p.elf";
  p.objects = {{"motor::calibration", 0x20000008, values * scalar}, {"motor::epk", 0x1ac, 9},
               {"motor::calibration_requests", 0x20000000, 8},      {"dualrate_trace::data", 0x20000040, 5 * scalar},
               {"dualrate_trace::inputs", 0x20000024, scalar},      {"dualrate_trace::outputs", 0x20000020, scalar}};
  p.sections = {{0x1a0, std::string(12, 'x') + std::string("motor v1\0\0\0\0", 12)}};
  return p;
}

std::string program_error(const Model& m, const ProgramImage& p, const std::string& name_space = "motor") {
  try {
    locate(m, p, name_space);
  } catch (const ProgramError& e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  return "no error";
}

TEST(A2l, CalibrationMembersFollowTheModelFile) {
  const Model m = motor();
  const std::vector<CalibrationMember> members = calibration_members(m);
  ASSERT_EQ(members.size(), 3U);
  EXPECT_EQ(members[0].name(), "R");
  EXPECT_EQ(members[1].name(), "Kt");
  EXPECT_EQ(members[2].name(), "friction");
  EXPECT_EQ(members[2].index, 2U);
  EXPECT_EQ(members[2].count, 4U);
  EXPECT_EQ(calibration_value_count(members), 6U);
}

TEST(A2l, TheScalarFollowsTheCalibrationsSize) {
  const ProgramImage p = motor_program(4);
  EXPECT_EQ(scalar_bytes(p, "motor::calibration", 24, 6), 4U);
  EXPECT_EQ(scalar_bytes(p, "motor::calibration", 48, 6), 8U);
  try {
    scalar_bytes(p, "motor::calibration", 30, 6);
    FAIL() << "30 bytes accepted";
  } catch (const ProgramError& e) {
    EXPECT_NE(std::string(e.what()).find("is 30 bytes, but the model's 6 tunable values take 24 (float) or 48 "
                                         "(double)"),
              std::string::npos)
        << e.what();
  }
}

TEST(A2l, AddressesAreTheSymbolsPlusTheLayoutsOffsets) {
  const Model m = motor();
  for (const std::uint64_t scalar : {4U, 8U}) {
    const ProgramLayout layout = locate(m, motor_program(scalar), "motor");
    EXPECT_EQ(layout.scalar_bytes, scalar);
    ASSERT_EQ(layout.members.size(), 3U);
    EXPECT_EQ(layout.address(layout.members[0]), 0x20000008U);
    EXPECT_EQ(layout.address(layout.members[1]), 0x20000008U + scalar);
    EXPECT_EQ(layout.address(layout.members[2]), 0x20000008U + 2 * scalar);
    EXPECT_EQ(layout.epk_address, 0x1acU);
    EXPECT_EQ(layout.epk, "motor v1");
    EXPECT_EQ(layout.states, 0x20000040U);
    EXPECT_EQ(layout.inputs, 0x20000024U);
    EXPECT_EQ(layout.outputs, 0x20000020U);
    EXPECT_EQ(layout.requests, 0x20000000U);
    EXPECT_FALSE(layout.status);
    EXPECT_TRUE(layout.active.empty());
  }
}

TEST(A2l, AMissingObjectIsNamed) {
  const Model m = motor();
  EXPECT_NE(program_error(m, motor_program(4), "other")
                .find("p.elf: no object other::calibration in its symbol "
                      "table | build the program with the header generated "
                      "from this model"),
            std::string::npos);
  // A trace program's arrays go together: one missing beside dualrate_trace::data is an error.
  for (const char* name :
       {"motor::epk", "motor::calibration_requests", "dualrate_trace::inputs", "dualrate_trace::outputs"}) {
    ProgramImage p = motor_program(4);
    p.objects.erase(
        std::remove_if(p.objects.begin(), p.objects.end(), [&](const ProgramSymbol& s) { return s.name == name; }),
        p.objects.end());
    EXPECT_NE(program_error(m, p).find(std::string("no object ") + name), std::string::npos) << name;
  }
}

// A header generated with --instances left,right: each instance's active values, by its name.
TEST(A2l, EachInstancesActiveValues) {
  const Model m = motor();
  ProgramImage p = motor_program(4);
  p.objects.push_back({"motor::right::active_constants", 0x20000500, 64});
  p.objects.push_back({"motor::left::active_constants", 0x20000400, 64});
  p.objects.push_back({"other::left::active_constants", 0x20000600, 64});  // another namespace's
  const ProgramLayout layout = locate(m, p, "motor");
  ASSERT_EQ(layout.active.size(), 2U);
  EXPECT_EQ(layout.active[0].instance, "left");
  EXPECT_EQ(layout.active[0].address, 0x20000400U);
  EXPECT_EQ(layout.active[1].instance, "right");
  const std::string text = a2l_file(m, layout, {"1.0", "motor.yaml", "p.elf", {}});
  EXPECT_NE(text.find("/begin MEASUREMENT left.active.Kt \"active value of Kt in instance left\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("/begin MEASUREMENT right.active.R \"active value of R in instance right\"\n"
                      "      FLOAT32_IEEE CM_ohm 0 0 -3.4028234663852886e+38 3.4028234663852886e+38\n"
                      "      ECU_ADDRESS 0x20000500"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(" active.R "), std::string::npos) << "no set of the namespace itself";
  // An instance's set too small for the Calibration it starts with is named.
  p.objects[p.objects.size() - 3].size = 8;
  EXPECT_NE(program_error(m, p).find("motor::right::active_constants"), std::string::npos);
}

// A dual-rate header's Tasks object, named by --instance: its size and the fast task's state's
// offset from the program's tasks_layout (little-endian: 200, then 48).
TEST(A2l, ATasksInstanceAtItsFastStateOffset) {
  const Model m = motor();
  ProgramImage p = motor_program(4);
  p.objects.push_back({"motor::tasks_layout", 0x300, 8});
  p.sections.push_back({0x300, std::string("\xc8\0\0\0\x30\0\0\0", 8)});
  p.objects.push_back({"controller", 0x20001000, 200});
  p.objects.push_back({"odd", 0x20002000, 100});
  const ProgramLayout layout = locate(m, p, "motor", {"controller"});
  ASSERT_EQ(layout.instances.size(), 1U);
  EXPECT_TRUE(layout.instances[0].tasks_object);
  EXPECT_EQ(layout.instances[0].states, 0x20001030U);
  const std::string text = a2l_file(m, layout, {"1.0", "motor.yaml", "p.elf", {}});
  EXPECT_NE(text.find("/begin MEASUREMENT controller.I \"fast state of model instance controller, as its fast task "
                      "has it\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ECU_ADDRESS 0x20001034"), std::string::npos) << "controller.I, the second state";
  try {
    locate(m, p, "motor", {"odd"});
    ADD_FAILURE() << "odd is neither a Data nor a Tasks";
  } catch (const ProgramError& e) {
    EXPECT_NE(std::string(e.what()).find("odd is 100 bytes, not a model instance: a motor::Data of the model's 2 "
                                         "states is 24 bytes (32 with compensated sums), a motor::Tasks 200 bytes"),
              std::string::npos)
        << e.what();
  }
}

// A program that is not a trace program (none of dualrate_trace's objects): the calibration
// objects alone, and the states of the model instances named.
TEST(A2l, AnyProgramWithTheCalibrationObjectAndItsInstances) {
  const Model m = motor();
  ProgramImage p = motor_program(4);
  p.objects.resize(3);  // motor::calibration, motor::epk and motor::calibration_requests
  p.objects.push_back({"plant", 0x20000100, 2 * 4 + 16});  // a motor::Data: 2 float states, 2 counters
  p.objects.push_back({"small", 0x20000200, 8});
  p.objects.push_back({"motor::calibration_status", 0x20000300, 8});
  p.objects.push_back({"motor::calibration_handled", 0x20000308, 8});
  p.objects.push_back({"motor::active_constants", 0x20000400, 64});
  const ProgramLayout layout = locate(m, p, "motor", {"plant"});
  EXPECT_FALSE(layout.trace);
  ASSERT_EQ(layout.instances.size(), 1U);
  EXPECT_EQ(layout.instances[0].states, 0x20000100U);
  const std::string text =
      a2l_file(m, layout,
               {"1.0",
                "motor.yaml",
                "p.elf",
                {"R", "Kt", "friction[0]", "friction[1]", "friction[2]", "friction[3]", "tau", "Ke"}});
  // The requests the tool writes, and what the program reads back: the requests handled, the
  // status in words, and the active values at active_constants (its Calibration first).
  EXPECT_NE(text.find("/begin CHARACTERISTIC calibration_requests.commit "), std::string::npos) << text;
  EXPECT_NE(text.find("VALUE 0x20000000 RL_VALUE_ULONG 0 CM_IDENTICAL 0 4294967295"), std::string::npos) << text;
  EXPECT_NE(text.find("VALUE 0x20000004 RL_VALUE_ULONG"), std::string::npos) << "calibration_requests.reset";
  EXPECT_NE(text.find("ULONG CM_IDENTICAL 0 0 0 4294967295\n      ECU_ADDRESS 0x2000030C"), std::string::npos)
      << "calibration_handled.reset";
  EXPECT_NE(text.find("SLONG CM_CALIBRATION_VALUE 0 0 -2147483648 2147483647\n      ECU_ADDRESS 0x20000304"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("TAB_VERB 9\n      -1 \"none\"\n      0 \"R\"\n      1 \"Kt\"\n      2 \"friction[0]\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("      4 \"above its max\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("/begin MEASUREMENT active.Kt \"active value of Kt\"\n"
                      "      FLOAT32_IEEE CM_N_m_A 0 0 -3.4028234663852886e+38 3.4028234663852886e+38\n"
                      "      ECU_ADDRESS 0x20000404"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("MATRIX_DIM 4\n      ECU_ADDRESS 0x20000408"), std::string::npos) << "active.friction";
  // The requests at 0x20000000 and the 6 floats from 0x20000008: one segment of 32 bytes.
  EXPECT_NE(text.find("/begin MEMORY_SEGMENT CALIBRATION_RAM \"the calibration values and the tool's requests\" DATA "
                      "RAM INTERN 0x20000000 0x20 -1 -1 -1 -1 -1 /end MEMORY_SEGMENT"),
            std::string::npos)
      << text;
  // Six significant digits of the larger limit: R in [0.5, 2], Kt in [0.03, 0.08].
  EXPECT_NE(text.find("CM_ohm 0.5 2\n      FORMAT \"%8.5\""), std::string::npos) << text;
  EXPECT_NE(text.find("0.079999998211860657\n      FORMAT \"%10.7\""), std::string::npos) << text;
  EXPECT_NE(text.find("/begin MEASUREMENT plant.omega \"slow state of model instance plant\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("ECU_ADDRESS 0x20000104"), std::string::npos) << "plant.I, the second state";
  EXPECT_EQ(text.find("MEASUREMENT omega"), std::string::npos) << "no trace arrays in this program";
  try {
    locate(m, p, "motor", {"small"});
    FAIL() << "an 8-byte object taken as a model instance";
  } catch (const ProgramError& e) {
    EXPECT_NE(std::string(e.what()).find("small is 8 bytes, not a model instance: a motor::Data of the model's 2 "
                                         "states is 24 bytes (32 with compensated sums)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(locate(m, p, "motor", {"nowhere"}), ProgramError);
}

TEST(A2l, ObjectsOfTheWrongSizeAreRefused) {
  const Model m = motor();
  EXPECT_NE(program_error(m, motor_program(4, 5))
                .find("motor::calibration is 20 bytes, but the model's 6 tunable "
                      "values take 24 (float) or 48 (double)"),
            std::string::npos);
  ProgramImage p = motor_program(8);
  p.objects[4].size = 4;  // inputs: one float, where the calibration says double
  EXPECT_NE(program_error(m, p).find("dualrate_trace::inputs is 4 bytes, the model's layout needs 8"),
            std::string::npos)
      << program_error(m, p);
  p = motor_program(4);
  p.sections[0].bytes = std::string(24, 'x');  // no NUL within the EPK
  EXPECT_NE(program_error(m, p).find("motor::epk is not NUL-terminated"), std::string::npos);
  p = motor_program(4);
  p.objects[0].address = 0xFFFFFFF0;
  EXPECT_NE(program_error(m, p).find("beyond the 32-bit addresses of A2L files"), std::string::npos);
}

TEST(A2l, AModelWithoutTunableValuesHasNothingToCalibrate) {
  const Model m = test::load(test::source_path("models/dc_motor.yaml"));
  try {
    require_tunable(m);
    FAIL() << "accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(e.format().find("dc_motor.yaml:"), std::string::npos) << e.format();
    EXPECT_NE(e.format().find("has no tunable parameter or table: an A2L file would have nothing to calibrate"),
              std::string::npos)
        << e.format();
    EXPECT_NE(e.hint().find("tunable: true"), std::string::npos);
  }
  EXPECT_NO_THROW(require_tunable(motor()));
}

TEST(A2l, TheElfReaderFindsObjectsAndTheirBytes) {
  const ProgramImage self = read_elf("/proc/self/exe");
  EXPECT_EQ(self.address_bits, sizeof(void*) * 8);
  const ProgramSymbol* probe = self.find("a2l_probe::values");
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->size, sizeof(a2l_probe::values));
  const std::optional<std::string> bytes = self.bytes(probe->address, probe->size);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(std::memcmp(bytes->data(), a2l_probe::values, sizeof(a2l_probe::values)), 0);
}

TEST(A2l, TheElfReaderRefusesWhatIsNotAProgram) {
  const auto message = [](const std::string& path) {
    try {
      read_elf(path);
    } catch (const ProgramError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(test::source_path(kMotor)).find("motor.yaml is not an ELF file"), std::string::npos);
  EXPECT_NE(message("/nonexistent/p.elf").find("cannot read /nonexistent/p.elf"), std::string::npos);
}

// The A2L file of a model with tunable tables of 1, 2 and 3 axes (Scalar float), the map with
// units for its values and axes.
std::string tables_file() {
  init_symbolic();
  const Model m = load_model_text(
      "name: maps\nparameters:\n  k: {value: 2, tunable: true, min: 1, max: 3, unit: \"1/s\"}\n"
      "tables:\n  C:\n    breakpoints: [[0, 1]]\n    values: [1, 2]\n    tunable: true\n    min: 0\n    max: 5\n"
      "  M:\n    breakpoints: [[0, 2], [0, 1, 3]]\n    values: [[0, 4, 1], [2, 8, 1]]\n    tunable: true\n"
      "    min: -1\n    max: 9\n    unit: N*m\n    axis_units: [rpm, \"1\"]\n    description: torque map\n"
      "  U:\n    breakpoints: [[0, 1], [0, 1], [0, 1]]\n    values: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]\n"
      "    tunable: true\n    min: 0\n    max: 10\n"
      "states:\n  slow:\n    x: 0\nequations:\n  x: -k*x + C(x) + M(x, t) + U(x, x, t)\n",
      "maps.yaml");
  ProgramImage p;
  p.file = "p.elf";
  p.objects = {{"maps::calibration", 0x1000, 4 * (1 + 2 + 6 + 8)},
               {"maps::epk", 0x10, 4},
               {"maps::calibration_requests", 0x1100, 8},
               {"dualrate_trace::data", 0x2000, 4}};
  p.sections = {{0x10, std::string("abc\0", 4)}};
  return a2l_file(m, locate(m, p, "maps"), {"1.0", "maps.yaml", "p.elf", {}});
}

TEST(A2l, EachTableFormHasItsCharacteristic) {
  const std::string a2l = tables_file();
  EXPECT_NE(a2l.find("VALUE 0x00001000 RL_VALUE_FLOAT32_IEEE 0 CM_1_s 1 3\n"), std::string::npos) << a2l;
  EXPECT_NE(a2l.find("CURVE 0x00001004 RL_ARRAY_FLOAT32_IEEE 0 CM_IDENTICAL 0 5\n"), std::string::npos) << a2l;
  // The map's values keep the first axis outermost: X is the first axis, stored by columns.
  EXPECT_NE(a2l.find("/begin CHARACTERISTIC M \"torque map\"\n"
                     "      MAP 0x0000100C RL_ARRAY_FLOAT32_IEEE 0 CM_N_m -1 9\n"
                     "      FORMAT \"%8.5\"\n      PHYS_UNIT \"N*m\"\n"
                     "      /begin AXIS_DESCR FIX_AXIS NO_INPUT_QUANTITY CM_rpm 2 0 2\n        PHYS_UNIT \"rpm\"\n"
                     "        /begin FIX_AXIS_PAR_LIST\n          0 2\n        /end FIX_AXIS_PAR_LIST\n"
                     "      /end AXIS_DESCR\n"
                     "      /begin AXIS_DESCR FIX_AXIS NO_INPUT_QUANTITY CM_1 3 0 3\n        PHYS_UNIT \"1\"\n"),
            std::string::npos)
      << a2l;
  EXPECT_NE(a2l.find("/begin COMPU_METHOD CM_rpm \"in rpm\"\n      IDENTICAL \"%12.6\" \"rpm\"\n"), std::string::npos);
  EXPECT_NE(a2l.find("FNC_VALUES 1 FLOAT32_IEEE COLUMN_DIR DIRECT"), std::string::npos);
  EXPECT_NE(a2l.find("VAL_BLK 0x00001024 RL_ARRAY_FLOAT32_IEEE 0 CM_IDENTICAL 0 10\n      FORMAT \"%8.4\"\n"
                     "      NUMBER 8\n"),
            std::string::npos)
      << a2l;
  EXPECT_NE(a2l.find("EPK \"abc\""), std::string::npos);
  EXPECT_EQ(a2l.find("MEASUREMENT calibration_status"), std::string::npos);
}

TEST(A2l, StringsAreEscaped) { EXPECT_EQ(a2l_string("a \"b\" c\\d\ne"), "\"a \\\"b\\\" c\\\\d\\ne\""); }

}  // namespace
}  // namespace dualrate
