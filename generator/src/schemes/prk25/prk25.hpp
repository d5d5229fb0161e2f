// Seed 003's partitioned Runge-Kutta scheme on the generator side: the tableau of the
// runtime (dualrate/schemes/prk.hpp) as data, its order, coupling and stability conditions,
// the reference core's plain transcription of one step, and the operation count of the
// runtime's step.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "ir/op_count.hpp"
#include "reference/reference_model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

struct PrkTableau {
  int stages = 0;
  std::vector<std::vector<double>> a, a_fast;  // s x s, strictly lower triangular
  std::vector<double> b, b_fast;
  std::vector<double> c() const;       // row sums of a
  std::vector<double> c_fast() const;  // row sums of a_fast
  // Whether stage i's slow (fast) derivative is used by a later stage or by the update.
  bool slow_used(std::size_t i) const;
  bool fast_used(std::size_t i) const;
};

// The runtime's dualrate::Prk25Tableau.
const PrkTableau& prk25_tableau();

// A condition on the tableau: `value` should equal `expected`.
struct TableauCondition {
  std::string what;
  double value;
  double expected;
};

// Seed 003's second-order conditions of each tableau and the coupling conditions (six in
// all), then Table 5's coefficients of the fast tableau's stability polynomial: b̂ Â^(k-2) ĉ
// = beta_k for k = 3..s.
std::vector<TableauCondition> prk25_conditions(const PrkTableau& t);

// The stability polynomial of an explicit tableau (a, b) at z: 1 + z b.(I - z a)^-1 1.
std::complex<double> stability_function(const std::vector<std::vector<double>>& a, const std::vector<double>& b,
                                        std::complex<double> z);

// One step of eqs. 18-21 for x' = f(t, x), split after `slow` states: each stage's slow and
// fast stage values, the right-hand side at each stage that uses it (slow part at t + c_i h,
// fast part at t + ĉ_i h), each non-zero coefficient's term (h w) k, as dualrate::Prk computes
// them (a zero coefficient's term and an unused stage would add exactly zero).
std::vector<double> prk_reference_step(const PrkTableau& t, const RightHandSide& f, std::size_t slow, double time,
                                       double h, const std::vector<double>& x);

// Operations of one step of the runtime's Prk for this tableau: prk_reference_step's formula
// (written as dualrate::Prk computes it) run on counted sizes, each partition's right-hand side
// at its emitted cost, and the held inputs formed once and evaluated at each stage time past
// the step's start.
StepCost prk_step_cost(const PrkTableau& t, const Model& model);

// prk25's registry entry: the reference step (prk_reference_step on the 2-5 tableau, in double
// and in float) and the runtime step's cost (prk_step_cost).
SchemeInfo prk25_scheme();

}  // namespace dualrate
