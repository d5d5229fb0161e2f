// The planar spacecraft of seed 004 (models/planar_spacecraft.yaml): the Lagrangian
// equations checked against their first integrals on the high-accuracy reference, the
// Jacobian at rest against the linearized frequencies derived by hand in the model's
// description, the panel/body time-scale separation, and what RK4 does at the paper's steps.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>

#include "analysis/stability.hpp"
#include "numeric/linearization.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

const char* const kModel = "models/planar_spacecraft.yaml";

double value(const Model& m, const std::string& name) {
  for (const auto& p : m.parameters)
    if (p.name == name) return p.value;
  throw std::runtime_error("no parameter " + name);
}

// The model with the attitude controller's gains replaced. Kp and Kd are leaves (no other
// parameter is computed from them), so changing their values changes nothing else.
Model spacecraft(double kp_factor, double kd_factor) {
  Model m = test::load(test::source_path(kModel));
  for (auto& p : m.parameters) {
    if (p.name == "Kp") p.value *= kp_factor;
    if (p.name == "Kd") p.value *= kd_factor;
  }
  return m;
}

std::size_t column(const Trace& tr, const std::string& name) {
  const auto it = std::find(tr.columns.begin(), tr.columns.end(), name);
  if (it == tr.columns.end()) throw std::runtime_error("no column " + name);
  return static_cast<std::size_t>(it - tr.columns.begin());
}

// Bound on how far the reference integration can move an output I that the exact solution
// keeps constant. odeint's controlled Dormand-Prince 5(4) accepts a step only if each state's error
// estimate is at most tol (1 + |x_i| + dt |x_i'|) (absolute = relative = tol, its default
// weights 1 and 1), so one step changes I by at most
//   tol * G,  G = sum_i |dI/dx_i| (1 + |x_i| + h |x_i'|),
// and N steps by N tol G if every error had that size and pushed I the same way (the worst
// case). dI/dx is taken by central differences (relative step 1e-6; a bound needs no more
// than a few digits) at every trace row and G is its maximum over the run. N: the reference
// integrates each output interval h from a first try of dt = h; its 7th/8th-order difference
// is about (h w)^8/8! of a mode's amplitude A, w = 142.8 rad/s the fastest mode, h w = 0.143,
// and accepting it needs (h w)^8/8! A <= tol (1 + A): with A <= 7 (the panel rate, rad/s)
// that holds for dt w <= 0.119, dt >= 0.83 h, so at most two steps per interval; N is taken
// as four per interval to leave the controller's safety factor room.
double drift_bound(const ReferenceCore& core, const Trace& tr, const std::string& output, double h, double tol) {
  const std::size_t states = core.initial_state().size();
  const std::size_t out = column(tr, output) - 1 - states;
  double g = 0;
  for (const auto& row : tr.rows) {
    std::vector<double> x(row.begin() + 1, row.begin() + 1 + states), dxdt(states);
    core.derivatives(row[0], x, {}, dxdt);
    double sum = 0;
    for (std::size_t i = 0; i < states; ++i) {
      const double d = 1e-6 * std::max(1.0, std::fabs(x[i]));
      std::vector<double> up = x, down = x;
      up[i] += d;
      down[i] -= d;
      const double grad = (core.outputs(row[0], up, {})[out] - core.outputs(row[0], down, {})[out]) / (2 * d);
      sum += std::fabs(grad) * (1 + std::fabs(x[i]) + h * std::fabs(dxdt[i]));
    }
    g = std::max(g, sum);
  }
  return 4.0 * static_cast<double>(tr.rows.size() - 1) * tol * g;
}

double max_deviation(const Trace& tr, const std::string& output) {
  const std::size_t c = column(tr, output);
  double d = 0;
  for (const auto& row : tr.rows) d = std::max(d, std::fabs(row[c] - tr.rows.front()[c]));
  return d;
}

constexpr double kStep = 1e-3, kTEnd = 10, kTolerance = 1e-12;

void expect_conserved(const ReferenceCore& core, const Trace& tr, const std::vector<std::string>& outputs) {
  for (const auto& out : outputs) {
    const double drift = max_deviation(tr, out), bound = drift_bound(core, tr, out, kStep, kTolerance);
    ::testing::Test::RecordProperty(out + "_drift", fmt::format("{:.3e} (bound {:.3e})", drift, bound));
    EXPECT_LE(drift, bound) << out;
  }
}

// Without the controller nothing outside acts on the spacecraft and the hinges are
// undamped: energy, linear momentum and angular momentum (about the origin) are constant.
TEST(Spacecraft, FreeFloatingConservesEnergyAndMomenta) {
  const Model m = spacecraft(0, 0);
  const ReferenceCore core(m);
  const Trace tr = core.simulate({kHighAccuracy, kStep, kTEnd, 1, kTolerance});
  expect_conserved(core, tr, {"energy", "px", "py", "angular_momentum"});
}

// A proportional attitude torque -Kp theta_B is the force of the potential Kp theta_B^2/2,
// which the `energy` output includes: energy stays constant. The torque is a pure couple, so
// linear momentum stays constant too (angular momentum does not: the couple changes it).
TEST(Spacecraft, ProportionalControlConservesEnergyAndLinearMomentum) {
  const Model m = spacecraft(1, 0);
  const ReferenceCore core(m);
  const Trace tr = core.simulate({kHighAccuracy, kStep, kTEnd, 1, kTolerance});
  expect_conserved(core, tr, {"energy", "px", "py"});
  EXPECT_GT(max_deviation(tr, "angular_momentum"), 1.0);  // the couple is felt (measured: 76 N m s)
}

// The model as written (PD attitude control): linear momentum constant, and energy never
// rises, since dE/dt = -Kd omega_B^2 <= 0. Per output interval the reference may raise E by
// at most a 1/N share of the run's bound.
TEST(Spacecraft, AttitudeControlDissipatesEnergyAndKeepsLinearMomentum) {
  const Model m = spacecraft(1, 1);
  const ReferenceCore core(m);
  const Trace tr = core.simulate({kHighAccuracy, kStep, kTEnd, 1, kTolerance});
  expect_conserved(core, tr, {"px", "py"});
  const std::size_t e = column(tr, "energy");
  const double per_interval =
      drift_bound(core, tr, "energy", kStep, kTolerance) / static_cast<double>(tr.rows.size() - 1);
  for (std::size_t i = 1; i < tr.rows.size(); ++i)
    ASSERT_LE(tr.rows[i][e], tr.rows[i - 1][e] + per_interval) << "t = " << tr.rows[i][0];
  // The controller damps the mode that turns the body (half the initial energy, see the
  // RK4 test below); the panels' symmetric mode, which does not turn the body, keeps its
  // half. The split is exact for the linearized model; at 0.05 rad the geometry changes it
  // by O(theta^2) = 2.5e-3 of E: within 0.01 (measured 0.50002).
  EXPECT_NEAR(tr.rows.back()[e] / tr.rows.front()[e], 0.5, 0.01);
}

// Eigenvalues of the first-order system of M q'' + D q' + K q = 0 (2 degrees of freedom).
std::vector<std::complex<double>> modes(const Eigen::Matrix2d& mass, const Eigen::Matrix2d& damping,
                                        const Eigen::Matrix2d& stiffness) {
  Eigen::Matrix4d a = Eigen::Matrix4d::Zero();
  a.topRightCorner<2, 2>().setIdentity();
  a.bottomLeftCorner<2, 2>() = -mass.inverse() * stiffness;
  a.bottomRightCorner<2, 2>() = -mass.inverse() * damping;
  const Eigen::VectorXcd ev = eigenvalues(a);
  return {ev.data(), ev.data() + 4};
}

// Linearized at rest with every angle zero (the description's derivation): x is free
// (double zero); (y, beta) with theta_R = -theta_L = beta, mass [[m, 2 m_P b], [2 m_P b, 2 j]],
// stiffness diag(0, 2 k_H): a double zero and +-i w_S; (theta_B, alpha) with theta_R =
// theta_L = alpha, mass [[J_0, 2 c], [2 c, 2 j]], damping diag(Kd, 0), stiffness
// diag(Kp, 2 k_H): without control a double zero and +-i w_A, with it four roots.
std::vector<std::complex<double>> hand_derived(const Model& m) {
  const double mp = value(m, "m_P"), b = value(m, "b_P"), j = value(m, "j_P"), k = value(m, "k_H");
  const double c = value(m, "J_P") + mp * b * (value(m, "d_H") + b);
  Eigen::Matrix2d mass_y, mass_t, d_t, k_y, k_t;
  mass_y << value(m, "m_tot"), 2 * mp * b, 2 * mp * b, 2 * j;
  mass_t << value(m, "J_0"), 2 * c, 2 * c, 2 * j;
  d_t << value(m, "Kd"), 0, 0, 0;
  k_y << 0, 0, 0, 2 * k;
  k_t << value(m, "Kp"), 0, 0, 2 * k;
  std::vector<std::complex<double>> all = {0.0, 0.0};  // x
  for (const auto& l : modes(mass_y, Eigen::Matrix2d::Zero(), k_y)) all.push_back(l);
  for (const auto& l : modes(mass_t, d_t, k_t)) all.push_back(l);
  return all;
}

// Each expected eigenvalue against the nearest computed one not yet taken.
void expect_match(std::vector<std::complex<double>> computed, const std::vector<std::complex<double>>& expected,
                  double zero_tol, double tol) {
  ASSERT_EQ(computed.size(), expected.size());
  for (const auto& l : expected) {
    const auto it = std::min_element(computed.begin(), computed.end(),
                                     [&](auto p, auto q) { return std::abs(p - l) < std::abs(q - l); });
    EXPECT_LE(std::abs(*it - l), l == 0.0 ? zero_tol : tol) << "expected " << l << ", nearest " << *it;
    computed.erase(it);
  }
}

// Tolerances: the entries of the Jacobian are O(w^2) = 2e4 and its eigenvectors mix angles
// and rates whose scales differ by w = O(100), so a simple eigenvalue comes out within
// about eps * 2e4 * 100 = 4.4e-10 of the exact one on either side: 1e-8 rad/s. The zero
// eigenvalues form 2x2 Jordan blocks (a free coordinate and its rate), which rounding of
// size eps * 2e4 splits into +-sqrt(4.4e-12) = +-2.1e-6: 1e-5 rad/s, far below the body's
// 5 rad/s.
TEST(Spacecraft, JacobianAtRestMatchesTheHandDerivedModes) {
  for (double gains : {0.0, 1.0}) {
    const Model m = spacecraft(gains, gains);
    const ReferenceCore core(m);
    const Eigen::VectorXcd ev = eigenvalues(core.jacobian_at(0, std::vector<double>(10, 0.0), {}));
    const std::vector<std::complex<double>> expected = hand_derived(m);
    expect_match({ev.data(), ev.data() + ev.size()}, expected, 1e-5, 1e-8);
    if (gains == 0) {
      // The closed forms of the description.
      const double k = value(m, "k_H"), j = value(m, "j_P"), J0 = value(m, "J_0"), mt = value(m, "m_tot");
      const double mpb = value(m, "m_P") * value(m, "b_P");
      const double c = value(m, "J_P") + mpb * (value(m, "d_H") + value(m, "b_P"));
      const double wA = std::sqrt(k * J0 / (j * J0 - 2 * c * c)), wS = std::sqrt(k * mt / (j * mt - 2 * mpb * mpb));
      expect_match({expected.begin() + 2, expected.end()}, {0.0, 0.0, {0, wS}, {0, -wS}, 0.0, 0.0, {0, wA}, {0, -wA}},
                   1e-5, 1e-8);
      RecordProperty("w_A", fmt::format("{:.4f}", wA));
      RecordProperty("w_S", fmt::format("{:.4f}", wS));
    }
  }
}

// Panel modes at least 10x faster than the body's, at the initial state (theta_R = 0.05):
// by the analyzer's measure (|g_z| eigenvalues over the reduced slow dynamics) and on the
// full Jacobian, whose four largest eigenvalues are the panel modes and whose other nonzero
// ones (beyond the 1e-5 of rounding, see above) the controlled attitude.
TEST(Spacecraft, PanelModesAreTenTimesFasterThanTheBody) {
  const Model m = test::load(test::source_path(kModel));
  const StabilityReport r = analyze_stability(m, "rk4", kStep);
  EXPECT_TRUE(r.stable);
  EXPECT_GE(r.separation, 10);
  std::vector<double> magnitudes;
  for (const auto& l : r.jacobian_eigenvalues) magnitudes.push_back(std::abs(l));
  std::sort(magnitudes.begin(), magnitudes.end());
  ASSERT_EQ(magnitudes.size(), 10u);
  double body = 0;
  for (std::size_t i = 0; i < 6; ++i)
    if (magnitudes[i] > 1e-5) body = std::max(body, magnitudes[i]);
  const double ratio = magnitudes[6] / body;
  RecordProperty("separation_analyzer", fmt::format("{:.3f}", r.separation));
  RecordProperty("separation_jacobian", fmt::format("{:.3f}", ratio));
  EXPECT_GT(body, 1.0);
  EXPECT_GE(ratio, 10);
}

// RK4 on a mode +-i w multiplies its amplitude by |R(i h w)| per step, |R(iy)|^2 = 1 - y^6/72 +
// y^8/576. Free-floating, theta_R(0) = 0.05 puts half the energy in each panel mode (alpha =
// beta = 0.025, no cross term in the energy at rest), so after n steps
//   E/E0 = (|R(i h w_S)|^(2n) + |R(i h w_A)|^(2n))/2.
// At h = 1 ms (n = 1e4) that loses 6.5e-4 of E: RK4 is accurate there. At H = 10 ms (n = 1e3)
// RK4 is stable (|R| < 1) but keeps 3.2e-6 of E: it damps the panels' vibration away, the
// inaccuracy a single rate at H would bring. The prediction is linear; at 0.05 rad the
// modes' frequencies shift by O(theta^2) ~ 1e-3 relative, which moves an exponent of
// n y^6/72 by six times that: the loss at h within 5%, the residue at H (exponent 12)
// within a factor 2.
TEST(Spacecraft, Rk4AtTheSlowStepDampsThePanelsAway) {
  const Model m = spacecraft(0, 0);
  const ReferenceCore core(m);
  const Eigen::VectorXcd at_rest = eigenvalues(core.jacobian_at(0, std::vector<double>(10, 0.0), {}));
  std::vector<double> w;
  for (const auto& l : at_rest)
    if (l.imag() > 1) w.push_back(l.imag());
  ASSERT_EQ(w.size(), 2u);
  const auto retained = [&](double h) {
    const double n = std::round(kTEnd / h);
    double sum = 0;
    for (double wi : w) {
      const double y = h * wi;
      sum += std::pow(1 - std::pow(y, 6) / 72 + std::pow(y, 8) / 576, n);
    }
    return sum / 2;
  };
  const auto measured = [&](double h) {
    const Trace tr = core.simulate({"rk4", h, kTEnd, 1});
    const std::size_t e = column(tr, "energy");
    return tr.rows.back()[e] / tr.rows.front()[e];
  };
  const double fine = measured(kStep), coarse = measured(10 * kStep);
  RecordProperty("energy_loss_h", fmt::format("{:.3e} (predicted {:.3e})", 1 - fine, 1 - retained(kStep)));
  RecordProperty("energy_kept_H", fmt::format("{:.3e} (predicted {:.3e})", coarse, retained(10 * kStep)));
  EXPECT_NEAR((1 - fine) / (1 - retained(kStep)), 1, 0.05);
  EXPECT_GT(coarse / retained(10 * kStep), 0.5);
  EXPECT_LT(coarse / retained(10 * kStep), 2);
  // The model as written (controlled) at H: every mode inside RK4's region.
  EXPECT_TRUE(analyze_stability(test::load(test::source_path(kModel)), "rk4", 10 * kStep).stable);
}

}  // namespace
}  // namespace dualrate
