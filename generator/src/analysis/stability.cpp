#include "analysis/stability.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "schemes/adams/adams.hpp"
#include "schemes/reference_core.hpp"
#include "schemes/registry.hpp"
#include "schemes/sp_ll/sp_ll.hpp"

namespace dualrate {

std::vector<GiNaC::ex> state_symbols(const Model& model) {
  std::vector<GiNaC::ex> s;
  for (const auto& x : model.states) s.push_back(x.symbol);
  return s;
}

std::vector<GiNaC::ex> input_symbols(const Model& model) {
  std::vector<GiNaC::ex> s;
  for (const auto& u : model.inputs) s.push_back(u.symbol);
  return s;
}

GiNaC::matrix jacobian(const Model& model, const std::vector<GiNaC::ex>& wrt) {
  const std::vector<GiNaC::ex> f = model.resolved_rhs();
  GiNaC::matrix j(static_cast<unsigned>(f.size()), static_cast<unsigned>(wrt.size()));
  for (unsigned r = 0; r < f.size(); ++r)
    for (unsigned c = 0; c < wrt.size(); ++c) j(r, c) = f[r].diff(GiNaC::ex_to<GiNaC::symbol>(wrt[c]));
  return j;
}

Eigen::MatrixXd evaluate(const Model& model, const GiNaC::matrix& m, double t, const std::vector<double>& x,
                         const std::vector<double>& u) {
  GiNaC::exmap point;
  point[model.time] = GiNaC::numeric(t);
  for (std::size_t i = 0; i < model.states.size(); ++i) point[model.states[i].symbol] = GiNaC::numeric(x.at(i));
  for (std::size_t i = 0; i < model.inputs.size(); ++i) point[model.inputs[i].symbol] = GiNaC::numeric(u.at(i));
  Eigen::MatrixXd result(m.rows(), m.cols());
  for (unsigned r = 0; r < m.rows(); ++r)
    for (unsigned c = 0; c < m.cols(); ++c) {
      const GiNaC::ex& entry = m(r, c);
      // Plain substitution (no pattern matching): a map lookup per symbol instead of a match
      // against every entry of the point per node.
      const GiNaC::ex v =
          GiNaC::is_a<GiNaC::numeric>(entry) ? entry.evalf() : entry.subs(point, GiNaC::subs_options::no_pattern).evalf();
      if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
        throw std::runtime_error("Jacobian entry does not evaluate to a real number");
      result(r, c) = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
    }
  return result;
}

namespace {

// dx/dt = J x.
RightHandSide linear_rhs(const Eigen::MatrixXd& j) {
  return [&j](double, const std::vector<double>& x, std::vector<double>& dx) {
    const Eigen::VectorXd v = j * Eigen::Map<const Eigen::VectorXd>(x.data(), j.rows());
    dx.assign(v.data(), v.data() + j.rows());
  };
}

// Calls use(tasks, tick, x) with the task form of mrabm4 (parallel or not) for dx/dt = J x,
// started up: past its RK4 macro steps, at macro step `tick`.
template <class Use>
auto with_started_tasks(bool parallel, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio, Use use) {
  const RightHandSide linear = linear_rhs(j);
  const TickRhs ticks = [&](long, double t, const std::vector<double>& x, std::vector<double>& dx) { linear(t, x, dx); };
  const StartStep start = [&](long, const std::vector<double>& x) { return scheme_step("rk4", linear, 0, h, x); };
  DualRateAdams tasks(parallel, slow, h, ratio, ticks, start);
  std::vector<double> x(static_cast<std::size_t>(j.rows()), 1.0);
  long tick = 0;
  for (; tick <= DualRateAdams::kStartupMacroSteps * ratio; tick += ratio) tasks.advance(tick, x);
  return use(tasks, tick, x);
}

Eigen::MatrixXd macro_step_map(bool parallel, const Eigen::MatrixXd& j, double h, std::size_t slow, int ratio) {
  return with_started_tasks(parallel, j, h, slow, ratio, [](DualRateAdams& tasks, long tick, std::vector<double>& x) {
    const std::size_t m = tasks.history().size();
    Eigen::MatrixXd map(m, m);
    for (std::size_t c = 0; c < m; ++c) {
      std::vector<double> e(m, 0.0);
      e[c] = 1.0;
      tasks.set_history(e);
      tasks.advance(tick, x);
      const std::vector<double> next = tasks.history();
      map.col(static_cast<Eigen::Index>(c)) = Eigen::Map<const Eigen::VectorXd>(next.data(), static_cast<Eigen::Index>(m));
    }
    return map;
  });
}

// abm4's one-step map on [x; f_i; f_{i-1}; f_{i-2}; f_{i-3}] after its RK4 start-up.
Eigen::MatrixXd abm4_step_map(const Eigen::MatrixXd& j, double h, std::size_t slow) {
  const auto n = static_cast<std::size_t>(j.rows());
  const RightHandSide linear = linear_rhs(j);
  const GridRhs f = [&](long, const std::vector<double>& x, std::vector<double>& dx) { linear(0, x, dx); };
  const StartStep start = [&](long, const std::vector<double>& x) { return scheme_step("rk4", linear, 0, h, x); };
  AdamsIntegrator abm4(AdamsScheme::kAbm4, slow, h, 1, f, start);
  std::vector<double> x(n, 1.0);
  long i = 0;
  for (; i <= abm4.startup_steps(); ++i) abm4.advance(i, x);
  const std::size_t m = 5 * n;
  Eigen::MatrixXd map(m, m);
  for (std::size_t c = 0; c < m; ++c) {
    std::vector<double> e(m, 0.0);
    e[c] = 1.0;
    x.assign(e.begin(), e.begin() + static_cast<long>(n));
    abm4.set_derivative_history({e.begin() + static_cast<long>(n), e.end()});
    abm4.advance(i, x);
    x.resize(m);
    const std::vector<double> history = abm4.derivative_history();
    std::copy(history.begin(), history.end(), x.begin() + static_cast<long>(n));
    map.col(static_cast<Eigen::Index>(c)) = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(m));
  }
  return map;
}

}  // namespace

StepMapLayout step_map_layout(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                              int ratio) {
  AdamsScheme adams;
  if (adams_scheme(scheme, adams) && task_form(adams))
    return {with_started_tasks(
                adams == AdamsScheme::kMrabm4Parallel, j, h, slow, ratio,
                [](const DualRateAdams& tasks, long, const std::vector<double>&) { return tasks.history_layout(); }),
            ratio};
  StepMapLayout layout;
  for (std::size_t i = 0; i < static_cast<std::size_t>(j.rows()); ++i) layout.entries.push_back({i, false, true});
  return layout;
}

Eigen::MatrixXd reference_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                                   int ratio, double inner_step) {
  AdamsScheme adams;
  if (adams_scheme(scheme, adams) && task_form(adams))
    return macro_step_map(adams == AdamsScheme::kMrabm4Parallel, j, h, slow, ratio);
  if (adams_scheme(scheme, adams) && adams == AdamsScheme::kAbm4) return abm4_step_map(j, h, slow);
  const auto n = j.rows();
  const RightHandSide linear = linear_rhs(j);
  const SchemeInfo* info = find_scheme(scheme);
  ReferenceStep step = [&scheme](const RightHandSide& f, double t, double hs, const std::vector<double>& x) {
    return scheme_step(scheme, f, t, hs, x);
  };
  if (info && info->reference)
    step = info->reference({nullptr, slow, [&j](double, const std::vector<double>&) { return j; }, inner_step, {}}, h);
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
                             int ratio, double inner_step) {
  const SchemeInfo* info = find_scheme(scheme);
  if (info && info->step_map) return info->step_map(j, slow, h);
  return reference_step_map(scheme, j, h, slow, ratio, inner_step);
}

namespace {

Eigen::VectorXcd eigenvalues(const Eigen::MatrixXd& m) {
  if (m.size() == 0) return {};
  return Eigen::EigenSolver<Eigen::MatrixXd>(m, false).eigenvalues();
}

bool uniform(const std::string& scheme) {
  const SchemeInfo* info = find_scheme(scheme);
  return info ? info->uniform : scheme == "abm4";
}

}  // namespace

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, double inner_step)
    : MapRadius(std::move(scheme), j, slow, ratio, inner_step, eigenvalues(j)) {}

MapRadius::MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, double inner_step,
                     Eigen::VectorXcd eigenvalues)
    : scheme_(std::move(scheme)),
      j_(j),
      slow_(slow),
      ratio_(ratio),
      inner_step_(inner_step),
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

double MapRadius::operator()(double h) const {
  try {
    if (!uniform_) return eigenvalues(one_step_map(scheme_, j_, h, slow_, ratio_, inner_step_)).cwiseAbs().maxCoeff();
    double radius = 0;
    for (const Eigen::MatrixXd& block : eigen_blocks_)
      radius = std::max(radius,
                        eigenvalues(reference_step_map(scheme_, block, h, static_cast<std::size_t>(block.rows()), 1))
                            .cwiseAbs()
                            .maxCoeff());
    return radius;
  } catch (const SmfeDesignError&) {
    return std::numeric_limits<double>::infinity();
  }
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
                       int ratio, double inner_step) {
  return MapRadius(scheme, j, slow, ratio, inner_step).largest_stable_step(bounded);
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
  if (scheme_ == "smfe") {
    // N is chosen anew for each D, and eq. 14 is exact for a linear system (its factors are
    // the eigenvalues of the implementation's map; tests/unit/smfe_test.cpp), so a D is
    // stable when a design exists for it. When every eigenvalue lies in the inner step's
    // forward-Euler disk |1 + h_s lambda| <= 1, one exists for every D >= 2 h_s (N = the
    // whole inner steps that fit, the rest shorter than h_s); otherwise the scan runs from
    // D = 2 h_s to 1000 h_s.
    const Spectra s = spectra(j_, slow_);
    double hs = inner_step_;
    try {
      if (!(hs > 0)) hs = smfe_default_inner_step(s.fast);
    } catch (const SmfeDesignError&) {
      return 0;
    }
    if ((1.0 + hs * s.all.array()).abs().maxCoeff() <= 1 + kStabilityMargin) {
      bounded = false;
      return std::numeric_limits<double>::infinity();
    }
    h = 2 * hs;
    end = std::min(1000 * hs, end);
    stable = [s, hs](double d) {  // s by value: it ends with this block
      try {
        smfe_design(s.all, s.slow, s.fast, d, hs);
        return true;
      } catch (const SmfeDesignError&) {
        return false;
      }
    };
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

Spectra spectra(const Eigen::MatrixXd& j, std::size_t slow) {
  const auto ns = static_cast<Eigen::Index>(slow);
  const auto nf = j.rows() - ns;
  Spectra s;
  s.all = eigenvalues(j);
  const Eigen::MatrixXd gz = j.bottomRightCorner(nf, nf);
  s.fast = eigenvalues(gz);
  Eigen::MatrixXd reduced = j.topLeftCorner(ns, ns);
  if (nf > 0 && ns > 0) {
    Eigen::FullPivLU<Eigen::MatrixXd> lu(gz);
    if (lu.isInvertible()) reduced -= j.topRightCorner(ns, nf) * lu.solve(j.bottomLeftCorner(nf, ns));
  }
  s.slow = eigenvalues(reduced);
  return s;
}

StabilityReport analyze_stability(const Model& model, const std::string& scheme, double h, int ratio,
                                  double inner_step, StepSearch search) {
  const ReferenceCore core(model);
  const Eigen::MatrixXd full = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const SchemeInfo* info = find_scheme(scheme);
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
  if (scheme == "sp_ll") sp_ll_blocks(model, true);  // the model must suit the scheme
  if (scheme == "smfe") r.smfe = smfe_design_for(model, h, inner_step);
  const MapRadius radius(scheme, j, model.slow_count, ratio, inner_step, s.all);
  r.spectral_radius = radius(h);
  r.stable = r.spectral_radius <= 1 + kStabilityMargin;
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
        MapRadius("rk4", full, model.slow_count, 1, 0, r.full_jacobian_eigenvalues).largest_stable_step(bounded);
  }
  return r;
}

std::string StabilityReport::json() const {
  return fmt::format(
      "{{\"scheme\":\"{}\",\"step\":{:.17g},\"ratio\":{},\"spectral_radius\":{:.17g},\"stable\":{},"
      "\"max_stable_step\":{},\"max_stable_step_bounded\":{},"
      "\"jacobian_eigenvalues\":{},\"fast_eigenvalues\":{},\"slow_eigenvalues\":{},\"separation\":{}{}{}}}",
      scheme, step, ratio, spectral_radius, stable ? "true" : "false",
      std::isfinite(max_stable_step) ? fmt::format("{:.17g}", max_stable_step) : "null",
      max_stable_step_bounded ? "true" : "false", json_list(jacobian_eigenvalues),
      json_list(fast_eigenvalues), json_list(slow_eigenvalues),
      std::isfinite(separation) ? fmt::format("{:.6g}", separation) : "null",
      smfe ? fmt::format(",\"inner_step\":{:.17g},\"inner_steps\":{},\"eq14_largest_factor\":{:.17g},"
                         "\"eq17_bound\":{:.6g},\"extremes_inner_steps\":{},\"extremes_largest_factor\":{:.17g},"
                         "\"extremes_stable\":{},\"extremes_breaker\":[{:.17g},{:.17g}]",
                         smfe->inner_step, smfe->inner_steps, smfe->worst_factor, smfe->eq17_bound,
                         smfe->extremes_inner_steps, smfe->extremes_worst_factor,
                         smfe->extremes_worst_factor <= 1 + kStabilityMargin ? "true" : "false",
                         smfe->extremes_breaker.real(), smfe->extremes_breaker.imag())
           : "",
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
      "{} at h = {:.6g}{}: spectral radius of the {} map {:.12g}: {}\n"
      "largest stable step of {}: {}\n",
      text_list(jacobian_eigenvalues), text_list(fast_eigenvalues), text_list(slow_eigenvalues), separation, scheme,
      step, ratio > 1 ? fmt::format(", H = {} h", ratio) : "", ratio > 1 ? "macro-step" : "one-step", spectral_radius, stable ? "stable" : "UNSTABLE", scheme,
      !searched                        ? std::string("not searched")
      : max_stable_step_bounded        ? fmt::format("{:.6g}", max_stable_step)
      : std::isfinite(max_stable_step) ? fmt::format("none found up to {:.6g} (stable over the whole scan)", max_stable_step)
                                       : std::string("unbounded")) +
         (smfe ? fmt::format("smfe design at D = {:.6g}: inner step h_s = {:.6g}, N = {} inner steps (eq. 14 for every "
                             "eigenvalue, largest factor {:.6g}); eq. 17's bound N >= {:.3g}; the paper's two "
                             "eigenvalues alone give N = {}, at which eigenvalue {:.6g}{:+.6g}i has factor {:.6g}{}\n",
                             step, smfe->inner_step, smfe->inner_steps, smfe->worst_factor, smfe->eq17_bound,
                             smfe->extremes_inner_steps, smfe->extremes_breaker.real(), smfe->extremes_breaker.imag(),
                             smfe->extremes_worst_factor,
                             smfe->extremes_worst_factor <= 1 + kStabilityMargin ? "" : " (UNSTABLE)")
               : "") +
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
