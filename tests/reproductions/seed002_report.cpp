// Report of the seed 002 reproduction: the quasistatic error against eps (Theorem 1), the
// initial layer with and without the correction, and the stable steps. Writes CSV, SVG and
// measured.md. Usage: seed002_report OUT_DIR
// Checks the claims it prints (report.hpp's Claims) and exits with status 1 if one fails.
#include <fmt/format.h>

#include <filesystem>

#include "report.hpp"
#include "seed002.hpp"

namespace fs = std::filesystem;
using namespace dualrate;
using dualrate::report::Claims;

namespace {

std::string eps_section(const fs::path& dir, Claims& claims) {
  std::vector<seed002::EpsPoint> points;
  std::string csv = "eps,error\n";
  std::string md = fmt::format(
      "### Theorem 1: error against eps (quasistatic_outer at h = {} s; platform x, y, th for t in [{}, {}] s "
      "against the full model's high-accuracy solution)\n\n| m_N | max error | ratio to the previous "
      "|\n|---|---|---|\n",
      seed002::kStep, seed002::kOuterFrom, seed002::kTEnd);
  for (int k = 0; k <= 4; ++k) {
    points.push_back(seed002::eps_point(0.02 / std::pow(2.0, k)));
    const auto& p = points.back();
    md += fmt::format("| {:.5f} | {:.4e} | {} |\n", p.eps, p.error,
                      k ? fmt::format("{:.3f}", points[points.size() - 2].error / p.error) : "");
    csv += fmt::format("{:.6g},{:.6e}\n", p.eps, p.error);
    // Theorem 1, O(eps): each halving of eps halves the error, within the bounds of
    // Seed002.QuasistaticErrorIsOrderEps (1.6 to 2.4; the O(eps^2) remainder bends the power law).
    if (k)
      claims.check_between(fmt::format("Theorem 1: halving m_N to {:.5f} halves the error (ratio)", p.eps),
                           points[points.size() - 2].error / p.error, 1.6, 2.4);
  }
  claims.check_between("Theorem 1: the error is O(eps) (fitted slope)", seed002::slope(points), 0.8, 1.2);
  report::write(dir / "error_against_eps.csv", csv);
  report::plot(dir, "error_against_eps",
               "set datafile separator ','\nset logscale xy\nset xlabel 'foot mass m_N (eps)'\n"
               "set ylabel 'max platform error'\nset title 'Quasistatic solution against the full model'\n"
               "plot 'error_against_eps.csv' using 1:2 with linespoints lw 2 title 'error'\n");
  return md + fmt::format("\nFitted slope: {:.4f}. Plot: error_against_eps.svg.\n\n", seed002::slope(points));
}

std::string layer_section(const fs::path& dir, Claims& claims) {
  const double h = 2e-4;
  const Model m = seed002::robot(0.02);
  const Trace ref = seed002::run(m, kHighAccuracy, h, 0.004, 1);
  const Trace corrected = seed002::run(m, "quasistatic", h, 0.004, 1);
  const Trace outer = seed002::run(m, "quasistatic_outer", h, 0.004, 1);
  const std::size_t v = seed002::column(ref, "xf1_dot");
  std::string csv = "t,reference,corrected,outer\n";
  for (std::size_t r = 0; r < ref.rows.size(); ++r)
    csv += fmt::format("{:.6g},{:.9g},{:.9g},{:.9g}\n", ref.rows[r][0], ref.rows[r][v], corrected.rows[r][v],
                       outer.rows[r][v]);
  report::write(dir / "initial_layer.csv", csv);
  report::plot(dir, "initial_layer",
               "set datafile separator ','\nset xlabel 't (s)'\nset ylabel 'front foot velocity xf1_dot (m/s)'\n"
               "set title 'Initial layer, m_N = 0.02, h = 0.2 ms'\n"
               "plot 'initial_layer.csv' using 1:2 with lines lw 2 title 'full model', "
               "'' using 1:3 with linespoints lw 2 title 'quasistatic (corrected)', "
               "'' using 1:4 with linespoints lw 2 dt 2 title 'quasistatic_outer'\n");
  const seed002::LayerErrors e = seed002::layer_errors(h, 5);
  // Seed002.BoundaryLayerCorrectionFollowsTheInitialLayer's bounds: the outer solution misses
  // the transient by its size, the correction leaves less than a tenth of that.
  claims.check("the outer solution misses the initial layer (error over the transient's peak)", e.outer / e.peak, ">",
               0.3);
  claims.check("the boundary-layer correction follows the initial layer (corrected over outer error)",
               e.corrected / e.outer, "<", 0.1);
  return fmt::format(
      "### Initial layer (m_N = 0.02, h = 0.2 ms, first 5 steps)\n\nLargest foot-velocity error: with the "
      "correction {:.4e}, outer solution alone {:.4e} (the transient's peak {:.4e}). Plot: initial_layer.svg.\n\n",
      e.corrected, e.outer, e.peak);
}

std::string step_section(Claims& claims) {
  const StabilityReport r = analyze_stability(seed002::robot(0.02), "quasistatic", 0.01);
  // Seed002.EliminationGainsMoreThanTenTimesTheStep: stable at 0.01 s, over ten times RK4's step.
  claims.check("the quasistatic scheme is stable at h = 0.01 s (spectral radius; a free coordinate maps to 1)",
               r.spectral_radius, "<=", 1 + kStabilityMargin);
  claims.check("eliminating the feet gains more than ten times RK4's stable step (gain)",
               r.max_stable_step / r.full_rk4_max_stable_step.value(), ">", 10);
  return fmt::format(
      "### Stable steps (m_N = 0.02, linearized at the initial state)\n\nRK4 on the full model: {:.6g} s; "
      "quasistatic: {:.6g} s; gain {:.3g}x.\n",
      *r.full_rk4_max_stable_step, r.max_stable_step, r.max_stable_step / *r.full_rk4_max_stable_step);
}

}  // namespace

int main(int argc, char** argv) {
  return report::main(argc, argv, [](const fs::path& dir, Claims& claims) {
    const std::string eps = eps_section(dir, claims);
    const std::string layer = layer_section(dir, claims);
    return "## Measured (seed002_report)\n\n" + eps + layer + step_section(claims);
  });
}
