// Emission of C++ from the model IR. Emission is deliberately dumb: it prints what the IR
// says, in a fixed order, with constants written exactly (hex floats), so that the same
// model and options give the same bytes.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <memory>
#include <string>

#include "ir/linear_map.hpp"
#include "model/model.hpp"
#include "ir/source_map.hpp"

namespace dualrate {

enum class ScalarType { kFloat, kDouble };
const char* to_string(ScalarType s);
ScalarType scalar_type(const std::string& name);  // "float", else double

// An integer or boolean constant of a scheme (C++ type `type`: int or bool).
struct SchemeInteger {
  std::string name, type;
  long value = 0;
  std::string what;
  std::string origin{};  // the analysis that produced it (SourceMap's constants)
};

// A real constant of a scheme (emitted as `static constexpr Scalar name`).
struct SchemeReal {
  std::string name;
  double value = 0;
  std::string what;
  std::string origin{};  // the analysis that produced it (SourceMap's constants)
};

// A function of (t, x, u) a scheme evaluates besides the model's: `type` dxdt_ with
// dxdt_[i] = roots[i], the roots in t, states, inputs, parameters and `model`'s variables.
struct SchemeFunction {
  std::string name, type, what;
  std::vector<GiNaC::ex> roots;
  std::vector<std::size_t> root_states{};  // the state whose equation each root derives from (its source)
};

struct GenerateOptions {
  std::string scheme;
  double step = 0;  // h
  int ratio = 1;
  ScalarType scalar = ScalarType::kDouble;
  std::string generator_version;
  // Precomputed by the scheme, each emitted into SchemeConstants as a function v -> M v over
  // its nonzeros (linear_map).
  std::vector<NamedMatrix> matrices;
  std::string notes;                   // how the constants were obtained (comment in the header)
  double inner_step = 0;  // smfe: h_s as given (0: chosen by the generator), then as chosen
  int inner_steps = 0;    // smfe: N, chosen by the generator (also in integers, as SchemeConstants::inner_steps)
  std::vector<SchemeInteger> integers{};  // emitted into SchemeConstants
  std::vector<SchemeReal> reals{};        // emitted into SchemeConstants
  // Emitted into SchemeConstants, which then derives from Model (its types and parameters);
  // written from `function_model`'s variables (a scheme's reduced form of the model).
  std::vector<SchemeFunction> functions{};
  std::shared_ptr<const Model> function_model{};
  bool defer_overruns = false;  // dual-rate: OverrunPolicy::kDefer instead of kSkip (dualrate/dual_rate.hpp)
  std::string name_space{};      // of the generated code and the header's name (empty: the model's name)
  bool jacobian = false;         // also emit Model::jacobian (--jacobian)
};

// An exact C++ literal for v, cast to Scalar: Scalar(3), Scalar(0x1.999999999999ap-4).
std::string scalar_literal(double v);

// C++ text for a model expression. Symbols print as their names (the emitted code binds a
// local or constant of that name); functions print as <cmath> or dualrate::math calls.
// Sums and products print in the canonical order of sum_terms and product_parts.
std::string cpp_expression(const GiNaC::ex& e);

// The canonical order of operands, which emission, operation counts and the reference core's
// evaluator follow. GiNaC orders them by hash values that change from one build of the
// generator to another (and with address-space randomisation from run to run); this order
// depends only on the expression, so the same model gives the same bytes from any build.
// A sum's terms: those without a negative sign first, each group by printed text.
std::vector<GiNaC::ex> sum_terms(const GiNaC::ex& sum);
// Whether a term prints with a minus sign: a negative number, or a product whose canonical
// coefficient (product_parts) is negative. In a sum, such a term after the first is subtracted.
bool negative_sign(const GiNaC::ex& term);
// A product as coefficient * prod(up) / prod(down) (down: the factors with negative numeric
// exponents, made positive), up and down each by printed text.
struct ProductParts {
  GiNaC::numeric coefficient = 1;
  std::vector<GiNaC::ex> up, down;
  // The product's sign with every sum factor in its preferred_sign: of p and -p exactly one is
  // negative. (The printed coefficient may differ: a sum factor takes a negative one.)
  bool negative = false;
};
ProductParts product_parts(const GiNaC::ex& product);
// Of a sum s and -s, the canonical one: fewer subtracted terms, then the first printed
// (GiNaC may hold either, depending on its internal order). Anything else is returned as is.
GiNaC::ex preferred_sign(const GiNaC::ex& sum);
// Of e and -e, the one a common subexpression is known by: a sum in its preferred_sign, a
// product without ProductParts::negative, a sum's integer power with the sum's preferred
// sign; anything else as is. GiNaC may hold either, depending on its internal order.
GiNaC::ex unsigned_form(const GiNaC::ex& e);
// The base of base^exponent as it is printed: preferred_sign(base) for an even integer
// exponent, where the two signs give the same power.
GiNaC::ex even_power_base(const GiNaC::ex& base, const GiNaC::ex& exponent);

// e with every sum factor of a product and every sum raised to an integer power in its
// preferred_sign, the sign moved to the product's coefficient, throughout: GiNaC then merges
// what differed only in the sign it happened to hold ((a - b)(b - a) = -(a - b)^2, c(a - b) -
// c(b - a) = 2c(a - b)), so the structure (not only the printed order) is the same from any
// build of the generator. Common subexpressions and the reference core work on this form.
GiNaC::ex canonical_form(const GiNaC::ex& e);

// The model variables that expressions `roots` need, dependencies first.
std::vector<const Variable*> needed_variables(const Model& m, const std::vector<GiNaC::ex>& roots);

// `static Eigen::Matrix<Scalar, rows, 1> NAME(const Eigen::Matrix<Scalar, cols, 1>& v_)`
// returning M v, written over M's nonzeros, after a comment on what M is and its structure.
std::string matrix_function(const LinearMap& m);

// The namespace of the generated code, which also names the header: options.name_space, or
// the model's name.
std::string generated_namespace(const Model& model, const GenerateOptions& options);

// The whole generated header for the model.
std::string generate_header(const Model& model, const GenerateOptions& options);

// The header and where each of its statements comes from (source_map.hpp).
struct TracedHeader {
  std::string text;
  SourceMap source_map;
};
TracedHeader generate_traced_header(const Model& model, const GenerateOptions& options);

}  // namespace dualrate
