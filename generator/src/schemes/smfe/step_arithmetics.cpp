#include "schemes/smfe/step_arithmetics.hpp"

#include "ir/counted_arithmetic.hpp"
#include "ir/function_cost.hpp"
#include "schemes/smfe/step_formula.hpp"

namespace dualrate {

namespace {

using Eigen::MatrixXd;

// The step on x' = J x: its vectors the columns of a matrix, its rates J times them.
struct LinearArithmetic {
  using Scalar = double;
  using Time = double;
  using Vector = MatrixXd;

  const MatrixXd& j;

  MatrixXd rate_at_start(double, const MatrixXd& x) const { return j * x; }
  MatrixXd rate(double, const MatrixXd& x) const { return j * x; }
};

// The step on counted sizes: each right-hand side at its emitted cost, and before each after
// the first (at the sample) the held inputs' evaluation.
struct CountingArithmetic {
  using Scalar = CountedScalar;
  using Time = CountedScalar;
  using Vector = CountedVector;

  const Model& model;
  StepCost& cost;

  Vector rate_at_start(const Time&, const Vector& x) const {
    cost.add_work(derivative_ops(model, Rows::kAll));
    return {x.rows(), cost.ops};
  }
  Vector rate(const Time& t, const Vector& x) const {
    cost.ops += held_input_evaluation_ops(model);
    return rate_at_start(t, x);
  }
};

}  // namespace

MatrixXd smfe_step_map(const MatrixXd& j, double macro_step, double inner_step, int inner_steps) {
  LinearArithmetic a{j};
  return smfe_step(a, 0.0, macro_step, inner_step, inner_steps, MatrixXd::Identity(j.rows(), j.cols()));
}

StepCost smfe_step_cost(const Model& model, int inner_steps, const ConstantSchedule* schedule) {
  StepCost c;
  CountingArithmetic a{model, c};
  c.ops += held_input_ops(model, 0);  // the held inputs' polynomials, formed before the step
  smfe_step(a, CountedScalar(c.ops), CountedScalar(c.ops), CountedScalar(c.ops), inner_steps,
            CountedVector(static_cast<Eigen::Index>(model.states.size()), c.ops));
  if (schedule) c.add_work(schedule_ops(model, {}, 1, *schedule));
  return c;
}

}  // namespace dualrate
