// Emission of C++ from the model IR. Emission is deliberately dumb: it prints what the IR
// says, in a fixed order, with constants written exactly (hex floats), so that the same
// model and options give the same bytes.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <memory>
#include <string>

#include "ir/linear_map.hpp"
#include "ir/source_map.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// The namespace of the generated code, which also names the header: request.name_space, or
// the model's name.
std::string generated_namespace(const Model& model, const GenerateRequest& request);

// The whole generated header for the model, the request and the scheme's design for it
// (precompute_scheme).
std::string generate_header(const Model& model, const GenerateRequest& request, const SchemeDesign& design);

// The header and where each of its statements comes from (ir/source_map.hpp).
struct TracedHeader {
  std::string text;
  SourceMap source_map;
};
TracedHeader generate_traced_header(const Model& model, const GenerateRequest& request, const SchemeDesign& design);

// What a generated header's first two lines say it is (generate_traced_header writes them):
// its namespace, scheme, step and scalar; `generated` false when the text does not begin as a
// generated header does.
struct HeaderBanner {
  bool generated = false;
  std::string ns, scheme, scalar;
  double step = 0;
};
// The line that opens each instance's namespace in a header generated with --instances.
inline constexpr const char* kInstanceBanner = "\n// Model instance ";

HeaderBanner read_header_banner(const std::string& text);

}  // namespace dualrate
