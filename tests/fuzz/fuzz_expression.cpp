// libFuzzer harness: the expression parser (expression.hpp) on arbitrary text, in a scope with
// a few names and time. Every input is parsed or refused with a ModelError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const GiNaC::symbol x("x"), y("y"), k("k"), t("t");
  static const GiNaC::ex time = t;
  static const dualrate::ExpressionScope scope = [] {
    dualrate::ExpressionScope s;
    s.allowed = {{"x", x}, {"y", y}, {"k", k}};
    s.forbidden = {{"u", "an input"}};
    s.time = &time;
    s.what = "the fuzzed expression";
    return s;
  }();
  const dualrate::ExpressionText text{std::string(reinterpret_cast<const char*>(data), size), {"fuzz.yaml", 1, 1}};
  try {
    dualrate::parse_expression(text, scope);
  } catch (const dualrate::ModelError&) {
  }
  return 0;
}
