#include "schemes/runge_kutta/runge_kutta.hpp"

#include <algorithm>

#include "ir/function_cost.hpp"

namespace dualrate {

namespace {

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

// Per step: `stages` right-hand-side evaluations at `times` times past the step's start and the
// vector arithmetic the runtime writes.
StepCost cost(const Model& model, int stages, int times, long add_per_state, long add, long mul_per_state, long div) {
  const long n = static_cast<long>(model.states.size());
  StepCost c;
  c.add_work(stages * derivative_ops(model, Rows::kAll));
  c.ops += arithmetic(add_per_state * n + add, mul_per_state * n, div);
  c.ops += held_input_ops(model, times);
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
  // x += h k
  euler.hooks.cost = [](const Model& m, const GenerateRequest&, const SchemeDesign&) {
    return cost(m, 1, 0, 1, 0, 1, 0);
  };
  SchemeInfo rk2 =
      runge_kutta("rk2", "dualrate::Rk2", "dualrate/schemes/rk2.hpp", 2, "Heun's method (explicit trapezoidal)");
  rk2.hooks.reference_step = [](const ReferenceSetup&, double) -> ReferenceStep { return heun_step; };
  rk2.hooks.float_reference = float_step_of<heun_step_in<float, FloatAdd>>;
  // x + h k1, t + h, x += (h/2) (k1 + k2)
  rk2.hooks.cost = [](const Model& m, const GenerateRequest&, const SchemeDesign&) {
    return cost(m, 2, 1, 3, 1, 2, 1);
  };
  SchemeInfo rk4 =
      runge_kutta("rk4", "dualrate::Rk4", "dualrate/schemes/rk4.hpp", 4, "classical fourth-order Runge-Kutta");
  rk4.hooks.reference_step = [](const ReferenceSetup&, double) -> ReferenceStep { return rk4_step; };
  rk4.hooks.float_reference = float_step_of<rk4_step_in<float, FloatAdd>>;
  // three stage inputs and times, h/2, h/6, weighted sum
  rk4.hooks.cost = [](const Model& m, const GenerateRequest&, const SchemeDesign&) {
    return cost(m, 4, 2, 7, 3, 6, 2);
  };
  return {euler, rk2, rk4};
}

}  // namespace dualrate
