// Report of the seed 001 reproduction: N against eps with eq. 17's bound and the evaluations
// per unit time against forward Euler (linear test system), and the adaptive control example
// in Table I's protocol and Fig. 3's slow-state plane. Writes CSV, SVG and measured.md.
// Usage: seed001_report OUT_DIR
#include <fmt/format.h>

#include <filesystem>

#include "report.hpp"
#include "seed001.hpp"

namespace fs = std::filesystem;
using namespace dualrate;

namespace {

std::string n_section(const fs::path& dir) {
  std::string md = "### N against eps (x' = -x + z, eps z' = -z + x, D = 0.5, h_s = eps D)\n\n"
                   "| eps | N (eq. 14, every eigenvalue) | eq. 17 bound | evaluations per unit time: SMFE | forward "
                   "Euler at its limit | ratio |\n|---|---|---|---|---|---|\n";
  std::string csv = "eps,n,eq17\n";
  for (int k = 2; k <= 8; ++k) {
    const seed001::NPoint p = seed001::n_for(std::pow(10.0, -k));
    md += fmt::format("| 1e-{} | {} | {:.2f} | {:.0f} | {:.3g} | {:.3g} |\n", k, p.n, p.eq17, p.smfe_rate, p.euler_rate,
                      p.euler_rate / p.smfe_rate);
    csv += fmt::format("{:.3g},{},{:.6g}\n", p.eps, p.n, p.eq17);
  }
  report::write(dir / "n_against_eps.csv", csv);
  report::plot(dir, "n_against_eps",
               "set datafile separator ','\nset logscale x\nset format x '10^{%L}'\nset xlabel 'eps'\n"
               "set ylabel 'inner steps N'\nset termoption enhanced\n"
               "set title 'SMFE inner steps per macro step (D = 0.5, h_s = eps D)'\n"
               "plot 'n_against_eps.csv' using 1:2 with linespoints lw 2 title 'N, eq. 14 for every eigenvalue', "
               "'' using 1:3 with linespoints lw 2 dt 2 title 'eq. 17 bound'\n");
  return md + "\nPlot: n_against_eps.svg.\n\n";
}

std::string adaptive_section(const fs::path& dir) {
  std::string md = "### Adaptive control example (Table I's protocol; models/adaptive_parasitic.yaml, eps = 0.01)\n\n"
                   "Mean squared error of (y, k) at the macro steps over [0, 10] against the high-accuracy solution; "
                   "SMFE with h_s = eps = 0.01 and N inner steps; forward Euler on the reduced model (eq. 23) with "
                   "step D.\n\n| D | SMFE N = 1 | N = 2 | N = 3 | forward Euler, reduced model |\n|---|---|---|---|---|\n";
  std::string csv;
  for (const double d : {0.2, 0.1, 0.05}) {
    md += fmt::format("| {} |", d);
    for (const int n : {1, 2, 3}) md += fmt::format(" {:.3e} |", seed001::mse(seed001::slow_plane(d, n), d));
    md += fmt::format(" {:.3e} |\n", seed001::mse(seed001::slow_plane(d, 0), d));
  }
  const double fe = seed001::mse(seed001::slow_plane(0.01, 0), 0.01);
  md += fmt::format("\nForward Euler on the reduced model at D = 0.01: {:.3e}. Forward Euler on the full model needs "
                    "h < 2/98.5 = 0.0203 s.\n\n",
                    fe);
  for (const double d : {0.2, 0.1, 0.05}) {
    const auto smfe = seed001::slow_plane(d, 1), reduced = seed001::slow_plane(d, 0);
    std::string rows = "k,y,k_reduced,y_reduced\n";
    for (std::size_t i = 0; i < smfe.size(); ++i)
      rows += fmt::format("{:.9g},{:.9g},{:.9g},{:.9g}\n", smfe[i].second, smfe[i].first, reduced[i].second,
                          reduced[i].first);
    report::write(dir / fmt::format("plane_{}.csv", d), rows);
  }
  const Trace exact = ReferenceCore(seed001::adaptive()).simulate({"reference", 0.01, 10, 1});
  std::string rows = "k,y\n";
  for (const auto& r : exact.rows) rows += fmt::format("{:.9g},{:.9g}\n", r[2], r[1]);
  report::write(dir / "plane_reference.csv", rows);
  report::plot(dir, "slow_plane",
               "set datafile separator ','\nset xlabel 'k'\nset ylabel 'y'\nset key top right box opaque\n"
               "set title 'Fig. 3: SMFE (N = 1), full model; forward Euler, reduced model'\n"
               "plot 'plane_reference.csv' using 1:2 with lines lw 3 lc 'black' title 'high accuracy', "
               "'plane_0.2.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.2', "
               "'' using 3:4 with lines dt 2 lw 2 title 'reduced, Euler D = 0.2', "
               "'plane_0.1.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.1', "
               "'plane_0.05.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.05'\n");
  return md + "Plot: slow_plane.svg.\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  return report::main(argc, argv, [](const fs::path& dir) {
    return "## Measured by seed001_report\n\n" + n_section(dir) + adaptive_section(dir);
  });
}
