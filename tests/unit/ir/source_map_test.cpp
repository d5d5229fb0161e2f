// Equation-to-code traceability (source_map.hpp): every equation of every model is traced to
// header lines that carry its `// FILE:LINE` comment, in every scheme the model can be
// generated with; generate --trace writes the same map from any run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "emit/cpp_emitter.hpp"
#include "base/diagnostics.hpp"
#include "base/process.hpp"
#include "registry/registry.hpp"
#include "ir/straight_line.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The model lines a header line's source comment names (`// FILE:L1,L2` at its end), or none.
std::set<int> named_lines(const std::string& line, const std::string& file) {
  const std::string mark = "  // " + file + ":";
  const std::size_t at = line.rfind(mark);
  if (at == std::string::npos) return {};
  std::set<int> named;
  std::istringstream list(line.substr(at + mark.size()));
  for (std::string n; std::getline(list, n, ',');) named.insert(std::stoi(n));
  return named;
}

std::vector<std::string> model_files() { return test::yaml_files({"models"}); }

GenerateRequest options_for(const Model& m, const std::string& scheme, ScalarType scalar) {
  return {scheme, m.simulation.step.value_or(0), m.simulation.ratio, scalar, "test"};
}

// Generates m with the scheme, and its design, or returns false when the scheme does not suit
// the model.
bool generate(const Model& m, const GenerateRequest& g, TracedHeader& out, SchemeDesign& design) {
  const SchemeInfo* info = find_scheme(g.scheme);
  if (info->traits.dual_rate && (m.slow_count == 0 || m.fast_count() == 0)) return false;
  try {
    design = precompute_scheme(m, g);
    out = generate_traced_header(m, g, design);  // refuses what cannot take a model's calibration
  } catch (const ModelError&) {
    return false;
  }
  return true;
}

// Every equation (with scheduled constants, the scheduling values too) has header lines, each
// naming its model line; every line with a source comment is traced under an equation of each
// model line it names; every constant has an origin and is in the header.
void check_traced(const Model& m, const SchemeDesign& g, const TracedHeader& h, const std::string& what,
                  long& equations) {
  const std::string file = std::filesystem::path(m.file).filename().string();
  EXPECT_EQ(h.source_map.comment_file, file);
  const std::vector<std::string> lines = lines_of(h.text);
  std::vector<Equation> all = model_equations(m);
  if (g.schedule)
    for (const Equation& e : schedule_equations(m)) all.push_back(e);
  ASSERT_EQ(h.source_map.equations.size(), all.size()) << what;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const TracedEquation& t = h.source_map.equations[i];
    EXPECT_EQ(t.equation, all[i]) << what;
    EXPECT_GT(t.equation.line, 0) << what << ": " << t.equation.name;
    EXPECT_FALSE(t.lines.empty()) << what << ": " << to_string(t.equation.kind) << " " << t.equation.name
                                  << " has no generated line";
    for (int l : t.lines) {
      ASSERT_TRUE(l >= 1 && static_cast<std::size_t>(l) <= lines.size()) << what << ": line " << l;
      EXPECT_EQ(named_lines(lines[l - 1], file).count(t.equation.line), 1u)
          << what << ": " << t.equation.name << " (model line " << t.equation.line << ") at header line " << l << ": "
          << lines[l - 1];
    }
    ++equations;
  }
  for (const auto& c : h.source_map.constants) {
    EXPECT_FALSE(c.origin.empty()) << what << ": " << c.name;
    const bool emitted = h.text.find(" " + c.name + " = ") != std::string::npos ||
                         h.text.find(" " + c.name + "(const Schedule&") != std::string::npos ||
                         h.text.find(" " + c.name + "_points_[") != std::string::npos;  // a scheduled real
    EXPECT_TRUE(emitted) << what << ": constant " << c.name << " is not in the header";
  }
  for (std::size_t l = 1; l <= lines.size(); ++l)
    for (int named : named_lines(lines[l - 1], file)) {
      bool traced = false;
      for (const auto& t : h.source_map.equations)
        traced = traced ||
                 (t.equation.line == named && std::binary_search(t.lines.begin(), t.lines.end(), static_cast<int>(l)));
      EXPECT_TRUE(traced) << what << ": header line " << l << " names model line " << named
                          << " but no equation of that line lists it: " << lines[l - 1];
    }
}

TEST(SourceMap, EveryEquationOfEveryModelIsTracedInEveryScheme) {
  init_symbolic();
  long headers = 0, equations = 0;
  const std::vector<std::string> files = model_files();
  ASSERT_FALSE(files.empty());
  for (const auto& path : files) {
    const Model m = load_model_file(path);
    std::vector<std::pair<std::string, ScalarType>> cases;
    for (const auto& s : scheme_names()) cases.emplace_back(s, ScalarType::kDouble);
    cases.emplace_back(m.simulation.scheme, ScalarType::kFloat);
    for (const auto& [scheme, scalar] : cases) {
      const std::string what = test::stem(path) + " " + scheme + " " + to_string(scalar);
      GenerateRequest g = options_for(m, scheme, scalar);
      // Model::jacobian is the same in every scheme (and refused for a mass matrix that depends
      // on the coordinates): checked with rk4.
      g.jacobian = scheme == "rk4" && !(m.second_order && !m.second_order->constant_mass);
      TracedHeader h;
      SchemeDesign design;
      const bool generated = generate(m, g, h, design);
      if (scheme == "rk4" || scheme == m.simulation.scheme) {
        ASSERT_TRUE(generated) << what;
      }
      if (!generated) continue;
      check_traced(m, design, h, what, equations);
      ++headers;
    }
  }
  std::cout << files.size() << " models, " << headers << " headers, " << equations << " equations traced\n";
}

// The map of a model, in the JSON generate --trace writes: the same from two runs of the CLI
// (two processes, each with its own GiNaC term order) as from this one.
TEST(SourceMap, TheTraceIsTheSameFromEveryGeneration) {
  init_symbolic();
  const std::string dir = make_temp_dir("dualrate-trace");
  for (const auto& path : model_files()) {
    const Model m = load_model_file(path);
    GenerateRequest g = options_for(m, m.simulation.scheme, ScalarType::kDouble);
    TracedHeader h;
    SchemeDesign design;
    ASSERT_TRUE(generate(m, g, h, design)) << path;
    const std::string json = source_map_json(h.source_map) + "\n";
    for (const char* run : {"a", "b"}) {
      const std::string trace = dir + "/" + test::stem(path) + "." + run + ".json";
      const ProcessResult r =
          run_process({test::cli(), "generate", path, "--allow-unstable", "-o", dir, "--trace", trace});
      ASSERT_EQ(r.exit_code, 0) << r.output;
      std::ifstream in(trace, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      EXPECT_EQ(text.str(), json) << path << " run " << run;
    }
  }
  std::filesystem::remove_all(dir);
}

// A shared term serves every equation whose statement uses it, directly or through another
// shared term or a variable: in shared_terms.yaml sin(th) is in the variable lever (line 11)
// and the equations of w and z (lines 20, 21), not in th's (line 19); each of the three rate
// functions shares it among those it computes.
TEST(SourceMap, ASharedTermNamesTheEquationsItIsComputedFor) {
  const Model m = test::load(test::source_path("tests/models/valid/shared_terms.yaml"));
  const TracedHeader h = generate_traced_header(m, {"rk4", 0.01, 1, ScalarType::kDouble, "test"}, {});
  const std::vector<std::pair<std::string, std::set<int>>> expected = {
      {"derivatives", {11, 20, 21}}, {"slow_derivatives", {11, 20}}, {"fast_derivatives", {11, 21}}};
  for (const auto& [function, sources] : expected) {
    const std::size_t begin = h.text.find("static void " + function + "(");
    ASSERT_NE(begin, std::string::npos) << function;
    const std::vector<std::string> body = lines_of(h.text.substr(begin, h.text.find("\n  }\n", begin) - begin));
    int sines = 0;
    for (const auto& line : body)
      if (line.find("_ = dualrate::math::sin(th);") != std::string::npos) {
        EXPECT_EQ(named_lines(line, "shared_terms.yaml"), sources) << function << ": " << line;
        ++sines;
      }
    EXPECT_EQ(sines, 1) << function;
  }

  std::vector<GiNaC::ex> rhs;
  for (const auto& x : m.states) rhs.push_back(x.rhs);
  const StraightLine body = straight_line(m, rhs);
  const std::vector<Served> serving = served(body);
  ASSERT_EQ(serving.size(), body.locals.size());
  for (std::size_t i = 0; i < body.locals.size(); ++i) {
    const Local& l = body.locals[i];
    if (l.variable) {
      ASSERT_EQ(serving[i].variables.size(), 1u);
      EXPECT_EQ(serving[i].variables[0], l.variable);
      EXPECT_TRUE(serving[i].results.empty());
    } else if (l.value.is_equal(GiNaC::sin(m.states[0].symbol))) {
      ASSERT_EQ(serving[i].variables.size(), 1u);
      EXPECT_EQ(serving[i].variables[0]->name, "lever");
      EXPECT_EQ(serving[i].results, (std::vector<std::size_t>{1, 2}));
    }
  }
}

TEST(SourceMap, JsonEscapesNamesAndOrigins) {
  SourceMap map;
  map.model_file = "dir with \"quote\"/m.yaml";
  map.comment_file = "m.yaml";
  map.header = "m.hpp";
  map.equations = {{{EquationKind::kOutput, "y", 7}, {30, 41}}};
  map.constants = {{"gz_inv", "line one\nline two"}};
  EXPECT_EQ(source_map_json(map),
            "{\"model_file\":\"dir with \\\"quote\\\"/m.yaml\",\"comment_file\":\"m.yaml\",\"header\":\"m.hpp\","
            "\"equations\":[{\"kind\":\"output\",\"name\":\"y\",\"line\":7,\"generated_lines\":[30,41]}],"
            "\"constants\":[{\"name\":\"gz_inv\",\"origin\":\"line one\\nline two\"}]}");
}

}  // namespace
}  // namespace dualrate
