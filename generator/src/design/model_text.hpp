// The model file `dualrate design -o` writes: the file's text with its states: block replaced
// by the proposed partition and its simulation: section's scheme, step and ratio set, every
// other line as it was (comments inside the replaced states: block are not kept).
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

struct DesignedSimulation {
  std::string scheme;
  double step = 0;
  int ratio = 1;              // written when > 1 (the file's kept otherwise)
  std::string linearization;  // written when not empty
  // The file's scheme_options: are its scheme's, and the designed scheme does not take them all:
  // they are left out.
  bool without_scheme_options = false;
};

// `text` is the file `model` was loaded from: with its states: block replaced by the partition
// whose fast states are `fast` (first-order models; each state's initial value as the file
// writes it). Throws std::runtime_error when the file has no top-level states:.
std::string with_partition(const std::string& text, const Model& model, const std::vector<std::string>& fast);

// The lines of `text`'s top-level states: block (empty when there is none).
std::string states_block(const std::string& text);

// `text` with its simulation: section's scheme, step, ratio and linearization set (the section
// added when there is none), and its scheme_options: left out when asked. Throws
// std::runtime_error when simulation: is not a block mapping.
std::string with_simulation(const std::string& text, const DesignedSimulation& simulation);

// `text` with its inputs: block written anew with each input of `model` held as model says:
// the mapping form {value: ..., hold: ...} (unit and description kept) where the hold is not zero,
// the file's form otherwise; each default value as the file writes it. Throws
// std::runtime_error when the file has no top-level inputs:.
std::string with_input_holds(const std::string& text, const Model& model);

}  // namespace dualrate
