// The canonical form of model expressions and their printing as C++. Emission, operation
// counts, common subexpressions and the reference core's evaluator all follow this one order
// of operands, so that the same model gives the same bytes from any build of the generator.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

namespace dualrate {

// An exact C++ literal for v, cast to Scalar: Scalar(3), Scalar(0x1.999999999999ap-4).
std::string scalar_literal(double v);
// The same, cast to `type` (float, double) where no Scalar is declared.
std::string typed_literal(double v, const std::string& type);

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
// Whether a term prints with a minus sign: a negative number, a product whose canonical
// coefficient (product_parts) is negative, or an odd integer power of a sum that GiNaC holds
// in the sign opposite to the sum's preferred_sign. In a sum, such a term after the first is
// subtracted.
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

}  // namespace dualrate
