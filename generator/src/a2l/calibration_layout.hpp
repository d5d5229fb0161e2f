// Where a program built with a model's generated header keeps what a calibration tool reads and
// writes: the members of NS::Calibration (the contract of the generated header, below) and their
// addresses, the EPK, and the trace program's state, input and output arrays.
//
// The generated header, for a model with tunable values (NS: the model's name or --namespace):
//   struct Calibration { Scalar R; Scalar Kt; Scalar friction[4]; };  // tunable parameters in file
//                                                                    // order, then tunable tables' values
//   inline Calibration calibration;         // NS::calibration, in section .data.dualrate.calibration.NS
//   inline const char epk[] = "...";        // NS::epk, NUL-terminated
//   inline const char calibration_layout[] = "...";  // NS::calibration_layout (optional here)
//   struct Requests { std::uint32_t commit; std::uint32_t reset; };
//   inline Requests calibration_requests;   // NS::calibration_requests, written by the tool
//   inline Requests calibration_handled;    // NS::calibration_handled (optional here)
//   struct Status { std::int32_t result; std::int32_t value; };
//   inline Status calibration_status;       // NS::calibration_status (optional here)
//   inline Constants active_constants;      // NS::active_constants, a Calibration first (optional here),
//                                           // or NS::INSTANCE::active_constants for each of --instances
// and, where the program is a trace program (targets/; any other program has none of them):
// dualrate_trace::data (its first member the states, Scalar[kStates]), dualrate_trace::inputs
// (Scalar[kInputs]), dualrate_trace::outputs (Scalar[kOutputs]). A model instance the user names
// (a global NS::Data, dualrate/data.hpp) holds its states first too, then two 64-bit counters; a
// dual-rate header's Tasks object (dualrate/dual_rate.hpp) holds the fast task's states at an
// offset that the header compiles into NS::tasks_layout = {sizeof(Tasks), offset} (32-bit each;
// NS::INSTANCE::tasks_layout with --instances).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "a2l/elf.hpp"
#include "model/model.hpp"
#include "model/tunable.hpp"

namespace dualrate {

// A member of NS::Calibration: a tunable parameter (one value) or a tunable table (its values, in
// Table::values' order).
struct CalibrationMember {
  const Parameter* parameter = nullptr;  // one of the two
  const Table* table = nullptr;
  std::size_t index = 0;  // of its first value among the struct's values
  std::size_t count = 1;

  const std::string& name() const { return parameter ? parameter->name : table->name; }
};

// The members of NS::Calibration for `m`, in the struct's order.
std::vector<CalibrationMember> calibration_members(const Model& m);
// The number of Scalars in NS::Calibration.
std::size_t calibration_value_count(const std::vector<CalibrationMember>& members);

// A ModelError when `m` has no tunable parameter or table: nothing to calibrate.
void require_tunable(const Model& m);

// The sizeof(Scalar) (4: float, 8: double) for which NS::calibration's `size` bytes hold `values`
// Scalars; a ProgramError naming the sizes when neither does.
std::size_t scalar_bytes(const ProgramImage& program, const std::string& symbol, std::uint64_t size,
                         std::size_t values);

// The addresses of what the A2L file describes, found in the program.
struct ProgramLayout {
  std::size_t scalar_bytes = 8;
  bool little_endian = true;
  std::uint64_t calibration = 0;  // NS::calibration
  std::vector<CalibrationMember> members;
  std::uint64_t epk_address = 0;                      // NS::epk
  std::string epk;                                    // without its NUL
  std::optional<std::string> layout_text;             // NS::calibration_layout (calibration_layout_text), when held
  bool trace = false;                                 // a trace program: the arrays below
  std::uint64_t states = 0, inputs = 0, outputs = 0;  // 0 for an empty array
  struct Instance {
    std::string symbol;
    std::uint64_t states = 0;   // its State: a Data's at its start, a Tasks object's fast task's
    bool tasks_object = false;  // a dual-rate Tasks object (else a Data)
  };
  std::vector<Instance> instances;       // the model instances named (--instance)
  std::uint64_t requests = 0;            // NS::calibration_requests
  std::optional<std::uint64_t> handled;  // NS::calibration_handled, when the program holds it
  std::optional<std::uint64_t> status;   // NS::calibration_status, when the program holds it
  // The active constants (their values first) the program holds: NS::active_constants (instance
  // ""), or those of the instances generated with --instances, NS::INSTANCE::active_constants.
  struct ActiveSet {
    std::string instance;
    std::uint64_t address = 0;
  };
  std::vector<ActiveSet> active;  // by instance name

  std::uint64_t address(const CalibrationMember& member) const { return calibration + member.index * scalar_bytes; }
};

// Throws a ProgramError, naming what differs, when the program's EPK (`epk`, of `program_file`)
// is not `expected` (calibration_identity of the model and the options): another namespace,
// scheme or scalar, or another calibration layout: each value whose name, position, size or
// limits differ, or the step, from the program's layout text (`program_layout`) against the
// model's (`expected_layout`, calibration_layout_text), else both hashes. A program built by
// another dualrate version with the same layout passes.
void require_identity(const CalibrationIdentity& expected, const std::string& expected_layout, const std::string& epk,
                      const std::optional<std::string>& program_layout, const std::string& program_file);

// The layout of `m`'s objects in `program`, whose header has namespace `name_space`, with the
// model instances `instances` (symbols of NS::Data objects, or of NS::Tasks objects, whose size
// and state's offset the program holds in NS::tasks_layout). A missing or mis-sized object (an
// instance of neither size), an EPK that is not a NUL-terminated string
// in initialised data, or an address beyond 32 bits (A2L addresses are 32-bit) is a ProgramError
// naming the object.
ProgramLayout locate(const Model& m, const ProgramImage& program, const std::string& name_space,
                     const std::vector<std::string>& instances = {});

}  // namespace dualrate
