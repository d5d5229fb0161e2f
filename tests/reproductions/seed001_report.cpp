// Report of the seed 001 reproduction: N against eps with eq. 17's bound and the evaluations
// per unit time against forward Euler (linear test system), and the adaptive control example
// in Table I's protocol and Fig. 3's slow-state plane. Writes CSV, SVG and measured.md.
// Checks the claims it prints (report.hpp's Claims) and exits with status 1 if one fails.
// Usage: seed001_report OUT_DIR
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "report.hpp"
#include "seed001.hpp"

namespace fs = std::filesystem;
using namespace dualrate;
using dualrate::report::Claims;

namespace {

std::string n_section(const fs::path& dir, Claims& claims) {
  std::string md =
      "### N against eps (x' = -x + z, eps z' = -z + x, D = 0.5, h_s = eps D)\n\n"
      "| eps | N (eq. 14, every eigenvalue) | eq. 17 bound | evaluations per unit time: SMFE | forward "
      "Euler at its limit | ratio |\n|---|---|---|---|---|---|\n";
  std::string csv = "eps,n,eq17\n";
  std::vector<seed001::NPoint> points;
  for (int k = 2; k <= 8; ++k) {
    const seed001::NPoint p = points.emplace_back(seed001::n_for(std::pow(10.0, -k)));
    md += fmt::format("| 1e-{} | {} | {:.2f} | {:.0f} | {:.3g} | {:.3g} |\n", k, p.n, p.eq17, p.smfe_rate, p.euler_rate,
                      p.euler_rate / p.smfe_rate);
    csv += fmt::format("{:.3g},{},{:.6g}\n", p.eps, p.n, p.eq17);
    // Eq. 17 approximates eq. 14's N: within one (N is an integer), the bound of
    // Seed001.InnerStepsGrowLikeLogOneOverEps with its 1e-9 for the bound's rounding.
    claims.check(fmt::format("N within one of eq. 17 at eps = 1e-{} (|N - eq. 17|)", k), std::fabs(p.n - p.eq17),
                 "<=", 1.0 + 1e-9);
    claims.check(fmt::format("SMFE needs fewer evaluations than forward Euler at eps = 1e-{} (ratio)", k),
                 p.euler_rate / p.smfe_rate, ">", 1);
  }
  // N grows like log(1/eps): ln(10)/ln(2) per decade, within 0.33 (10%), and more than 5e5
  // times fewer evaluations than forward Euler at eps = 1e-8; the bounds of the same test.
  claims.check_between("N grows by ln(10)/ln(2) = 3.32 per decade of eps (slope over six decades)",
                       (points.back().n - points.front().n) / 6.0, std::log(10.0) / std::log(2.0) - 0.33,
                       std::log(10.0) / std::log(2.0) + 0.33);
  claims.check("forward Euler needs over 5e5 times SMFE's evaluations at eps = 1e-8 (ratio)",
               points.back().euler_rate / points.back().smfe_rate, ">", 5e5);
  report::write(dir / "n_against_eps.csv", csv);
  report::plot(dir, "n_against_eps",
               "set datafile separator ','\nset logscale x\nset format x '10^{%L}'\nset xlabel 'eps'\n"
               "set ylabel 'inner steps N'\nset termoption enhanced\n"
               "set title 'SMFE inner steps per macro step (D = 0.5, h_s = eps D)'\n"
               "plot 'n_against_eps.csv' using 1:2 with linespoints lw 2 title 'N, eq. 14 for every eigenvalue', "
               "'' using 1:3 with linespoints lw 2 dt 2 title 'eq. 17 bound'\n");
  return md + "\nPlot: n_against_eps.svg.\n\n";
}

// The adaptive example's claims (Seed001.AdaptiveExampleErrorIsSetByDNotByN's bounds, derived
// there): mse[n] at macro step d for N = n inner steps, mse[0] forward Euler on the reduced model.
void check_adaptive(double d, const double (&mse)[4], Claims& claims) {
  for (const int n : {2, 3}) {
    if (n * 0.01 >= d) continue;
    // More inner steps only shorten the large forward-Euler step: MSE like (D - N h_s)^2.
    const double expected = std::pow((d - n * 0.01) / (d - 0.01), 2);
    claims.check_between(
        fmt::format("at D = {}, N = {} changes the MSE like (D - N h_s)^2 (ratio to that scaling)", d, n),
        mse[n] / mse[1] / expected, 0.5, 1.1);
  }
  claims.check_between(fmt::format("at D = {}, SMFE (N = 1) is as accurate as forward Euler on the reduced model "
                                   "(MSE ratio)",
                                   d),
                       mse[1] / mse[0], 0.5, 2.0);
}

std::string adaptive_section(const fs::path& dir, Claims& claims) {
  std::string md =
      "### Adaptive control example (Table I's protocol; models/adaptive_parasitic.yaml, eps = 0.01)\n\n"
      "Mean squared error of (y, k) at the macro steps over [0, 10] against the high-accuracy solution; "
      "SMFE with h_s = eps = 0.01 and N inner steps; forward Euler on the reduced model (eq. 23) with "
      "step D.\n\n| D | SMFE N = 1 | N = 2 | N = 3 | forward Euler, reduced model |\n|---|---|---|---|---|\n";
  std::map<double, double> smfe_mse;  // N = 1, by D
  for (const double d : {0.2, 0.1, 0.05}) {
    double mse[4];
    for (const int n : {0, 1, 2, 3}) mse[n] = seed001::mse(seed001::slow_plane(d, n), d);
    md += fmt::format("| {} | {:.3e} | {:.3e} | {:.3e} | {:.3e} |\n", d, mse[1], mse[2], mse[3], mse[0]);
    check_adaptive(d, mse, claims);
    smfe_mse[d] = mse[1];
  }
  // The error is set by D: from D = 0.2 to 0.05 it falls by more than 4 (same test).
  claims.check("the MSE falls with D (N = 1, D = 0.2 over D = 0.05)", smfe_mse[0.2] / smfe_mse[0.05], ">", 4);
  const double fe = seed001::mse(seed001::slow_plane(0.01, 0), 0.01);
  const double fe_limit = analyze_stability(seed001::adaptive(), "euler", 0.01).max_stable_step;
  md += fmt::format(
      "\nForward Euler on the reduced model at D = 0.01: {:.3e}. Forward Euler on the full model needs "
      "h < {:.4f} s.\n\n",
      fe, fe_limit);
  // SMFE's point: macro steps that forward Euler on the full model cannot take.
  claims.check("SMFE's macro steps (D >= 0.05 s) exceed forward Euler's stable step on the full model (s)", fe_limit,
               "<", 0.05);
  for (const double d : {0.2, 0.1, 0.05}) {
    const auto smfe = seed001::slow_plane(d, 1), reduced = seed001::slow_plane(d, 0);
    std::string rows = "k,y,k_reduced,y_reduced\n";
    for (std::size_t i = 0; i < smfe.size(); ++i)
      rows += fmt::format("{:.9g},{:.9g},{:.9g},{:.9g}\n", smfe[i].second, smfe[i].first, reduced[i].second,
                          reduced[i].first);
    report::write(dir / fmt::format("plane_{}.csv", d), rows);
  }
  const Trace exact = ReferenceCore(seed001::adaptive()).simulate({kHighAccuracy, 0.01, 10, 1});
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
  return report::main(argc, argv, [](const fs::path& dir, Claims& claims) {
    const std::string n = n_section(dir, claims);
    return "## Measured by seed001_report\n\n" + n + adaptive_section(dir, claims);
  });
}
