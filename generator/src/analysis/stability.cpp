#include "analysis/stability.hpp"

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <stdexcept>

#include "schemes/reference_core.hpp"
#include "schemes/registry.hpp"

namespace dualrate {

namespace {

// The scheme named `scheme`, generated or not.
const SchemeInfo& known_scheme(const std::string& scheme) {
  const SchemeInfo* info = find_any_scheme(scheme);
  if (!info) throw SimulationError("the reference core has no scheme '" + scheme + "'");
  return *info;
}

}  // namespace

StepMapLayout step_map_layout(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                              int ratio) {
  const SchemeInfo& info = known_scheme(scheme);
  if (info.step_map_layout) return info.step_map_layout(j, h, slow, ratio);
  StepMapLayout layout;
  for (std::size_t i = 0; i < static_cast<std::size_t>(j.rows()); ++i) layout.entries.push_back({i, false, true});
  return layout;
}

Eigen::MatrixXd reference_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                                   int ratio, const SchemeOptions& options) {
  const SchemeInfo& info = known_scheme(scheme);
  if (info.grid_step_map) return info.grid_step_map(j, h, slow, ratio);
  if (!info.reference_step) throw SimulationError("the reference core has no one-step map of '" + scheme + "'");
  const auto n = j.rows();
  const RightHandSide linear = linear_rhs(j);
  const ReferenceStep step =
      info.reference_step({nullptr, slow, [&j](double, const std::vector<double>&) { return j; }, options, {}}, h);
  Eigen::MatrixXd m(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    std::vector<double> e(static_cast<std::size_t>(n), 0.0);
    e[static_cast<std::size_t>(c)] = 1.0;
    const std::vector<double> next = step(linear, 0, h, e);
    m.col(c) = Eigen::Map<const Eigen::VectorXd>(next.data(), n);
  }
  return m;
}

Eigen::MatrixXd one_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                             int ratio, const SchemeOptions& options) {
  const SchemeInfo* info = find_scheme(scheme);
  if (info && info->step_map) return info->step_map(j, slow, h);
  return reference_step_map(scheme, j, h, slow, ratio, options);
}

namespace {

// Real parts above it grow (growth_rate): 1e-9 of 1 + the largest modulus, above rounding.
double growth_threshold(const Eigen::VectorXcd& eigenvalues) {
  return 1e-9 * (1 + (eigenvalues.size() > 0 ? eigenvalues.cwiseAbs().maxCoeff() : 0.0));
}

bool uniform(const std::string& scheme) {
  const SchemeInfo* info = find_any_scheme(scheme);
  return info && info->uniform;
}

}  // namespace

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, const SchemeOptions& options)
    : MapRadius(std::move(scheme), j, slow, ratio, options, eigenvalues(j)) {}

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, const SchemeOptions& options,
                     Eigen::VectorXcd eigenvalues)
    : scheme_(std::move(scheme)),
      j_(j),
      slow_(slow),
      ratio_(ratio),
      options_(options),
      eigenvalues_(std::move(eigenvalues)),
      uniform_(uniform(scheme_)) {
  if (!uniform_) return;
  for (Eigen::Index i = 0; i < eigenvalues_.size(); ++i) {
    const double a = eigenvalues_[i].real(), b = eigenvalues_[i].imag();
    if (b < 0) continue;  // its conjugate's block is similar to the same map
    if (b == 0) {
      eigen_blocks_.push_back(Eigen::MatrixXd::Constant(1, 1, a));
    } else {
      Eigen::MatrixXd pair(2, 2);
      pair << a, -b, b, a;
      eigen_blocks_.push_back(pair);
    }
  }
}

double MapRadius::blocks_radius(double h, double up_to) const {
  double radius = 0;
  for (const Eigen::MatrixXd& block : eigen_blocks_)
    if (block(0, 0) <= up_to)
      radius = std::max(radius,
                        eigenvalues(reference_step_map(scheme_, block, h, static_cast<std::size_t>(block.rows()), 1))
                            .cwiseAbs()
                            .maxCoeff());
  return radius;
}

double MapRadius::operator()(double h) const {
  try {
    if (!uniform_) return eigenvalues(one_step_map(scheme_, j_, h, slow_, ratio_, options_)).cwiseAbs().maxCoeff();
    return blocks_radius(h, std::numeric_limits<double>::infinity());
  } catch (const SchemeDesignError&) {
    return std::numeric_limits<double>::infinity();
  }
}

double MapRadius::stable_modes(double h, double spectral_radius) const {
  if (!uniform_) return -1;
  if (!(growth_rate(eigenvalues_) > 0)) return spectral_radius;
  try {
    return blocks_radius(h, growth_threshold(eigenvalues_));
  } catch (const SchemeDesignError&) {
    return std::numeric_limits<double>::infinity();
  }
}

double growth_rate(const Eigen::VectorXcd& eigenvalues) {
  const double threshold = growth_threshold(eigenvalues);
  double rate = 0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i)
    if (eigenvalues[i].real() > threshold) rate = std::max(rate, eigenvalues[i].real());
  return rate;
}

namespace {

std::string json_list(const Eigen::VectorXcd& v) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i)
    s += fmt::format("{}[{:.17g},{:.17g}]", i ? "," : "", v[i].real(), v[i].imag());
  return s + "]";
}

std::string text_list(const Eigen::VectorXcd& v) {
  std::string s;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    s += fmt::format("{}{:.6g}{:+.6g}i", i ? ", " : "", v[i].real(), v[i].imag());
  return s.empty() ? "(none)" : s;
}

}  // namespace

double max_stable_step(const std::string& scheme, const Eigen::MatrixXd& j, std::size_t slow, bool& bounded,
                       int ratio, const SchemeOptions& options) {
  return MapRadius(scheme, j, slow, ratio, options).largest_stable_step(bounded);
}

double MapRadius::largest_stable_step(bool& bounded) const {
  bounded = true;
  const double rho = eigenvalues_.size() > 0 ? eigenvalues_.cwiseAbs().maxCoeff() : 0.0;
  if (!(rho > 0)) {
    bounded = false;
    return std::numeric_limits<double>::infinity();
  }
  double h = 1e-4 / rho, end = 1e4 / rho;
  std::function<bool(double)> stable = [this](double s) { return (*this)(s) <= 1 + kStabilityMargin; };
  const SchemeInfo* info = find_any_scheme(scheme_);
  if (info && info->stable_step_scan) {
    const StableStepScan scan = info->stable_step_scan(spectra(j_, slow_), options_, end);
    if (scan.result) {
      bounded = scan.bounded;
      return *scan.result;
    }
    h = scan.from;
    end = scan.to;
    stable = scan.stable;
  }
  if (!stable(h)) return 0;
  while (h < end) {
    const double next = std::min(h * 1.02, end);
    if (!stable(next)) {
      double lo = h, hi = next;
      while (hi - lo > 1e-9 * lo) {
        const double mid = (lo + hi) / 2;
        (stable(mid) ? lo : hi) = mid;
      }
      return lo;
    }
    h = next;
  }
  bounded = false;
  return end;
}

StabilityReport analyze_stability(const Model& model, const std::string& scheme, double h, int ratio,
                                  const SchemeOptions& options, StepSearch search) {
  const ReferenceCore core(model);
  const Eigen::MatrixXd full = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const SchemeInfo* info = find_any_scheme(scheme);
  const bool reduced = info && info->analysed_jacobian;
  const Eigen::MatrixXd j = reduced ? info->analysed_jacobian(model) : full;
  StabilityReport r;
  r.scheme = scheme;
  r.step = h;
  r.ratio = info && info->dual_rate ? ratio : 1;
  const Spectra s = spectra(j, model.slow_count);
  r.jacobian_eigenvalues = s.all;
  r.fast_eigenvalues = s.fast;
  r.slow_eigenvalues = s.slow;
  const double slowest_fast = s.fast.size() > 0 ? s.fast.cwiseAbs().minCoeff() : 0.0;
  const double fastest_slow = s.slow.size() > 0 ? s.slow.cwiseAbs().maxCoeff() : 0.0;
  r.separation = fastest_slow > 0 ? slowest_fast / fastest_slow : std::numeric_limits<double>::infinity();
  if (info && info->analyse) r.scheme_analysis = info->analyse(model, h, options);
  const MapRadius radius(scheme, j, model.slow_count, ratio, options, s.all);
  r.spectral_radius = radius(h);
  r.stable = r.spectral_radius <= 1 + kStabilityMargin;
  r.stable_modes_radius = radius.stable_modes(h, r.spectral_radius);
  if (reduced) r.full_jacobian_eigenvalues = eigenvalues(full);
  r.searched = search == StepSearch::kAlways || (search == StepSearch::kWhenUnstable && !r.stable);
  if (!r.searched) {
    r.max_stable_step = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  r.max_stable_step = radius.largest_stable_step(r.max_stable_step_bounded);
  if (reduced) {
    bool bounded = true;
    r.full_rk4_max_stable_step =
        MapRadius("rk4", full, model.slow_count, 1, {}, r.full_jacobian_eigenvalues).largest_stable_step(bounded);
  }
  return r;
}

namespace {

// The Jacobian's eigenvalues that grow (growth_rate), one of each conjugate pair.
Eigen::VectorXcd growing_modes(const Eigen::VectorXcd& eigenvalues) {
  const double threshold = growth_threshold(eigenvalues);
  std::vector<std::complex<double>> modes;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i)
    if (eigenvalues[i].real() > threshold && eigenvalues[i].imag() >= 0) modes.push_back(eigenvalues[i]);
  return Eigen::Map<const Eigen::VectorXcd>(modes.data(), static_cast<Eigen::Index>(modes.size()));
}

// "the model itself grows: mode +0.135+2.72i 1/s (e-folding time 7.41 s), ..." or empty.
std::string growth_text(const Eigen::VectorXcd& eigenvalues) {
  const Eigen::VectorXcd modes = growing_modes(eigenvalues);
  if (modes.size() == 0) return "";
  std::string s = "the model itself grows at its linearization:";
  for (Eigen::Index i = 0; i < modes.size(); ++i)
    s += fmt::format("{} mode {:.6g}{:+.6g}i 1/s (e-folding time {:.3g} s)", i ? "," : "", modes[i].real(),
                     modes[i].imag(), 1 / modes[i].real());
  return s + "\n";
}

}  // namespace

std::string StabilityReport::json() const {
  return fmt::format(
      "{{\"scheme\":\"{}\",\"step\":{:.17g},\"ratio\":{},\"spectral_radius\":{:.17g},\"stable\":{},"
      "\"max_stable_step\":{},\"max_stable_step_bounded\":{},"
      "\"jacobian_eigenvalues\":{},\"growing_modes\":{},\"fast_eigenvalues\":{},\"slow_eigenvalues\":{},"
      "\"separation\":{}{}{}}}",
      scheme, step, ratio, spectral_radius, stable ? "true" : "false",
      std::isfinite(max_stable_step) ? fmt::format("{:.17g}", max_stable_step) : "null",
      max_stable_step_bounded ? "true" : "false", json_list(jacobian_eigenvalues),
      json_list(growing_modes(jacobian_eigenvalues)),
      json_list(fast_eigenvalues), json_list(slow_eigenvalues),
      std::isfinite(separation) ? fmt::format("{:.6g}", separation) : "null",
      scheme_analysis.json,
      full_rk4_max_stable_step
          ? fmt::format(",\"full_model_eigenvalues\":{},\"full_model_rk4_max_stable_step\":{:.17g},\"step_gain\":{:.6g}",
                        json_list(full_jacobian_eigenvalues), *full_rk4_max_stable_step,
                        max_stable_step / *full_rk4_max_stable_step)
          : "");
}

std::string StabilityReport::text() const {
  return fmt::format(
      "Jacobian eigenvalues:      {}\n"
      "fast (g_z) eigenvalues:    {}\n"
      "reduced slow eigenvalues:  {}\n"
      "time-scale separation:     {:.6g}\n"
      "{}"
      "{} at h = {:.6g}{}: spectral radius of the {} map {:.12g}: {}\n"
      "largest stable step of {}: {}\n",
      text_list(jacobian_eigenvalues), text_list(fast_eigenvalues), text_list(slow_eigenvalues), separation,
      growth_text(jacobian_eigenvalues), scheme,
      step, ratio > 1 ? fmt::format(", H = {} h", ratio) : "", ratio > 1 ? "macro-step" : "one-step", spectral_radius, stable ? "stable" : "UNSTABLE", scheme,
      !searched                        ? std::string("not searched")
      : max_stable_step_bounded        ? fmt::format("{:.6g}", max_stable_step)
      : std::isfinite(max_stable_step) ? fmt::format("none found up to {:.6g} (stable over the whole scan)", max_stable_step)
                                       : std::string("unbounded")) +
         scheme_analysis.text +
         (full_rk4_max_stable_step
              ? fmt::format("(the eigenvalues above are of the reduced form the scheme integrates; the full model's: {})\n"
                            "largest stable step of rk4 on the full model: {:.6g}; gained by eliminating the fast "
                            "states: {:.3g}x\n",
                            text_list(full_jacobian_eigenvalues), *full_rk4_max_stable_step,
                            max_stable_step / *full_rk4_max_stable_step)
              : "");
}

Instability instability(const Model& model, const StabilityReport& r, double t_end) {
  const bool model_unstable = r.jacobian_eigenvalues.size() > 0 && r.jacobian_eigenvalues.real().maxCoeff() > 0;
  const bool dual_rate = find_scheme(r.scheme)->dual_rate;
  const double steps = t_end / (r.step * r.ratio);
  Instability i;
  i.message = fmt::format(
      "{} is unstable at h = {:.6g}{} for {}: the spectral radius of its {} map at the initial state is {:.12g} > 1{}",
      r.scheme, r.step, dual_rate ? fmt::format(", H = {} h", r.ratio) : "", model.name,
      dual_rate ? "macro-step" : "one-step", r.spectral_radius,
      std::isfinite(steps) && r.spectral_radius < 2
          ? fmt::format(" (a growth by {:.3g}% over t_end = {:.6g})", 100 * (std::pow(r.spectral_radius, steps) - 1),
                        t_end)
          : "");
  i.hint = model_unstable ? "the model itself is unstable at its initial state (an eigenvalue has a positive real part)"
                          : fmt::format("the largest stable step is {:.6g}: reduce the step (see 'dualrate analyze') or "
                                        "choose another scheme",
                                        r.max_stable_step);
  return i;
}

}  // namespace dualrate
