// The integration schemes the generator knows, by name.
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct SchemeInfo {
  const char* name;
  const char* runtime_class;  // class template in the runtime, instantiated with the model
  const char* header;         // runtime header that defines it
  int order;
  const char* summary;
  int evaluations;            // right-hand-side evaluations per step
  bool constants = false;     // instantiated as <Model, SchemeConstants> with precomputed matrices
  double double_tolerance = 1e-12;  // verify bound against the reference core in double
  bool dual_rate = false;     // runs as a fast and a slow task (dualrate::DualRate), H = ratio h
  bool parallel = false;      // dual-rate: the parallel two-track variant
};

const std::vector<SchemeInfo>& schemes();

struct GenerateOptions;
struct Model;
// Fills options' constants for the schemes that run on generator-chosen constants (sp_ll:
// matrices; smfe: h_s and N); a no-op for the others. Throws ModelError when the model does
// not suit the scheme.
void precompute_scheme(const Model& model, bool frozen, GenerateOptions& options);
const SchemeInfo* find_scheme(const std::string& name);
std::vector<std::string> scheme_names();

}  // namespace dualrate
