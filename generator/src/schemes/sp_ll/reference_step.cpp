#include "schemes/sp_ll/reference_step.hpp"

#include "numeric/decompositions.hpp"
#include "schemes/sp_ll/step_formula.hpp"

namespace dualrate {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// rhs at (t, [xs; zs]), the slow and the fast part given apart.
VectorXd split_rate(const SplitRhs& rhs, double t, const VectorXd& xs, const VectorXd& zs) {
  const Eigen::Index n = xs.size() + zs.size();
  std::vector<double> v(static_cast<std::size_t>(n)), d;
  // cppcheck-suppress constStatement ; Eigen's comma initializer
  Eigen::Map<VectorXd>(v.data(), n) << xs, zs;
  rhs(t, v, d);
  return Eigen::Map<const VectorXd>(d.data(), n);
}

}  // namespace

namespace {

// e^{hD} of eq. 34, D = [[0, I, 0], [0, g_z, W], [0, 0, 0]]: its block (1, 1) is e^{h g_z}
// (F_2 of eq. 43), its block (0, 1) the integral of e^{s g_z} over [0, h], h phi1(h g_z) =
// g_z^-1 (F_2 - I), its block (0, 2) J_1 of eq. 44 for W = gamma, h^2 phi2(h g_z) for W = I.
MatrixXd exponential34(const MatrixXd& gz, const MatrixXd& w, double h) {
  const auto nf = gz.rows(), m = w.cols();
  MatrixXd d34 = MatrixXd::Zero(2 * nf + m, 2 * nf + m);
  d34.block(0, nf, nf, nf).setIdentity();
  d34.block(nf, nf, nf, nf) = gz;
  d34.block(nf, 2 * nf, nf, m) = w;
  return matrix_exponential(h * d34);
}

// phi of eq. 47 for the forcing B + C s with B and C of m columns each: the block of
// e^{hD}, D = [[A, C, B], [0, 0, I], [0, 0, 0]] (see the note on eq. 47 in the runtime), that
// carries y(h) from y(0) = 0.
MatrixXd phi47(const MatrixXd& a, const MatrixXd& bb, const MatrixXd& cc, double h) {
  const auto nf = a.rows(), m = bb.cols();
  MatrixXd d47 = MatrixXd::Zero(nf + 2 * m, nf + 2 * m);
  d47.topLeftCorner(nf, nf) = a;
  d47.block(0, nf, nf, m) = cc;
  d47.block(0, nf + m, nf, m) = bb;
  d47.block(nf, nf + m, m, m).setIdentity();
  return matrix_exponential(h * d47).block(0, nf + m, nf, m);
}

}  // namespace

std::vector<double> sp_ll_reference_step(const SplitRhs& rhs, const Linearize& linearize, std::size_t slow, double t,
                                         double h, const std::vector<double>& x, const HeldInputs<double>& held) {
  const auto ns = static_cast<Eigen::Index>(slow);
  const auto n = static_cast<Eigen::Index>(x.size());
  const auto nf = n - ns;
  const SpLlBlocks b = linearize(t, x);
  const VectorXd xn = Eigen::Map<const VectorXd>(x.data(), n).head(ns);
  const VectorXd zn = Eigen::Map<const VectorXd>(x.data(), n).tail(nf);
  const FullPivotLu gz(b.gz);
  const VectorXd d0 = split_rate(rhs, t, xn, zn);
  const VectorXd sigma = gz.solve(d0.tail(nf));         // eq. 43
  const VectorXd gamma = gz.solve(b.gx * d0.head(ns));  // eq. 43
  // g_u (u(t) - u_n) and g_u u'(t) of the held inputs (none without).
  const bool holds = !held.rate.empty();
  const auto input_change = [&](double ts) -> VectorXd {
    if (!holds) return VectorXd::Zero(nf);
    const std::vector<double> u = held.at(ts), u0 = held.at(held.start);
    return b.gu *
           (Eigen::Map<const VectorXd>(u.data(), b.gu.cols()) - Eigen::Map<const VectorXd>(u0.data(), b.gu.cols()));
  };
  const auto input_slope = [&](double ts) -> VectorXd {
    if (!holds) return VectorXd::Zero(nf);
    const double s = ts - held.start;
    VectorXd du(b.gu.cols());
    for (Eigen::Index k = 0; k < du.size(); ++k) du(k) = held.rate[k] + 2 * s * held.curvature[k];
    return b.gu * du;
  };
  const auto H = [&](double ts, const VectorXd& xs) -> VectorXd {  // eq. 22
    return zn - gz.solve(b.gx * (xs - xn) + d0.tail(nf) + input_change(ts));
  };
  const auto f = [&](double ts, const VectorXd& xs) -> VectorXd { return split_rate(rhs, ts, xs, H(ts, xs)).head(ns); };

  // Step 1 (eqs. 34, 43, 44).
  const MatrixXd e34 = exponential34(b.gz, gamma + gz.solve(input_slope(t)), h);
  const MatrixXd f2 = e34.block(nf, nf, nf, nf);
  const VectorXd j1 = e34.block(0, 2 * nf, nf, 1);
  const VectorXd integral_y = gz.solve((f2 - MatrixXd::Identity(nf, nf)) * sigma) + j1;  // eq. 43

  // Step 2: RK4 on the slow manifold, then the boundary-layer correction (eq. 45).
  const VectorXd k1 = f(t, xn);
  const VectorXd k2 = f(t + h / 2, xn + h / 2 * k1);
  const VectorXd k3 = f(t + h / 2, xn + h / 2 * k2);
  const VectorXd k4 = f(t + h, xn + h * k3);
  const VectorXd x1 = xn + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4) + b.fz * integral_y;

  // Step 3: y' = A y + u(t) with u interpolated linearly (eqs. 38-41, 47).
  const MatrixXd a = b.gz + gz.solve_matrix(b.gx * b.fz);
  const VectorXd f1 = f(t + h, x1);
  const VectorXd bb = a * sigma + gz.solve(b.gx * k1 + input_slope(t));
  const VectorXd cc = gz.solve(b.gx * (f1 - k1) + input_slope(t + h) - input_slope(t)) / h;
  const VectorXd z1 = H(t + h, x1) + sigma + phi47(a, bb, cc, h);  // eq. 46

  std::vector<double> out(static_cast<std::size_t>(n));
  // cppcheck-suppress constStatement ; Eigen's comma initializer
  Eigen::Map<VectorXd>(out.data(), n) << x1, z1;
  return out;
}

std::vector<NamedMatrix> sp_ll_reference_constants(const SpLlBlocks& b, double h) {
  const auto nf = b.gz.rows();
  const MatrixXd identity = MatrixXd::Identity(nf, nf), zero = MatrixXd::Zero(nf, nf);
  const FullPivotLu gz(b.gz);
  const MatrixXd a = b.gz + gz.solve_matrix(b.gx * b.fz);
  const MatrixXd e34 = exponential34(b.gz, identity, h);
  std::vector<NamedMatrix> c = {{"gz_inv", gz.inverse(), "g_z^-1"},
                                {"k", gz.solve_matrix(b.gx), "g_z^-1 g_x"},
                                {"fz", b.fz, "f_z"},
                                {"a", a, "A (eq. 40)"},
                                {"p1", e34.block(0, nf, nf, nf), "h phi1(h g_z) (eq. 43)"},
                                {"p2", e34.block(0, 2 * nf, nf, nf), "h^2 phi2(h g_z) (eq. 44)"},
                                {"q1", phi47(a, identity, zero, h), "h phi1(h A) (eq. 47)"},
                                {"q2", phi47(a, zero, identity, h), "h^2 phi2(h A) (eq. 47)"}};
  if (b.gu.cols() > 0) c.push_back({"ku", gz.solve_matrix(b.gu), "g_z^-1 g_u"});
  return c;
}

namespace {

// Dense double (step_formula.hpp): the right-hand side rhs, the constants as given.
struct DenseArithmetic {
  using Scalar = double;
  using Time = double;
  using Input = double;  // the time: rhs evaluates the inputs held over the step there
  using Vector = VectorXd;

  const SplitRhs& rhs;
  const std::vector<NamedMatrix>& constants;
  Eigen::Index ns, nf;

  Input input_sample(Time t) const { return t; }
  Input inputs_at(Time t) const { return t; }
  Vector rate(Input t, const Vector& xs, const Vector& zs) const { return split_rate(rhs, t, xs, zs); }
  Vector slow_rate(Input t, const Vector& xs, const Vector& zs) const { return rate(t, xs, zs).head(ns); }
  Vector slow_rows(const Vector& d) const { return d.head(ns); }
  Vector fast_rows(const Vector& d) const { return d.tail(nf); }
  Vector fast_zero() const { return VectorXd::Zero(nf); }
  Vector product(SpLlConstant c, const Vector& v) const { return named(constants, name_of(c)).value * v; }
  static bool holds_inputs() { return false; }
  Vector input_rate() const { return fast_zero(); }
  Vector input_curvature() const { return fast_zero(); }
  static Vector update(const Vector& xn, const Vector& rk4, const Vector& fz) { return xn + rk4 + fz; }
  Vector stack(const Vector& xs, const Vector& zs) const {
    Vector x(ns + nf);
    // cppcheck-suppress constStatement ; Eigen's comma initializer
    x << xs, zs;
    return x;
  }
};

}  // namespace

std::vector<double> sp_ll_constants_step(const SplitRhs& rhs, const std::vector<NamedMatrix>& constants,
                                         std::size_t slow, double t, double h, const std::vector<double>& x) {
  const auto ns = static_cast<Eigen::Index>(slow);
  const auto n = static_cast<Eigen::Index>(x.size());
  const DenseArithmetic a{rhs, constants, ns, n - ns};
  const VectorXd next = sp_ll_step(a, t, h, Eigen::Map<const VectorXd>(x.data(), n).head(ns),
                                   Eigen::Map<const VectorXd>(x.data(), n).tail(n - ns));
  return std::vector<double>(next.data(), next.data() + n);
}

}  // namespace dualrate
