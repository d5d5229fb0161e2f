// libFuzzer harness: the campaign file reader (campaign/campaign.hpp) on arbitrary text, read as
// if from tests/campaign/ so that the seeds' model paths load real models: keys, lists, steps,
// targets, parameter grids and points, the point count. Every input is expanded or refused with
// a ModelError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "campaign/campaign.hpp"
#include "base/diagnostics.hpp"
#include "model/functions.hpp"
#include "source_tree.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dualrate::init_symbolic();
  try {
    dualrate::load_campaign_text(std::string(reinterpret_cast<const char*>(data), size),
                                 dualrate::test::source_path("tests/campaign/fuzz.yaml"));
  } catch (const dualrate::ModelError&) {
  }
  return 0;
}
