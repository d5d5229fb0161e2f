#include "analysis/stability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <stdexcept>
#include <tuple>

#include <Eigen/Eigenvalues>

#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"

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
  if (info.hooks.step_map_layout) return info.hooks.step_map_layout(j, h, slow, ratio);
  StepMapLayout layout;
  for (std::size_t i = 0; i < static_cast<std::size_t>(j.rows()); ++i) layout.entries.push_back({i, false, true});
  return layout;
}

Eigen::MatrixXd reference_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                                   int ratio, const SchemeOptions& options) {
  const SchemeInfo& info = known_scheme(scheme);
  if (info.hooks.grid_step_map) return info.hooks.grid_step_map(j, h, slow, ratio);
  if (!info.hooks.reference_step) throw SimulationError("the reference core has no one-step map of '" + scheme + "'");
  const auto n = j.rows();
  const RightHandSide linear = linear_rhs(j);
  const ReferenceStep step = info.hooks.reference_step(
      {nullptr, slow, [&j](double, const std::vector<double>&) { return j; }, options, {}}, h);
  Eigen::MatrixXd m(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    std::vector<double> e(static_cast<std::size_t>(n), 0.0);
    e[static_cast<std::size_t>(c)] = 1.0;
    const std::vector<double> next = step(linear, 0, h, e);
    m.col(c) = Eigen::Map<const Eigen::VectorXd>(next.data(), n);
  }
  return m;
}

Eigen::MatrixXd one_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio,
                             const SchemeOptions& options) {
  const SchemeInfo* info = find_scheme(scheme);
  if (info && info->hooks.step_map) return info->hooks.step_map(j, slow, h);
  return reference_step_map(scheme, j, h, slow, ratio, options);
}

namespace {

bool uniform(const std::string& scheme) {
  const SchemeInfo* info = find_any_scheme(scheme);
  return info && info->traits.uniform;
}

}  // namespace

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio,
                     const SchemeOptions& options)
    : MapRadius(std::move(scheme), j, slow, ratio, options, eigenvalues(j)) {}

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio,
                     const SchemeOptions& options, Eigen::VectorXcd eigenvalues)
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

std::vector<double> MapRadius::block_amplifications(double h) const {
  std::vector<double> a;
  for (const Eigen::MatrixXd& block : eigen_blocks_)
    a.push_back(eigenvalues(reference_step_map(scheme_, block, h, static_cast<std::size_t>(block.rows()), 1))
                    .cwiseAbs()
                    .maxCoeff());
  return a;
}

double MapRadius::map_step(double h) const {
  const SchemeInfo* info = find_any_scheme(scheme_);
  return info && info->traits.dual_rate ? h * ratio_ : h;
}

double MapRadius::operator()(double h) const {
  try {
    if (!uniform_) return eigenvalues(one_step_map(scheme_, j_, h, slow_, ratio_, options_)).cwiseAbs().maxCoeff();
    const std::vector<double> a = block_amplifications(h);
    return a.empty() ? 0.0 : *std::max_element(a.begin(), a.end());
  } catch (const SchemeDesignError&) {
    return std::numeric_limits<double>::infinity();
  }
}

MapJudgement MapRadius::judge(double h) const {
  MapJudgement j;
  const double threshold = growth_threshold(eigenvalues_);
  j.growth = growth_rate(eigenvalues_);
  const double step = map_step(h);
  const SchemeInfo* info = find_any_scheme(scheme_);
  const int order = info ? info->traits.order : 1;
  bool first = true;
  const auto decide = [&](double relative, std::complex<double> mode, double a) {
    if (relative > j.relative || first) {
      first = false;
      j.relative = relative;
      j.mode = mode;
      j.amplification = a;
      j.model_growth = std::exp(step * mode.real());
    }
  };
  try {
    if (uniform_) {
      const std::vector<double> a = block_amplifications(h);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const Eigen::MatrixXd& block = eigen_blocks_[i];
        const std::complex<double> mode(block(0, 0), block.rows() > 1 ? block(1, 0) : 0);
        j.radius = std::max(j.radius, a[i]);
        decide(growth_relative(a[i], mode.real(), mode.real() > threshold, step,
                               scheme_accuracy(order, step * std::abs(mode))),
               mode, a[i]);
      }
      return j;
    }
    return judge_radius(eigenvalues(one_step_map(scheme_, j_, h, slow_, ratio_, options_)).cwiseAbs().maxCoeff(),
                        eigenvalues_, step, order);
  } catch (const SchemeDesignError&) {
    j.radius = j.relative = std::numeric_limits<double>::infinity();
    return j;
  }
}

MapJudgement judge_radius(double radius, const Eigen::VectorXcd& modes, double step, int order) {
  MapJudgement j;
  j.radius = radius;
  j.growth = growth_rate(modes);
  const Eigen::VectorXcd growing = growing_modes(modes);
  std::complex<double> fastest{};
  for (Eigen::Index i = 0; i < growing.size(); ++i)
    if (growing[i].real() > fastest.real()) fastest = growing[i];
  j.relative = growth_relative(radius, j.growth, j.growth > 0, step, scheme_accuracy(order, step * std::abs(fastest)));
  j.mode = fastest;
  if (growing.size() == 0 && modes.size() > 0) {
    Eigen::Index largest = 0;
    modes.cwiseAbs().maxCoeff(&largest);
    j.mode = modes[largest];
    j.mode_decides = false;
  }
  j.amplification = radius;
  j.model_growth = std::exp(step * j.mode.real());
  return j;
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

double max_stable_step(const std::string& scheme, const Eigen::MatrixXd& j, std::size_t slow, bool& bounded, int ratio,
                       const SchemeOptions& options) {
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
  std::function<bool(double)> stable = [this](double s) { return judge(s).relative <= 1 + kStabilityMargin; };
  const SchemeInfo* info = find_any_scheme(scheme_);
  if (info && info->hooks.stable_step_scan && !(growth_rate(eigenvalues_) > 0)) {
    const StableStepScan scan = info->hooks.stable_step_scan(spectra(j_, slow_), options_, end);
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

namespace {

// StabilityReport::other_modes_radius and fast_modes_radius of a single-rate scheme's map M at
// h for J, whose eigenvalue 0 sets its radius 1: the largest |mu| of M's eigenvalues but as
// many of those nearest 1 as J has eigenvalues 0; and of M on the invariant subspace of J's
// `fast` eigenvalues of largest |lambda| (V^+ M V, V their eigenvectors: exact where M is a
// function of J, as for the Runge-Kutta schemes). {-1, -1} when J has no eigenvalue 0.
std::pair<double, double> modes_beside_zero(const std::string& scheme, const Eigen::MatrixXd& j, double h,
                                            std::size_t slow, const SchemeOptions& options) {
  const Eigen::ComplexEigenSolver<Eigen::MatrixXcd> jacobian(j.cast<std::complex<double>>());
  const Eigen::VectorXcd modes = jacobian.eigenvalues();
  const double size = std::max(1.0, modes.size() > 0 ? modes.cwiseAbs().maxCoeff() : 0.0);
  long zeros = 0;
  for (Eigen::Index i = 0; i < modes.size(); ++i) zeros += std::abs(modes[i]) <= 1e-12 * size ? 1 : 0;
  if (zeros == 0 || zeros == modes.size()) return {-1, -1};
  try {
    const Eigen::MatrixXd map = one_step_map(scheme, j, h, slow, 1, options);
    if (map.rows() != j.rows()) return {-1, -1};  // a map of more than the states (a multistep history)
    const Eigen::VectorXcd mu = eigenvalues(map);
    std::vector<std::complex<double>> by_distance(mu.data(), mu.data() + mu.size());
    std::sort(by_distance.begin(), by_distance.end(),
              [](auto a, auto b) { return std::abs(a - 1.0) < std::abs(b - 1.0); });
    double others = 0;
    for (std::size_t i = static_cast<std::size_t>(zeros); i < by_distance.size(); ++i)
      others = std::max(others, std::abs(by_distance[i]));
    const Eigen::Index fast = j.rows() - static_cast<Eigen::Index>(slow);
    if (fast == 0) return {others, -1};
    std::vector<Eigen::Index> order(static_cast<std::size_t>(modes.size()));
    for (Eigen::Index i = 0; i < modes.size(); ++i) order[static_cast<std::size_t>(i)] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return std::abs(modes[a]) > std::abs(modes[b]); });
    Eigen::MatrixXcd v(j.rows(), fast);
    for (Eigen::Index c = 0; c < fast; ++c) v.col(c) = jacobian.eigenvectors().col(order[static_cast<std::size_t>(c)]);
    const Eigen::MatrixXcd on_fast =
        v.completeOrthogonalDecomposition().pseudoInverse() * map.cast<std::complex<double>>() * v;
    return {others, Eigen::ComplexEigenSolver<Eigen::MatrixXcd>(on_fast).eigenvalues().cwiseAbs().maxCoeff()};
  } catch (const std::exception&) {  // no map at this step (SchemeDesignError): nothing to show
    return {-1, -1};
  }
}

}  // namespace

std::string growth_origin(const Model& model) {
  const ReferenceCore core(model);
  const Eigen::MatrixXd j = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const Eigen::VectorXcd growing = growing_modes(eigenvalues(j));
  if (growing.size() == 0) return "";
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(j);
  const GiNaC::exmap variables = model.variable_definitions();
  std::string s;
  for (Eigen::Index g = 0; g < growing.size(); ++g) {
    Eigen::Index mode = 0, state = 0;
    (solver.eigenvalues().array() - growing[g]).abs().minCoeff(&mode);
    solver.eigenvectors().col(mode).cwiseAbs().maxCoeff(&state);
    const State& x = model.states[static_cast<std::size_t>(state)];
    const GiNaC::ex rhs = x.rhs.subs(variables);
    std::string negative;
    for (const Parameter& p : model.parameters)
      if (p.value < 0 && rhs.has(p.symbol))
        negative += fmt::format("{}{} = {:.6g}", negative.empty() ? "" : ", ", p.name, p.value);
    s += fmt::format("{}mode {:+.6g}{:+.6g}i 1/s (e-folding time {:.3g} s), mostly in {}{}", g ? "; " : "",
                     growing[g].real(), growing[g].imag(), 1 / growing[g].real(), x.name,
                     negative.empty() ? "" : fmt::format(", whose equation has {} < 0", negative));
  }
  return s;
}

StabilityReport analyze_stability(const Model& model, const std::string& scheme, double h, int ratio,
                                  const SchemeOptions& options, StepSearch search) {
  const ReferenceCore core(model);
  const Eigen::MatrixXd full = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const SchemeInfo* info = find_any_scheme(scheme);
  const bool reduced = info && info->hooks.analysed_jacobian;
  const Eigen::MatrixXd j = reduced ? info->hooks.analysed_jacobian(model) : full;
  StabilityReport r;
  r.scheme = scheme;
  r.step = h;
  r.ratio = info && info->traits.dual_rate ? ratio : 1;
  const Spectra s = spectra(j, model.slow_count);
  r.jacobian_eigenvalues = s.all;
  r.fast_eigenvalues = s.fast;
  r.slow_eigenvalues = s.slow;
  const double slowest_fast = s.fast.size() > 0 ? s.fast.cwiseAbs().minCoeff() : 0.0;
  const double fastest_slow = s.slow.size() > 0 ? s.slow.cwiseAbs().maxCoeff() : 0.0;
  r.separation = fastest_slow > 0 ? slowest_fast / fastest_slow : std::numeric_limits<double>::infinity();
  if (info) r.scheme_analysis = info->hooks.analyse(model, h, options);
  const MapRadius radius(scheme, j, model.slow_count, ratio, options, s.all);
  r.judgement = radius.judge(h);
  r.spectral_radius = r.judgement.radius;
  r.stable = r.judgement.relative <= 1 + kStabilityMargin;
  if (r.ratio == 1 && std::abs(r.spectral_radius - 1) <= 1e-9)
    std::tie(r.other_modes_radius, r.fast_modes_radius) = modes_beside_zero(scheme, j, h, model.slow_count, options);
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

std::string judgement_text(const MapJudgement& j, bool stable) {
  if (!(j.growth > 0)) return "";
  const double rate = std::log(j.amplification) / std::log(j.model_growth);
  const bool grows = j.mode.real() > 0 && std::log(j.model_growth) > 0;
  if (!grows)
    return fmt::format(
        "; the model grows (fastest at +{:.6g} 1/s), but mode {:.6g}{:+.6g}i, which does not, is "
        "amplified by {:.12g} per step",
        j.growth, j.mode.real(), j.mode.imag(), j.amplification);
  return fmt::format(
      "; the model grows: mode {:.6g}{:+.6g}i 1/s by {:.12g} per step, the map by {:.12g} (a growth "
      "rate {:.6g} times the model's, accepted from 0.5 to 1.5): {}",
      j.mode.real(), j.mode.imag(), j.model_growth, j.amplification, rate,
      stable     ? "follows it"
      : rate > 1 ? "grows faster than the model"
                 : "does not follow its growth");
}

std::string StabilityReport::json() const {
  return fmt::format(
      "{{\"scheme\":\"{}\",\"step\":{:.17g},\"ratio\":{},\"spectral_radius\":{:.17g},\"stable\":{},"
      "\"max_stable_step\":{},\"max_stable_step_bounded\":{},"
      "\"jacobian_eigenvalues\":{},\"growing_modes\":{},\"fast_eigenvalues\":{},\"slow_eigenvalues\":{},"
      "\"separation\":{}{}{}{}{}}}",
      scheme, step, ratio, spectral_radius, stable ? "true" : "false",
      std::isfinite(max_stable_step) ? fmt::format("{:.17g}", max_stable_step) : "null",
      max_stable_step_bounded ? "true" : "false", json_list(jacobian_eigenvalues),
      json_list(growing_modes(jacobian_eigenvalues)), json_list(fast_eigenvalues), json_list(slow_eigenvalues),
      std::isfinite(separation) ? fmt::format("{:.6g}", separation) : "null",
      other_modes_radius >= 0
          ? fmt::format(",\"other_modes_radius\":{:.17g}{}", other_modes_radius,
                        fast_modes_radius >= 0 ? fmt::format(",\"fast_modes_radius\":{:.17g}", fast_modes_radius) : "")
          : "",
      judgement.growth > 0 && std::isfinite(judgement.relative)
          ? fmt::format(",\"growth_relative_radius\":{:.17g},\"deciding_mode\":[{:.17g},{:.17g}],"
                        "\"mode_amplification\":{:.17g},\"model_growth_per_step\":{:.17g}",
                        judgement.relative, judgement.mode.real(), judgement.mode.imag(), judgement.amplification,
                        judgement.model_growth)
          : "",
      scheme_analysis.json,
      full_rk4_max_stable_step
          ? fmt::format(
                ",\"full_model_eigenvalues\":{},\"full_model_rk4_max_stable_step\":{:.17g},\"step_gain\":{:.6g}",
                json_list(full_jacobian_eigenvalues), *full_rk4_max_stable_step,
                max_stable_step / *full_rk4_max_stable_step)
          : "");
}

std::string StabilityReport::text() const {
  return fmt::format(
             "{}{}\n"
             "fast (g_z) eigenvalues:    {}\n"
             "reduced slow eigenvalues:  {}\n"
             "time-scale separation:     {:.6g}\n"
             "{}"
             "{} at h = {:.6g}{}: spectral radius of the {} map {:.12g}{}{}: {}\n"
             "largest stable step of {}: {}\n",
             full_rk4_max_stable_step ? "reduced form's eigenvalues (the Jacobian the scheme integrates): "
                                      : "Jacobian eigenvalues:      ",
             text_list(jacobian_eigenvalues), text_list(fast_eigenvalues), text_list(slow_eigenvalues), separation,
             growth_text(jacobian_eigenvalues), scheme, step, ratio > 1 ? fmt::format(", H = {} h", ratio) : "",
             ratio > 1 ? "macro-step" : "one-step", spectral_radius,
             other_modes_radius >= 0
                 ? fmt::format(" (that of the Jacobian's eigenvalue 0, an integrating state; its other modes' at most "
                               "{:.6g}{})",
                               other_modes_radius,
                               fast_modes_radius >= 0 ? fmt::format(", its fast modes' {:.6g}", fast_modes_radius) : "")
                 : "",
             judgement_text(judgement, stable), stable ? "stable" : "UNSTABLE", scheme,
             !searched                 ? std::string("not searched")
             : max_stable_step_bounded ? fmt::format("{:.6g}", max_stable_step)
             : std::isfinite(max_stable_step)
                 ? fmt::format("none found up to {:.6g} (stable over the whole scan)", max_stable_step)
                 : std::string("unbounded")) +
         scheme_analysis.text +
         (full_rk4_max_stable_step
              ? fmt::format("the full model's eigenvalues: {}\n"
                            "largest stable step of rk4 on the full model: {:.6g}; gained by eliminating the fast "
                            "states: {:.3g}x\n",
                            text_list(full_jacobian_eigenvalues), *full_rk4_max_stable_step,
                            max_stable_step / *full_rk4_max_stable_step)
              : "");
}

Instability instability(const Model& model, const StabilityReport& r, double t_end) {
  const bool dual_rate = find_scheme(r.scheme)->traits.dual_rate;
  const double steps = t_end / (r.step * r.ratio);
  Instability i;
  i.message = fmt::format(
      "{} is unstable at h = {:.6g}{} for {}: the spectral radius of its {} map at the initial state is {:.12g} > 1{}",
      r.scheme, r.step, dual_rate ? fmt::format(", H = {} h", r.ratio) : "", model.name,
      dual_rate ? "macro-step" : "one-step", r.spectral_radius,
      std::isfinite(steps) && r.spectral_radius < 2 ? fmt::format(" (a growth by {:.3g}% over t_end = {:.6g})",
                                                                  100 * (std::pow(r.spectral_radius, steps) - 1), t_end)
                                                    : "");
  if (r.judgement.growth > 0)
    i.message = fmt::format("{} at h = {:.6g}{} does not follow {}, which grows at its initial state{}", r.scheme,
                            r.step, dual_rate ? fmt::format(", H = {} h", r.ratio) : "", model.name,
                            judgement_text(r.judgement, false));
  i.hint =
      fmt::format("the largest {} is {:.6g}: reduce the step (see 'dualrate analyze') or choose another scheme",
                  r.judgement.growth > 0 ? "step that follows the model's growth" : "stable step", r.max_stable_step);
  return i;
}

}  // namespace dualrate
