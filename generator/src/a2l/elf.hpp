// What `dualrate a2l` reads from a linked program (an ELF executable, through libelf): its byte
// order and address size, its data objects (the symbol table's objects, names demangled) and the
// initial bytes of its data. Kept apart from the A2L file so that the file can be tested on a
// ProgramImage written by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dualrate {

// A problem with the program file (not the model): the message names the file, the hint says
// what to do about it.
class ProgramError : public std::runtime_error {
 public:
  ProgramError(const std::string& message, std::string hint) : std::runtime_error(message), hint_(std::move(hint)) {}
  const std::string& hint() const { return hint_; }

 private:
  std::string hint_;
};

// A data object of the symbol table (STT_OBJECT, defined): `name` demangled (`motor::calibration`),
// or as written when it is not a C++ name.
struct ProgramSymbol {
  std::string name;
  std::uint64_t address = 0, size = 0;
};

// An allocated section with contents in the file (.data, .rodata; not .bss), at its address.
struct ProgramSection {
  std::uint64_t address = 0;
  std::string bytes;
};

struct ProgramImage {
  std::string file;
  bool little_endian = true;
  unsigned address_bits = 32;  // 32 or 64 (ELFCLASS)
  std::vector<ProgramSymbol> objects;
  std::vector<ProgramSection> sections;

  // The object named `name`; nullptr when there is none. Several objects of that name at different
  // addresses (static objects of several translation units) are a ProgramError.
  const ProgramSymbol* find(const std::string& name) const;
  // The initial bytes [address, address + size), when one section with contents holds them all.
  std::optional<std::string> bytes(std::uint64_t address, std::uint64_t size) const;
};

// The image of the ELF executable at `path`. A file that cannot be read, is not an ELF file, or is
// a relocatable object (not linked) is a ProgramError.
ProgramImage read_elf(const std::string& path);

}  // namespace dualrate
