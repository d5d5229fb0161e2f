// Report of the seed 000 reproductions: writes CSV data, gnuplot scripts, SVG plots and
// measured.md with the measured figures into OUT_DIR.
// Checks the claims it prints (report.hpp's Claims) and exits with status 1 if one fails.
// Usage: seed000_report OUT_DIR
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "analysis/stability.hpp"
#include "model/functions.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "report.hpp"
#include "seed000.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "source_tree.hpp"

namespace fs = std::filesystem;
using namespace dualrate;
using namespace dualrate::seed000;
using dualrate::report::Claims;
using dualrate::report::plot;
using dualrate::report::write;

namespace {

struct StabilityFigures {
  double worst_agreement = 0;  // max relative |rho_impl - rho_closed| over the grid and parameters
  double worst_printed = 0;    // the same for the printed closed form of eq. 55-56
};

// Figs. 2-3: the upper half of the region of absolute stability, as its left boundary Re xi
// for Im xi in [0, 3], from the implementation and from the printed closed form.
StabilityFigures stability(const fs::path& dir) {
  StabilityFigures fig;
  std::string csv = "alpha,beta,im,implementation,printed_eq56,rk4_reduced\n";
  for (double alpha : kAlphas)
    for (double beta : kBetas) {
      for_each_grid_xi([&](Complex xi) {
        const double closed = spectral_radius(closed_form_m(alpha, beta, xi, ClosedForm::kProcedure));
        fig.worst_agreement =
            std::max(fig.worst_agreement, scaled_difference(sp_ll_spectral_radius(alpha, beta, xi), closed));
        fig.worst_printed =
            std::max(fig.worst_printed,
                     scaled_difference(spectral_radius(closed_form_m(alpha, beta, xi, ClosedForm::kPaper56)), closed));
      });
      if (alpha != 100 && beta != 0.1) continue;  // Fig. 2 varies alpha at beta 0.1, Fig. 3 beta at alpha 100
      for (int k = 0; k <= 60; ++k) {
        const double im = 0.05 * k;
        const double impl =
            stability_boundary_left([&](Complex xi) { return sp_ll_spectral_radius(alpha, beta, xi); }, im, -5, 1e-6);
        const double printed = stability_boundary_left(
            [&](Complex xi) { return spectral_radius(closed_form_m(alpha, beta, xi, ClosedForm::kPaper56)); }, im, -5,
            1e-6);
        const double reduced = stability_boundary_left(
            [&](Complex xi) { return std::abs(rk4_stability((1 - beta * beta) * xi)); }, im, -5, 1e-6);
        csv += fmt::format("{},{},{:.4f},{:.8f},{:.8f},{:.8f}\n", alpha, beta, im, impl, printed, reduced);
      }
      csv += "\n\n";
    }
  write(dir / "stability.csv", csv);
  plot(dir, "stability_alpha",
       "set title 'sp_ll stability boundary, beta = 0.1 (Fig. 2)'\nset xlabel 'Re xi'\nset ylabel 'Im xi'\n"
       "set datafile separator ','\nset xrange [-4:0.2]\nset yrange [0:3]\n"
       "plot 'stability.csv' index 0 using 4:3 with lines title 'alpha 10', "
       "'' index 2 using 4:3 with lines title 'alpha 100', '' index 4 using 4:3 with lines title 'alpha 1000', "
       "'' index 2 using 5:3 with lines dt 2 title 'printed M, alpha 100', "
       "'' index 2 using 6:3 with lines dt 3 title 'RK4 of (1-beta^2) lambda_s'\n");
  plot(dir, "stability_beta",
       "set title 'sp_ll stability boundary, alpha = 100 (Fig. 3)'\nset xlabel 'Re xi'\nset ylabel 'Im xi'\n"
       "set datafile separator ','\nset xrange [-4:0.2]\nset yrange [0:3]\n"
       "plot 'stability.csv' index 1 using 4:3 with lines title 'beta 0', "
       "'' index 2 using 4:3 with lines title 'beta 0.1', '' index 3 using 4:3 with lines title 'beta 0.5', "
       "'' index 3 using 5:3 with lines dt 2 title 'printed M, beta 0.5'\n");
  return fig;
}

// Figs. 4-5: local error of x after one step against h.
std::string local_errors(const fs::path& dir, Claims& claims) {
  std::string csv = "h";
  for (double alpha : kAlphas) csv += fmt::format(",sp_ll_alpha{0},rk4_alpha{0}", alpha);
  for (double beta : {0.01, 0.1, 0.5}) csv += fmt::format(",sp_ll_beta{}", beta);
  csv += "\n";
  std::string summary;
  std::vector<double> hs;
  std::vector<std::vector<double>> sp(3);
  for (int k = 0; k <= 40; ++k) {
    const double h = 0.5 * std::pow(10.0, -0.125 * k);
    csv += fmt::format("{:.6e}", h);
    for (std::size_t a = 0; a < 3; ++a) {
      const double e = local_error("sp_ll", kAlphas[a], 0.1, h).x;
      csv += fmt::format(",{:.6e},{:.6e}", e, local_error("rk4", kAlphas[a], 0.1, h).x);
      if (h <= 7e-5) sp[a].push_back(e);
    }
    if (h <= 7e-5) hs.push_back(h);
    for (double beta : {0.01, 0.1, 0.5}) csv += fmt::format(",{:.6e}", local_error("sp_ll", 100, beta, h).x);
    csv += "\n";
  }
  write(dir / "local_error.csv", csv);
  std::vector<double> sp_coarse, rk4_coarse;  // l_x at h = 0.2
  for (std::size_t a = 0; a < 3; ++a) {
    const double order = log_log_slope(hs, sp[a]) - 1;
    sp_coarse.push_back(local_error("sp_ll", kAlphas[a], 0.1, 0.2).x);
    rk4_coarse.push_back(local_error("rk4", kAlphas[a], 0.1, 0.2).x);
    summary += fmt::format("| {} | {:.3f} | {:.3e} | {:.3e} |\n", kAlphas[a], order, sp_coarse[a], rk4_coarse[a]);
    // "The order of accuracy of the proposed method is one": the bounds of
    // Seed000LocalError.FirstOrderAndAlphaIndependentWhileTheStepResolvesTheFastMode.
    claims.check_between(
        fmt::format("sp_ll is first order while the step resolves the fast mode (alpha {})", kAlphas[a]), order, 0.8,
        1.3);
  }
  // "The local error does not depend on alpha": at every fitted h the three alphas' errors lie
  // within the factor 3 of the same test.
  double spread = 0;
  for (std::size_t i = 0; i < hs.size(); ++i)
    spread = std::max(spread, std::max({sp[0][i], sp[1][i], sp[2][i]}) / std::min({sp[0][i], sp[1][i], sp[2][i]}));
  claims.check("sp_ll's local error does not depend on alpha (largest ratio over the alphas, h <= 7e-5)", spread,
               "<=", 3);
  // "The accuracy of RK4 becomes worse as the parameter alpha increases."
  claims.check("RK4's local error at h = 0.2 grows with alpha (alpha 100 over alpha 10)", rk4_coarse[1] / rk4_coarse[0],
               ">", 1);
  claims.check("RK4's local error at h = 0.2 grows with alpha (alpha 1000 over alpha 100)",
               rk4_coarse[2] / rk4_coarse[1], ">", 1);
  // REPORT.md: beyond the fast mode sp_ll's local error falls with alpha, like 1 / alpha; the
  // factor 3 from alpha 100 to 1000 is Seed000LocalError.StiffRegimeErrorIsFirstOrderInHAndFallsWithAlpha's.
  claims.check("sp_ll's local error at h = 0.2 falls with alpha (alpha 100 over alpha 1000)",
               sp_coarse[1] / sp_coarse[2], ">", 3);
  const std::string common =
      "set logscale xy\nset xlabel 'h'\nset ylabel 'local error l_x'\nset datafile separator ','\n"
      "set format y '%.0e'\nset format x '%.0e'\n";
  plot(dir, "local_error_alpha",
       "set title 'Local error vs h, beta = 0.1 (Fig. 4)'\n" + common +
           "set yrange [1e-17:1e3]\nplot 'local_error.csv' using 1:2 with linespoints title 'sp_ll alpha 10', "
           "'' using 1:4 with linespoints title 'sp_ll alpha 100', '' using 1:6 with linespoints title 'sp_ll alpha "
           "1000', "
           "'' using 1:3 with lines dt 2 title 'RK4 alpha 10', '' using 1:5 with lines dt 2 title 'RK4 alpha 100', "
           "'' using 1:7 with lines dt 2 title 'RK4 alpha 1000'\n");
  plot(dir, "local_error_beta",
       "set title 'Local error vs h, alpha = 100 (Fig. 5)'\n" + common +
           "plot 'local_error.csv' using 1:8 with linespoints title 'sp_ll beta 0.01', "
           "'' using 1:9 with linespoints title 'sp_ll beta 0.1', '' using 1:10 with linespoints title 'sp_ll beta "
           "0.5'\n");
  return summary;
}

struct PendulumFigures {
  double energy_drift = 0;  // max |E - E0| / |E0|, sp_ll (frozen, as generated) at h = 0.005
  double theta_error = 0;   // max |theta - theta_ref| against the reference scheme
  double rk4_radius = 0;    // spectral radius of RK4's one-step map at h = 0.005
  double rk4_blowup = -1;   // time at which RK4 at h = 0.005 left |E| < 1e6 |E0| or became non-finite
  std::string variation;
};

PendulumFigures pendulum(const fs::path& dir, const std::string& source_dir) {
  const Model m = load_model_file(source_dir + "/models/pendulum_particle.yaml");
  const ReferenceCore core(m);
  PendulumFigures fig;
  constexpr double h = 0.005, t_end = 10;
  RunOptions sp{"sp_ll", h, t_end, 1};
  const Trace sp_trace = core.simulate(sp);
  const Trace ref = core.simulate({kHighAccuracy, h, t_end, 1});
  const std::size_t energy = 1 + m.states.size();
  const double e0 = ref.rows.front()[energy];
  std::string csv = "t,theta_sp_ll,theta_reference,energy_sp_ll,energy_reference,energy_rk4\n";

  std::vector<double> x = core.initial_state();
  const std::vector<double> u = core.inputs_at(0);
  const RightHandSide f = [&](double t, const std::vector<double>& s, std::vector<double>& d) {
    core.derivatives(t, s, u, d);
  };
  std::vector<Eigen::MatrixXd> jacobians;
  for (std::size_t i = 0; i < ref.rows.size(); ++i) {
    const auto& r = ref.rows[i];
    const auto& s = sp_trace.rows[i];
    fig.energy_drift = std::max(fig.energy_drift, std::fabs(s[energy] - e0) / std::fabs(e0));
    fig.theta_error = std::max(fig.theta_error, std::fabs(s[1] - r[1]));
    std::string rk4 = "";
    if (fig.rk4_blowup < 0) {
      const double e = core.outputs(r[0], x, u)[0];
      if (std::isfinite(e) && std::fabs(e) < 1e6 * std::fabs(e0))
        rk4 = fmt::format("{:.12e}", e);
      else
        fig.rk4_blowup = r[0];
      try {
        if (fig.rk4_blowup < 0) x = scheme_step("rk4", f, r[0], h, x);
      } catch (const SimulationError&) {
        fig.rk4_blowup = r[0] + h;
      }
    }
    csv += fmt::format("{:.6f},{:.12e},{:.12e},{:.12e},{:.12e},{}\n", r[0], s[1], r[1], s[energy], r[energy], rk4);
    jacobians.push_back(core.jacobian_at(r[0], {r.begin() + 1, r.begin() + 1 + static_cast<long>(m.states.size())}, u));
  }
  write(dir / "pendulum.csv", csv);
  fig.rk4_radius = analyze_stability(m, "rk4", h).spectral_radius;
  for (const auto& [name, v] : sp_ll_variation(jacobians, m.slow_count))
    fig.variation += fmt::format("{}{} {:.3f}", fig.variation.empty() ? "" : ", ", name, v);
  plot(dir, "pendulum_energy",
       "set title 'Pendulum + particle, h = 0.005: total energy (eq. 68)'\nset xlabel 't [s]'\n"
       "set ylabel '|E(t) - E(0)| / |E(0)|'\nset logscale y\nset format y '%.0e'\nset yrange [1e-16:1e8]\n"
       "set key bottom right box opaque\nset datafile separator ','\n" +
           fmt::format("e0 = {:.17g}\n", e0) +
           "plot 'pendulum.csv' using 1:(abs($4-e0)/abs(e0)) with lines title 'sp_ll (frozen linearization)', "
           "'' using 1:(abs($5-e0)/abs(e0)) with lines title 'reference (rkf78, 1e-12)', "
           "'' using 1:(abs($6-e0)/abs(e0)) with lines lw 2 title 'RK4 (until it diverges)'\n");
  return fig;
}

// The claims of Figs. 2-3 and 7-8 on the figures measured above (those of Figs. 4-5 are
// checked in local_errors).
void check_claims(const StabilityFigures& st, const PendulumFigures& p, Claims& claims) {
  // The bound of Seed000Stability.ImplementationMatchesTheClosedFormM (rounding of the
  // Pade exponentials, see there).
  claims.check("the implementation's spectral radius matches the closed-form M with M12 corrected", st.worst_agreement,
               "<=", 1e-8);
  // Seed000Stability.PrintedClosedFormsDisagreeWhereCoupled: far more than rounding.
  claims.check("the printed closed form (eqs. 55-56) disagrees with the procedure where coupled", st.worst_printed,
               ">=", 1e-2);
  // "The proposed method gives a stable solution with h = 0.005": the bound of
  // SpLl.PendulumAtTheSeedsStepStaysBoundedWhereRk4Diverges, 0.1% of |E|.
  claims.check("sp_ll stays bounded on the pendulum at h = 0.005 (max relative energy drift)", p.energy_drift, "<",
               1e-3);
  // "Comparable accuracy": sp_ll is first order, its global error O(h); SpLlBeyondRk4
  // (tests/unit/sp_ll_test.cpp) bounds it by h, relative to max(1, |x|): absolute here, |theta| <= 0.5.
  claims.check("sp_ll's pendulum angle is first-order accurate (max |theta - theta_ref|, rad, bound h)", p.theta_error,
               "<=", 0.005);
  // "RK4 yields an unstable solution" at h = 0.005.
  claims.check("RK4 is unstable on the pendulum at h = 0.005 (spectral radius)", p.rk4_radius, ">", 1);
  claims.check_that("RK4 diverges on the pendulum at h = 0.005 within 10 s", p.rk4_blowup >= 0,
                    p.rk4_blowup >= 0
                        ? fmt::format("energy beyond 1e6 |E0| or non-finite at t = {:.3f} s", p.rk4_blowup)
                        : std::string("bounded over 10 s"));
}

}  // namespace

int main(int argc, char** argv) {
  return report::main(argc, argv, [](const fs::path& dir, Claims& claims) {
    const StabilityFigures st = stability(dir);
    const std::string errors = local_errors(dir, claims);
    const PendulumFigures p = pendulum(dir, test::source_dir());
    check_claims(st, p, claims);
    return fmt::format(
        "## Measured by seed000_report\n\n"
        "Stability (Figs. 2-3), grid Re xi in [-3, 0], Im xi in [0, 3], step 0.1, alpha in {{10, 100, 1000}}, "
        "beta in {{0, 0.1, 0.5}}:\n"
        "- implementation vs closed form with M12 corrected: max relative difference of the spectral radius {:.2e}\n"
        "- implementation vs closed form as printed (eqs. 55-56): {:.2e}\n\n"
        "Local error (Figs. 4-5), lambda_s = -1 + i, x(0) = z(0) = 1, beta = 0.1 (order p: l_x = O(h^(p+1)), "
        "fitted over h <= 7e-5):\n\n"
        "| alpha | sp_ll order | sp_ll l_x at h = 0.2 | RK4 l_x at h = 0.2 |\n|---|---|---|---|\n{}\n"
        "Pendulum + particle, h = 0.005, 10 s (eq. 68):\n"
        "- sp_ll (frozen linearization, as generated): max relative energy drift {:.2e}, max |theta - theta_ref| "
        "{:.2e} rad\n"
        "- Jacobian block variation along the reference trajectory (relative Frobenius): {}\n"
        "- RK4 at the same h: spectral radius {:.4f}; energy beyond 1e6 |E0| or non-finite at t = {:.3f} s\n",
        st.worst_agreement, st.worst_printed, errors, p.energy_drift, p.theta_error, p.variation, p.rk4_radius,
        p.rk4_blowup);
  });
}
