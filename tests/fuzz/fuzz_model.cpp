// libFuzzer harness: the model loader (model.hpp) on arbitrary text: YAML, sections, names,
// expressions, second-order form, signals, and the check of its scheme against the registry.
// Every input is loaded or refused with a ModelError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/model.hpp"
#include "registry/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    dualrate::check_model_scheme(
        dualrate::load_model_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml"));
  } catch (const dualrate::ModelError&) {
  }
  return 0;
}
