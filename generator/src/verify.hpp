// `dualrate verify`: generated code, compiled and run, against the reference core.
#pragma once

#include <string>

#include "cpp_emitter.hpp"
#include "model.hpp"

namespace dualrate {

struct VerifyOptions {
  GenerateOptions generate;
  double t_end = 0;
  int every = 1;
  std::string target = "host";
  std::string keep_dir;  // keep everything here (empty: a temporary directory, removed after)
};

struct VerifyResult {
  std::string model, scheme, target, scalar;
  long steps = 0;
  double max_error = 0;   // max over samples and states of |gen - ref| / max(1, max_t |ref|)
  double tolerance = 0;
  bool pass = false;
  std::string worst_state;
  double worst_time = 0;
  std::string error;      // why the run could not be compared, if it could not
  std::string directory;  // where the kept files are (empty when not kept)

  std::string json() const;
};

// Tolerance for generated code in `scalar` against the reference core over `steps` steps
// of a scheme with `stages` derivative evaluations per step (derivation in verify.cpp).
double verify_tolerance(ScalarType scalar, long steps, int stages);

VerifyResult verify(const Model& model, const VerifyOptions& options);

}  // namespace dualrate
