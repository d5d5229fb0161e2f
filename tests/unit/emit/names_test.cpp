// A model may name its values anything C allows but a C++ keyword and the model language's own
// names: the generated code renames a name it would collide with (model/cpp_names.hpp). The test
// takes the identifiers of generated headers (a plain model, a calibratable one under the task
// form, sp_ll's constants) and names a model's parameters, variables, states, inputs, outputs
// and table with exactly them; its code must build and verify.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "emit/cpp_emitter.hpp"
#include "model/functions.hpp"
#include "model/loader.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

// The identifiers of `header` a model may use as names: not keywords, not the model language's.
std::set<std::string> identifiers(const std::string& header) {
  static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
  std::set<std::string> found;
  for (std::sregex_iterator i(header.begin(), header.end(), identifier), end; i != end; ++i) {
    const std::string name = i->str();
    if (loading::cpp_keywords().count(name) || loading::reserved_names().count(name) || find_model_function(name) ||
        name.find("__") != std::string::npos)
      continue;
    found.insert(name);
  }
  return found;
}

std::string header_of(const std::string& model, const std::string& scheme) {
  const Model m = test::load(test::source_path(model));
  GenerateRequest r{scheme, m.simulation.step.value(), m.simulation.ratio, ScalarType::kFloat, "test"};
  return generate_header(m, r, precompute_scheme(m, r));
}

// A two-time-scale model whose names are `names`: the first ones the states, the input, the
// outputs and the table; then parameters and variables alternately, each variable the product of
// a parameter and the slow state, all of them in the fast state's equation.
std::string model_text(const std::vector<std::string>& names) {
  const std::string& slow = names[0];
  const std::string& fast = names[1];
  const std::string& input = names[2];
  const std::string& table = names[3];
  std::string parameters, variables, sum;
  for (std::size_t i = 7; i + 1 < names.size(); i += 2) {
    parameters += fmt::format("  {}: {}\n", names[i], 1e-3 * static_cast<double>(i));
    variables += fmt::format("  {}: {}*{}\n", names[i + 1], names[i], slow);
    sum += " + " + names[i + 1];
  }
  return fmt::format(
      "name: {0}_\n"
      "parameters:\n{1}"
      "inputs:\n  {2}: 0\n"
      "states:\n  slow:\n    {3}: 1.0\n  fast:\n    {4}: 0.0\n"
      "variables:\n{5}"
      "equations:\n  {3}: -{3} + 0.1*{4} + {2}\n  {4}: -({4} - 1e-3*({6}))/0.01\n"
      "outputs:\n  {7}: {3} + {8}({4})\n  {9}: {4}*{3}\n"
      "tables:\n  {8}:\n    breakpoints: [[-1, 0, 1]]\n    values: [1, 0, 1]\n"
      "simulation:\n  t_end: 0.05\n  step: 0.001\n",
      names[5], parameters, input, slow, fast, variables, sum.substr(3), names[4], table, names[6]);
}

TEST(GeneratedNames, AModelNamedWithTheGeneratedCodesOwnNamesBuildsAndVerifies) {
  std::set<std::string> all;
  for (const auto& [model, scheme] :
       std::vector<std::pair<std::string, std::string>>{{"models/dc_motor.yaml", "rk4"},
                                                        {"models/dc_motor.yaml", "sp_ll"},
                                                        {"models/vehicle_driveline.yaml", "mrabm4"},
                                                        {"models/tire_lag_vehicle.yaml", "sp_ll"}})
    for (const auto& name : identifiers(header_of(model, scheme))) all.insert(name);
  // Names of the generated code's own first: they are the states, input, table and outputs.
  std::vector<std::string> names;
  for (const char* own : {"x_", "Scalar", "u_", "Model", "y_", "State"}) {
    ASSERT_TRUE(all.count(own)) << own;
    names.push_back(own);
  }
  for (const auto& name : all)
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  ASSERT_GT(names.size(), 100U);
  const std::string text = model_text(names);
  const Model m = load_model_text(text, "names.yaml");
  for (const char* scheme : {"rk4", "sp_ll", "mrabm4"}) {
    VerifyOptions o;
    o.generate = {scheme, 1e-3, 1, ScalarType::kFloat, "test"};
    o.t_end = 0.05;
    if (std::string(scheme) == "mrabm4") o.tasks = Tasks::kSingle;
    const VerifyResult r = verify(m, o);
    EXPECT_EQ(r.error, "") << scheme;
    EXPECT_TRUE(r.pass) << r.json();
  }
}

}  // namespace
}  // namespace dualrate
