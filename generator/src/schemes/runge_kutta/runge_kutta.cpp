#include "schemes/runge_kutta/runge_kutta.hpp"

#include <algorithm>

#include "ir/counted_arithmetic.hpp"
#include "ir/function_cost.hpp"

namespace dualrate {

namespace {

// A right-hand side on counted sizes, at counted stage times.
using CountedRhs =
    std::function<void(const CountedScalar& t, const std::vector<CountedScalar>& x, std::vector<CountedScalar>& dxdt)>;

// A textbook explicit Runge-Kutta method on the whole state.
SchemeInfo runge_kutta(const char* name, const char* runtime_class, const char* header, int order,
                       const char* summary) {
  SchemeInfo s;
  s.identity.name = name;
  s.identity.runtime_class = runtime_class;
  s.identity.header = header;
  s.traits.order = order;
  s.identity.summary = summary;
  s.traits.evaluations = order;
  s.traits.uniform = true;
  s.verify.step_scaled_constants = true;
  s.traits.held_inputs = true;
  s.traits.hold_degree = std::clamp(order - 1, 0, 2);  // a hold of degree d keeps at most order d + 1
  s.traits.compensated_update = CompensatedUpdate::kAllStates;
  return s;
}

// One step of Step (numeric/ode.hpp's euler_step_in, heun_step_in, rk4_step_in) on counted
// sizes (SchemeHooks::cost): each right-hand side at its emitted cost, the vector and time
// arithmetic as the step does it; and the held inputs formed and evaluated at the kTimes stage
// times past the step's start where the runtime evaluates them (not a call of f each: stages
// at one time share them).
template <std::vector<CountedScalar> (*Step)(const CountedRhs&, CountedScalar, CountedScalar,
                                             const std::vector<CountedScalar>&, PlainAdd),
          int kTimes>
StepCost counted_step_cost(const Model& model, const GenerateRequest&, const SchemeDesign&) {
  StepCost c;
  const CountedRhs f = [&model, &c](const CountedScalar&, const std::vector<CountedScalar>& x,
                                    std::vector<CountedScalar>& k) {
    c.add_work(derivative_ops(model, Rows::kAll));
    k.assign(x.size(), CountedScalar(c.ops));
  };
  Step(f, CountedScalar(c.ops), CountedScalar(c.ops),
       std::vector<CountedScalar>(model.states.size(), CountedScalar(c.ops)), {});
  c.ops += held_input_ops(model, kTimes);
  return c;
}

// The float step of a textbook scheme on the model's right-hand side (SchemeHooks::float_reference),
// its update added as the build's Sum adds it.
struct FloatAdd {
  const FloatModel& model;
  float operator()(std::size_t j, float x, float dx) const { return compensated_add(model, j, x, dx); }
};
template <std::vector<float> (*Step)(const RightHandSideIn<float>&, double, float, const std::vector<float>&, FloatAdd)>
FloatStep float_step_of(const ReferenceSetup&, double) {
  return [](const FloatModel& m, double t, float h, const std::vector<float>& x) { return Step(m.f, t, h, x, {m}); };
}

}  // namespace

std::vector<SchemeInfo> runge_kutta_schemes() {
  SchemeInfo euler = runge_kutta("euler", "dualrate::Euler", "dualrate/schemes/euler.hpp", 1, "forward Euler");
  euler.hooks.reference_step = [](const ReferenceSetup&, double) -> ReferenceStep { return euler_step; };
  euler.hooks.float_reference = float_step_of<euler_step_in<float, FloatAdd>>;
  euler.hooks.cost = counted_step_cost<euler_step_in<CountedScalar, PlainAdd, CountedRhs, CountedScalar>, 0>;
  SchemeInfo rk2 =
      runge_kutta("rk2", "dualrate::Rk2", "dualrate/schemes/rk2.hpp", 2, "Heun's method (explicit trapezoidal)");
  rk2.hooks.reference_step = [](const ReferenceSetup&, double) -> ReferenceStep { return heun_step; };
  rk2.hooks.float_reference = float_step_of<heun_step_in<float, FloatAdd>>;
  rk2.hooks.cost = counted_step_cost<heun_step_in<CountedScalar, PlainAdd, CountedRhs, CountedScalar>, 1>;
  SchemeInfo rk4 =
      runge_kutta("rk4", "dualrate::Rk4", "dualrate/schemes/rk4.hpp", 4, "classical fourth-order Runge-Kutta");
  rk4.hooks.reference_step = [](const ReferenceSetup&, double) -> ReferenceStep { return rk4_step; };
  rk4.hooks.float_reference = float_step_of<rk4_step_in<float, FloatAdd>>;
  rk4.hooks.cost = counted_step_cost<rk4_step_in<CountedScalar, PlainAdd, CountedRhs, CountedScalar>, 2>;
  return {euler, rk2, rk4};
}

}  // namespace dualrate
