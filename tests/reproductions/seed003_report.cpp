// Report of the seed 003 reproduction: the rebuilt 2-5 PRK tableau (conditions, stability
// along the imaginary axis against RK2 and RK4), Tables 7 and 8 (largest stable steps from
// the analysis, confirmed by simulation), the eigenvalues of the planar vehicle's slow and
// fast sub-Jacobians along its scenario (Figs. 4 and 5) and the PRK's convergence order.
// Writes CSV, SVG and measured.md into OUT_DIR.
// Usage: seed003_report OUT_DIR
#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <map>

#include "schemes/prk25/prk25.hpp"
#include "report.hpp"
#include "seed003.hpp"

namespace fs = std::filesystem;
using namespace dualrate;

namespace {

const std::vector<std::vector<double>> kRk2A = {{0, 0}, {1, 0}};
const std::vector<double> kRk2B = {0.5, 0.5};
const std::vector<std::vector<double>> kRk4A = {{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}};
const std::vector<double> kRk4B = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};

std::string tableau_section(const fs::path& dir) {
  const PrkTableau& t = prk25_tableau();
  std::string md = "### The 2-5 PRK tableau (runtime/include/dualrate/schemes/prk.hpp)\n\n"
                   "| condition | value | expected | difference |\n|---|---|---|---|\n";
  for (const auto& c : prk25_conditions(t))
    md += fmt::format("| {} | {:.12f} | {:.12f} | {:.2e} |\n", c.what, c.value, c.expected, c.value - c.expected);
  std::string csv = "y,prk25_fast,prk25_slow,rk2,rk4\n";
  double interval = -1;
  for (int i = 0; i <= 5000; ++i) {
    const double y = i * 1e-3;
    const std::complex<double> z(0, y);
    const double fast = std::abs(stability_function(t.a_fast, t.b_fast, z));
    if (interval < 0 && fast > 1 + 1e-9) interval = y - 1e-3;
    csv += fmt::format("{:.3f},{:.12g},{:.12g},{:.12g},{:.12g}\n", y, fast, std::abs(stability_function(t.a, t.b, z)),
                       std::abs(stability_function(kRk2A, kRk2B, z)), std::abs(stability_function(kRk4A, kRk4B, z)));
  }
  report::write(dir / "imaginary_axis.csv", csv);
  report::plot(dir, "imaginary_axis",
               "set datafile separator ','\nset xlabel 'y'\nset ylabel '|R(iy)|'\nset yrange [0.6:1.6]\n"
               "set title 'Stability functions on the imaginary axis z = iy (stable where |R| <= 1)'\n"
               "plot 'imaginary_axis.csv' using 1:2 with lines lw 2 title '2-5 PRK, fast tableau', "
               "'' using 1:3 with lines lw 2 dt 2 title '2-5 PRK, slow tableau', "
               "'' using 1:4 with lines lw 2 title 'RK2 (Heun)', '' using 1:5 with lines lw 2 title 'RK4', "
               "1 with lines lc 'black' notitle\n");
  md += fmt::format("\nFast tableau: |R(iy)| <= 1 + 1e-9 for 0 <= y <= {:.3f} (grid 1e-3; Table 5's polynomial: 4). "
                    "Plot: imaginary_axis.svg.\n\n",
                    interval);
  return md;
}

std::string limits_section() {
  std::string md = "### Tables 7 and 8: largest stable step (s)\n\n"
                   "Analysis: spectral radius of the implementation's one-step map at the initial state (coupled PRK "
                   "map for prk25). Simulation: the model's scenario by the reference core at 0.99 and 1.1 times "
                   "that step; amplification: the largest difference between that run and one from an initial state "
                   "perturbed by 1e-7 of each state's scale, over 1e-7 (tests/reproductions/seed003.hpp); error: "
                   "the run at 0.99x against the high-accuracy solution, relative to each state's scale.\n\n"
                   "| model | paper RK2 | RK2 | amplification 0.99x / 1.1x | error 0.99x | paper PRK | PRK | "
                   "amplification 0.99x / 1.1x | error 0.99x | PRK / RK2 |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : seed003::paper_cases()) {
    const Model m = load_model_file(seed003::model_path(c.model));
    const seed003::StepLimit rk2 = seed003::step_limit(m, "rk2");
    const seed003::StepLimit prk = seed003::step_limit(m, "prk25");
    md += fmt::format("| {} ({}) | {} | {:.4g} | {:.3g} / {:.3g} | {:.2e} | {} | {:.4g} | {:.3g} / {:.3g} | {:.2e} | "
                      "{:.2f} |\n",
                      c.model, c.what, c.paper_rk2, rk2.analyzed, rk2.below.amplification, rk2.beyond.amplification,
                      rk2.below.error, c.paper_prk > 0 ? fmt::format("{}", c.paper_prk) : std::string("-"),
                      prk.analyzed, prk.below.amplification, prk.beyond.amplification, prk.below.error,
                      prk.analyzed / rk2.analyzed);
  }
  return md + "\n";
}

// Figs. 4 and 5: eigenvalues of the slow (J_ss) and fast (J_ff) sub-Jacobians every 0.05 s
// along the vehicle's high-accuracy trajectory.
std::string eigenvalue_section(const fs::path& dir) {
  const Model m = load_model_file(seed003::model_path("planar_vehicle"));
  const ReferenceCore core(m);
  const double t_end = m.simulation.t_end;
  const Trace tr = core.simulate({"reference", 0.05, t_end, 1});
  const auto ns = static_cast<Eigen::Index>(m.slow_count), nf = static_cast<Eigen::Index>(m.fast_count());
  std::string slow_csv = "t,re,im\n", fast_csv = "t,re,im\n";
  double fast_min = INFINITY, fast_max = 0, slow_max = 0, ratio_min = INFINITY;
  for (const auto& row : tr.rows) {
    const std::vector<double> x(row.begin() + 1, row.begin() + 1 + ns + nf);
    const Eigen::MatrixXd j = core.jacobian_at(row[0], x, core.inputs_at(row[0]));
    const Eigen::VectorXcd es = Eigen::EigenSolver<Eigen::MatrixXd>(j.topLeftCorner(ns, ns), false).eigenvalues();
    const Eigen::VectorXcd ef = Eigen::EigenSolver<Eigen::MatrixXd>(j.bottomRightCorner(nf, nf), false).eigenvalues();
    for (const auto& e : es) {
      slow_csv += fmt::format("{:.3f},{:.9g},{:.9g}\n", row[0], e.real(), e.imag());
      slow_max = std::max(slow_max, std::abs(e));
    }
    for (const auto& e : ef) {
      fast_csv += fmt::format("{:.3f},{:.9g},{:.9g}\n", row[0], e.real(), e.imag());
      if (std::abs(e) > 1) fast_min = std::min(fast_min, std::abs(e));
      fast_max = std::max(fast_max, std::abs(e));
      if (std::abs(e.imag()) > 1) ratio_min = std::min(ratio_min, std::abs(e.imag()) / std::abs(e.real()));
    }
  }
  report::write(dir / "vehicle_slow_eigenvalues.csv", slow_csv);
  report::write(dir / "vehicle_fast_eigenvalues.csv", fast_csv);
  for (const char* part : {"slow", "fast"})
    report::plot(dir, fmt::format("vehicle_{}_eigenvalues", part),
                 fmt::format("set datafile separator ','\nset xlabel 'Re'\nset ylabel 'Im'\n"
                             "set title 'Planar vehicle: eigenvalues of the {0} sub-Jacobian every 0.05 s of the "
                             "scenario'\nplot 'vehicle_{0}_eigenvalues.csv' using 2:3 with points pt 7 ps 0.5 "
                             "title '{0}'\n",
                             part));
  return fmt::format(
      "### Planar vehicle eigenvalues along the scenario (Figs. 4 and 5)\n\n"
      "Every 0.05 s of the {} s scenario: slow sub-Jacobian |lambda| <= {:.4g} rad/s; fast sub-Jacobian "
      "{:.4g} <= |lambda| <= {:.4g} rad/s (moduli above 1), |Im| / |Re| >= {:.3g} for the oscillatory fast "
      "ones. Plots: vehicle_slow_eigenvalues.svg, vehicle_fast_eigenvalues.svg.\n\n",
      t_end, slow_max, fast_min, fast_max, ratio_min);
}

// Errors at t_end = 0.25 s of the vehicle from the scenario's state at t = 2 s with the
// inputs held there (seed003::frozen_inputs), for four steps a factor 2 apart.
std::string convergence_section() {
  const Model m = seed003::frozen_inputs(load_model_file(seed003::model_path("planar_vehicle")), 2.0);
  std::string md = "### Convergence on the planar vehicle\n\nFrom the scenario's state at t = 2 s, inputs held there, "
                   "error at t = 0.25 s later against the high-accuracy solution (relative to max(1, |x_i|)):\n\n"
                   "| h | rk2 | prk25 | rk4 |\n|---|---|---|---|\n";
  std::vector<double> steps;
  std::map<std::string, std::vector<double>> errors;
  for (double h = 0.00045; h > 0.00045 / 9; h /= 2) {
    steps.push_back(h);
    md += fmt::format("| {:.4g} |", h);
    for (const char* s : {"rk2", "prk25", "rk4"}) {
      errors[s].push_back(seed003::end_error(m, s, h, 0.25));
      md += fmt::format(" {:.3e} |", errors[s].back());
    }
    md += "\n";
  }
  const auto order = [&](const std::vector<double>& e) {
    return std::log(e.front() / e.back()) / std::log(steps.front() / steps.back());
  };
  return md + fmt::format("\nObserved order (first to last step): rk2 {:.2f}, prk25 {:.2f}, rk4 {:.2f}.\n\n",
                          order(errors["rk2"]), order(errors["prk25"]), order(errors["rk4"]));
}

}  // namespace

int main(int argc, char** argv) {
  return report::main(argc, argv, [](const fs::path& dir) {
    return "## Measured by seed003_report\n\n" + tableau_section(dir) + limits_section() + eigenvalue_section(dir) +
           convergence_section();
  });
}
