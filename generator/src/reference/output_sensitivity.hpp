// How a model's outputs move with what they read: verify's output tolerances (verify/output_check.hpp).
// From the output expressions with the variables expanded (Model::variable_definitions),
// differentiated symbolically, evaluated in double at (t, x, u) with the model's parameters.
#pragma once

#include <Eigen/Dense>

#include <map>
#include <string>
#include <vector>

#include "model/evaluator.hpp"
#include "model/model.hpp"

namespace dualrate {

class OutputSensitivity {
 public:
  explicit OutputSensitivity(const Model& model);

  struct At {
    Eigen::MatrixXd d_dx;   // dy_k/dx_j
    Eigen::VectorXd terms;  // per output k: |y_k| + sum over the states, inputs and parameters v of |dy_k/dv v|
  };
  At at(double t, const std::vector<double>& x, const std::vector<double>& u) const;

  // Per output: the operations that round in its evaluation (output_operations).
  const std::vector<int>& operations() const { return operations_; }

 private:
  const Model& model_;
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> slots_;  // t, states, inputs, parameters
  std::vector<Evaluator> outputs_;
  std::vector<std::vector<Evaluator>> d_dx_;    // per output, per state
  std::vector<std::vector<Evaluator>> scaled_;  // per output: the nonzero dy/dv v of inputs and parameters
  std::vector<int> operations_;
};

// The roundings an evaluation of e makes: one per operation of a sum or product (operands - 1),
// |n| - 1 multiplications and for n < 0 a division for an integer power n, and two for an
// elementary function, a non-integer power or a table (the function's own rounding, within an
// ulp in the portable libm, and its result's).
int output_operations(const GiNaC::ex& e);

// Why the generated outputs() of a model may round otherwise than the reference core's Evaluator
// in the same arithmetic: an output reads a solved acceleration (factorized at run time). Empty
// when both compute the same operations.
std::string output_exact_difference(const Model& model);

}  // namespace dualrate
