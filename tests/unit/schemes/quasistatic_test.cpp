// Seed 002's quasistatic scheme on the generator side: the construction of M0, the refusals
// (singular G_z, M0 whose kernel is not the small coordinates, no fast states), the Newton
// design, consistent initial values, and generated code against the reference core.
#include <gtest/gtest.h>

#include <cmath>

#include "model/functions.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "registry/registry.hpp"
#include "schemes/contract.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace dualrate {
namespace {

Model text_model(const std::string& yaml) {
  init_symbolic();
  return load_model_text(yaml, "inline.yaml");
}

// Two masses on springs; `mass` and the small coordinate's force vary per test.
std::string two_masses(const std::string& mass, const std::string& small_force) {
  return "name: two_masses\nparameters:\n  m: 1\n  e: 0.01\n  k: 100\n  c: 5\n"
         "coordinates:\n  x: {position: 1, velocity: 0}\n  z: {position: 0, velocity: 0}\n"
         "mass:\n  " +
         mass + "\nforces:\n  x: -k*x + k*z\n  z: " + small_force +
         "\n"
         "small:\n  coordinates: [z]\n  parameter: e\n";
}

// M = [[ms + mu, mu], [mu, mu]]: deleting the small diagonal entry gives an indefinite
// matrix; M0 = M at mu = 0 is [[ms, 0], [0, 0]], and the slow velocity's rate is f_zs / ms.
TEST(Quasistatic, MassAtZeroEpsIsTheLimitNotADeletion) {
  const Model m = test::load(test::source_path("models/quarter_car_relative.yaml"));
  Eigen::Matrix2d deleted;
  deleted << 340, 40, 40, 0;
  EXPECT_LT(Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(deleted).eigenvalues().minCoeff(), 0);
  const QuasistaticForm form = quasistatic_form(m);
  ASSERT_EQ(form.reduced_mass.rows(), 1);
  EXPECT_EQ(form.reduced_mass(0, 0), 300);
  EXPECT_EQ(form.large, (std::vector<std::size_t>{0}));
  const GiNaC::ex zs_force = m.second_order->forces[0];
  const GiNaC::ex rate = form.model.states[2].rhs;
  EXPECT_TRUE((rate - rate.coeff(zs_force) * zs_force).expand().is_zero()) << rate;
  EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(rate.coeff(zs_force)).to_double(), 1.0 / 300) << rate;
  EXPECT_TRUE((form.model.states[3].rhs - m.second_order->forces[1]).is_zero());
}

TEST(Quasistatic, RefusesAMassMatrixWhoseSmallRowsDoNotVanish) {
  const Model m = text_model(two_masses("rows: [[m + e, 0.05], [0.05, e]]", "-k*z - c*z_dot"));
  try {
    quasistatic_form(m);
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 10);
    EXPECT_NE(std::string(e.what()).find("with e = 0 the mass matrix keeps entry (z, x)"), std::string::npos)
        << e.what();
  }
}

// Without damping the small coordinate's force does not depend on its velocity: G_z = 0.
TEST(Quasistatic, RefusesASingularSmallMassBlockAtTheSmallSection) {
  const Model m = text_model(two_masses("diagonal: [m, e]", "-k*z"));
  try {
    quasistatic_design(m, quasistatic_form(m));
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 15);
    EXPECT_EQ(e.loc().column, 1);
    EXPECT_NE(std::string(e.what()).find("is singular at the design point"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("damping"), std::string::npos);
  }
}

TEST(Quasistatic, RefusesAModelWithoutFastStates) {
  EXPECT_THROW(quasistatic_form(test::load(test::source_path("models/quarter_car_a.yaml"))), ModelError);
}

// adaptive_parasitic: eps z' = -z + u with u = -y k; G_z = -1/eps constant, one Newton step,
// and the consistent initial z is u(0) = -y k = -1.5.
TEST(Quasistatic, AffineConstantResidualTakesOneStepFromAConstantInverse) {
  const Model m = test::load(test::source_path("models/adaptive_parasitic.yaml"));
  const QuasistaticDesign d = quasistatic_design(m, quasistatic_form(m));
  EXPECT_TRUE(d.jacobian_constant);
  EXPECT_TRUE(d.affine);
  EXPECT_EQ(d.newton_iterations, 1);
  ASSERT_EQ(d.consistent.size(), 1u);
  EXPECT_NEAR(d.consistent[0], -1.5, 1e-15);
}

// The walking robot's feet: G_z depends on th (the legs' directions) but not on the foot
// velocities: re-evaluated, one step.
TEST(Quasistatic, WalkingRobotReEvaluatesAnAffineResidual) {
  const Model m = test::load(test::source_path("models/walking_robot.yaml"));
  const QuasistaticDesign d = quasistatic_design(m, quasistatic_form(m));
  EXPECT_FALSE(d.jacobian_constant);
  EXPECT_TRUE(d.affine);
  EXPECT_EQ(d.newton_iterations, 1);
  EXPECT_LT(d.consistent_residual, 1e-12);
}

const char* kCubic =
    "name: cubic\nparameters:\n  eps: 0.01\nstates:\n  slow: {x: 1}\n  fast: {z: 0}\n"
    "equations:\n  x: -x + z\n  z: -(z + z^3 - x)/eps\nsimulation:\n  t_end: 2\n  step: 0.01\n";

// Nonlinear in z: Newton from the file's z = 0 to z* (z + z^3 = 1: 0.6823) needs several
// steps; the design takes one more than that, at least two, and lands on z* to rounding.
TEST(Quasistatic, NonlinearResidualTakesMoreNewtonStepsThanTheStartNeeds) {
  const Model m = text_model(kCubic);
  const QuasistaticDesign d = quasistatic_design(m, quasistatic_form(m));
  EXPECT_FALSE(d.affine);
  EXPECT_FALSE(d.jacobian_constant);
  EXPECT_GE(d.newton_iterations, 3);
  EXPECT_LE(d.newton_iterations, 8);
  EXPECT_NEAR(d.consistent[0] + std::pow(d.consistent[0], 3), 1.0, 1e-14);
}

// A fast state behind a rate limit: G = sat(50 (r - z)) is flat in z wherever it saturates.
// r steps from 0 to 1 at t = 1, so Newton there starts 50 from the solution, on the flat part.
std::string rate_limited(const std::string& fast_equation) {
  return "name: rate_limited\ninputs:\n  r: 0\nstates:\n  slow: {x: 0}\n  fast: {z: 0}\n"
         "equations:\n  x: -x + z\n  z: " +
         fast_equation +
         "\n"
         "simulation:\n  t_end: 2\n  step: 0.01\n  inputs:\n    r: step(t - 1)\n";
}

TEST(Quasistatic, NewtonAlongTheTrajectoryRefusesASaturatedFastEquation) {
  const Model m = text_model(rate_limited("min(max(50*(r - z), -10), 10)"));
  const QuasistaticForm form = quasistatic_form(m);
  const QuasistaticDesign d = quasistatic_design(m, form);  // unsaturated at the design point
  try {
    check_newton_along_trajectory(m, form, d, ScenarioTrajectory(m, 2));
    FAIL() << "accepted";
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("at t = 1,"), std::string::npos) << what;
    EXPECT_NE(what.find("the equation of z is flat"), std::string::npos) << what;
  }
  // Before the input's step the trajectory stays where Newton has a step.
  EXPECT_NO_THROW(check_newton_along_trajectory(m, form, d, ScenarioTrajectory(m, 0.9)));
  // Both forms register it as their trajectory check, which generate, verify and design run.
  for (const char* scheme : {"quasistatic", "quasistatic_outer"}) {
    EXPECT_THROW(find_scheme(scheme)->hooks.check_trajectory(m, ScenarioTrajectory(m, 2)), ModelError) << scheme;
    EXPECT_NO_THROW(find_scheme(scheme)->hooks.check_trajectory(m, ScenarioTrajectory(m, 0.9))) << scheme;
  }
  const Model linear = text_model(rate_limited("50*(r - z)"));
  const QuasistaticForm linear_form = quasistatic_form(linear);
  EXPECT_NO_THROW(check_newton_along_trajectory(linear, linear_form, quasistatic_design(linear, linear_form),
                                                ScenarioTrajectory(linear, 2)));
}

struct QuasistaticCase {
  std::string model;
  std::string scheme;
  double step;
};

// Generated code (host, double) against the reference core: they solve G = 0 differently
// (precomputed inverse or fixed-size LU against a dynamic LU), bound 1e-10 (VerifyPolicy::double_tolerance).
TEST(Quasistatic, GeneratedAgreesWithTheReferenceCore) {
  const Model cubic = text_model(kCubic);
  for (const QuasistaticCase& c : {QuasistaticCase{"models/walking_robot.yaml", "quasistatic", 0.01},
                                   QuasistaticCase{"models/walking_robot.yaml", "quasistatic_outer", 0.01},
                                   QuasistaticCase{"models/quarter_car_relative.yaml", "quasistatic", 0.002},
                                   QuasistaticCase{"models/adaptive_parasitic.yaml", "quasistatic", 0.05},
                                   QuasistaticCase{"", "quasistatic", 0.01}}) {
    const Model m = c.model.empty() ? cubic : test::load(test::source_path(c.model));
    VerifyOptions o;
    o.generate = {c.scheme, c.step, 1, ScalarType::kDouble, "test"};
    o.t_end = 1;
    o.every = 5;
    const VerifyResult r = verify(m, o);
    EXPECT_EQ(r.error, "") << m.name;
    EXPECT_TRUE(r.pass) << r.json();
    EXPECT_LE(r.max_error, 1e-10) << r.json();
  }
}

// A step's operations as runtime/include/dualrate/schemes/quasistatic.hpp computes them: five
// projections of N Newton steps (G; G_z^-1 g as the inverse's product, or G_z and its LU and
// two triangular solves; the fast states' update), four F, E eta with the boundary layer; and
// besides, h/2 and the two stage times (3), eta (nf), the three stage states (6 ns), the RK4
// update (7 ns + 1) and the boundary layer's sum (nf). With k inputs held linearly
// (dualrate/input_hold.hpp): their lines formed before the step (k differences and k quotients)
// and evaluated at t + h/2 and t + h (an offset, then 2 additions and 2 products per input).
TEST(Quasistatic, OpCountFollowsTheRuntimeStep) {
  struct OpCase {
    Model model;
    std::string scheme;
    double step;
    bool inverse_precomputed;
  };
  Model held = load_model_file(test::source_path("models/fan_drive.yaml"), {{"L", 3.5e-5}});
  for (Input& u : held.inputs) u.hold = InputHold::kLinear;
  const std::vector<OpCase> cases = {
      {test::load(test::source_path("models/quarter_car_relative.yaml")), "quasistatic", 0.002, true},
      {text_model(kCubic), "quasistatic_outer", 0.01, false},
      {held, "quasistatic", 1e-3, true}};
  for (const OpCase& c : cases) {
    const Model& m = c.model;
    const GenerateRequest o{c.scheme, c.step, 1, ScalarType::kDouble, "test"};
    const SchemeDesign design = precompute_scheme(m, o);
    const auto& chosen = designed<QuasistaticChoice>(design);
    const long ns = static_cast<long>(m.slow_count), nf = static_cast<long>(m.fast_count());
    const bool layer = c.scheme == "quasistatic";
    long newton = function_ops(design, "residual").total();
    if (chosen.step.inverse_precomputed) {
      newton += product_ops(design, "residual_jacobian_inverse").total();
    } else {
      newton +=
          function_ops(design, "residual_jacobian").total() + 2 * (nf * nf * nf / 3 + nf * nf) + nf * (nf - 1) / 2 + nf;
    }
    const long bound = 5 * chosen.step.newton_iterations * newton + 4 * function_ops(design, "reduced_slow").total() +
                       (layer ? product_ops(design, "layer_transition").total() : 0);
    const long k = m.holds_inputs() ? static_cast<long>(m.inputs.size()) : 0;
    const long holds = 2 * k + (k ? 2 * (1 + 4 * k) : 0);
    EXPECT_EQ(chosen.step.inverse_precomputed, c.inverse_precomputed) << m.name;
    EXPECT_EQ(step_cost(m, o, design).bound.total(), bound) << m.name;
    EXPECT_EQ(step_cost(m, o, design).ops.total(),
              bound + 5 * chosen.step.newton_iterations * nf + 3 + nf + 6 * ns + 7 * ns + 1 + (layer ? nf : 0) + holds)
        << m.name;
  }
  EXPECT_TRUE(held.holds_inputs());
}

}  // namespace
}  // namespace dualrate
