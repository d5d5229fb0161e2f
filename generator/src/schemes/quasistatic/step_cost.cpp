#include "schemes/quasistatic/step_cost.hpp"

#include "ir/counted_arithmetic.hpp"
#include "schemes/quasistatic/step_formula.hpp"

namespace dualrate {

namespace {

// The step on counted sizes: each function and product at its emitted cost.
struct CountingArithmetic {
  using Scalar = CountedScalar;
  using Time = CountedScalar;
  using Slow = CountedVector;
  using Fast = CountedVector;
  struct Inputs {};

  const Model& model;
  const SchemeDesign& design;
  const QuasistaticStepConstants& step;
  StepCost& cost;

  Inputs sample(const Time&) const { return {}; }
  Inputs inputs_at(const Time&) const {
    cost.ops += held_input_evaluation_ops(model);
    return {};
  }
  void project(const Time&, const Inputs&, const Slow&, Fast& z) const {
    const long nf = z.rows();
    for (int i = 0; i < step.newton_iterations; ++i) {
      cost.add_work(function_ops(design, "residual"));
      if (step.inverse_precomputed) {
        cost.add_work(product_ops(design, "residual_jacobian_inverse"));
      } else {
        cost.add_work(function_ops(design, "residual_jacobian"));
        // LU with partial pivoting (n^3/3 multiply-adds, n(n-1)/2 divisions) and two triangular solves.
        cost.add_work(arithmetic(nf * nf * nf / 3 + nf * nf, nf * nf * nf / 3 + nf * nf, nf * (nf - 1) / 2 + nf));
      }
      z -= Fast(nf, cost.ops);
    }
  }
  Slow reduced_slow(const Time&, const Inputs&, const Slow& x, const Fast&) const {
    cost.add_work(function_ops(design, "reduced_slow"));
    return {x.rows(), cost.ops};
  }
  Slow updated(const Slow& x, const Slow& dx) const { return x + dx; }
  bool boundary_layer() const { return step.boundary_layer; }
  Fast layer_transition(const Fast& eta) const {
    cost.add_work(product_ops(design, "layer_transition"));
    return {eta.rows(), cost.ops};
  }
};

}  // namespace

StepCost quasistatic_step_cost(const Model& model, const SchemeDesign& design, const QuasistaticStepConstants& step) {
  StepCost c;
  CountingArithmetic a{model, design, step, c};
  c.ops += held_input_ops(model, 0);  // the held inputs' polynomials, formed before the step
  CountedVector x(static_cast<Eigen::Index>(model.slow_count), c.ops);
  CountedVector z(static_cast<Eigen::Index>(model.fast_count()), c.ops);
  quasistatic_step(a, CountedScalar(c.ops), CountedScalar(c.ops), x, z);
  if (design.schedule) c.add_work(schedule_ops(model, design.matrices, 0, *design.schedule));
  return c;
}

}  // namespace dualrate
