// Report of the seed 002 reproduction: the quasistatic error against eps (Theorem 1), the
// initial layer with and without the correction, and the stable steps. Writes CSV, SVG and
// measured.md. Usage: seed002_report OUT_DIR
#include <fmt/format.h>

#include <filesystem>

#include "report.hpp"
#include "seed002.hpp"

namespace fs = std::filesystem;
using namespace dualrate;

namespace {

std::string eps_section(const fs::path& dir) {
  std::vector<seed002::EpsPoint> points;
  std::string csv = "eps,error\n";
  std::string md = fmt::format(
      "### Theorem 1: error against eps (quasistatic_outer at h = {} s; platform x, y, th for t in [{}, {}] s "
      "against the full model's high-accuracy solution)\n\n| m_N | max error | ratio to the previous |\n|---|---|---|\n",
      seed002::kStep, seed002::kOuterFrom, seed002::kTEnd);
  for (int k = 0; k <= 4; ++k) {
    points.push_back(seed002::eps_point(0.02 / std::pow(2.0, k)));
    const auto& p = points.back();
    md += fmt::format("| {:.5f} | {:.4e} | {} |\n", p.eps, p.error,
                      k ? fmt::format("{:.3f}", points[points.size() - 2].error / p.error) : "");
    csv += fmt::format("{:.6g},{:.6e}\n", p.eps, p.error);
  }
  report::write(dir / "error_against_eps.csv", csv);
  report::plot(dir, "error_against_eps",
               "set datafile separator ','\nset logscale xy\nset xlabel 'foot mass m_N (eps)'\n"
               "set ylabel 'max platform error'\nset title 'Quasistatic solution against the full model'\n"
               "plot 'error_against_eps.csv' using 1:2 with linespoints lw 2 title 'error'\n");
  return md + fmt::format("\nFitted slope: {:.4f}. Plot: error_against_eps.svg.\n\n", seed002::slope(points));
}

std::string layer_section(const fs::path& dir) {
  const double h = 2e-4;
  const Model m = seed002::robot(0.02);
  const Trace ref = seed002::run(m, "reference", h, 0.004, 1);
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
  return fmt::format(
      "### Initial layer (m_N = 0.02, h = 0.2 ms, first 5 steps)\n\nLargest foot-velocity error: with the "
      "correction {:.4e}, outer solution alone {:.4e} (the transient's peak {:.4e}). Plot: initial_layer.svg.\n\n",
      e.corrected, e.outer, e.peak);
}

std::string step_section() {
  const StabilityReport r = analyze_stability(seed002::robot(0.02), "quasistatic", 0.01);
  return fmt::format(
      "### Stable steps (m_N = 0.02, linearized at the initial state)\n\nRK4 on the full model: {:.6g} s; "
      "quasistatic: {:.6g} s; gain {:.3g}x.\n",
      *r.full_rk4_max_stable_step, r.max_stable_step, r.max_stable_step / *r.full_rk4_max_stable_step);
}

}  // namespace

int main(int argc, char** argv) {
  return report::main(argc, argv, [](const fs::path& dir) {
    return "## Measured (seed002_report)\n\n" + eps_section(dir) + layer_section(dir) + step_section();
  });
}
