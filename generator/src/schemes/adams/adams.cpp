#include "schemes/adams/adams.hpp"

#include <utility>

#include "schemes/adams/formulas.hpp"

namespace dualrate {

namespace {

using Vector = AdamsIntegrator::Vector;
using adams::correct;
using adams::predict;
using adams::push;

}  // namespace

bool adams_scheme(const std::string& scheme, AdamsScheme& out) {
  if (scheme == "abm4")
    out = AdamsScheme::kAbm4;
  else if (scheme == "mrabm4_sync")
    out = AdamsScheme::kMrabm4Sync;
  else if (scheme == "mrabm4_parallel_sync")
    out = AdamsScheme::kMrabm4ParallelSync;
  else if (scheme == "mrabm4")
    out = AdamsScheme::kMrabm4;
  else if (scheme == "mrabm4_parallel")
    out = AdamsScheme::kMrabm4Parallel;
  else
    return false;
  return true;
}

bool task_form(AdamsScheme scheme) { return scheme == AdamsScheme::kMrabm4 || scheme == AdamsScheme::kMrabm4Parallel; }

AdamsIntegrator::AdamsIntegrator(AdamsScheme scheme, std::size_t slow, double h, int ratio, GridRhs f, StartStep start)
    : scheme_(scheme),
      slow_(slow),
      h_(h),
      ratio_(scheme == AdamsScheme::kAbm4 ? 1 : ratio),
      f_(std::move(f)),
      start_(std::move(start)),
      startup_steps_(3 * ratio_) {}

int AdamsIntegrator::stride(long i) const { return i < startup_steps_ || scheme_ == AdamsScheme::kAbm4 ? 1 : ratio_; }

Vector AdamsIntegrator::full(const Vector& xr, const Vector& xe) const {
  Vector x = xr;
  x.insert(x.end(), xe.begin(), xe.end());
  return x;
}

Vector AdamsIntegrator::slow_part(const Vector& x) const {
  return Vector(x.begin(), x.begin() + static_cast<long>(slow_));
}

Vector AdamsIntegrator::fast_part(const Vector& x) const {
  return Vector(x.begin() + static_cast<long>(slow_), x.end());
}

Vector AdamsIntegrator::fast_round(long i, const Vector& xr0, const Vector& xr1, Vector xe,
                                   std::array<Vector, 4>& fe) const {
  Vector d;
  for (int j = 1; j <= ratio_; ++j) {
    const Vector pred = predict(xe, h_, fe);
    Vector xr(xr0.size());
    const double w = static_cast<double>(j) / ratio_;
    for (std::size_t m = 0; m < xr.size(); ++m) xr[m] = xr0[m] + w * (xr1[m] - xr0[m]);
    f_(i + j, full(xr, pred), d);
    xe = correct(xe, h_, fast_part(d), fe);
    f_(i + j, full(xr, xe), d);
    push(fe, fast_part(d));
  }
  return xe;
}

Vector AdamsIntegrator::derivative_history() const {
  Vector v;
  for (const Vector& f : f_hist_) v.insert(v.end(), f.begin(), f.end());
  return v;
}

void AdamsIntegrator::set_derivative_history(const Vector& v) {
  const std::size_t n = v.size() / f_hist_.size();
  for (std::size_t m = 0; m < f_hist_.size(); ++m)
    f_hist_[m].assign(v.begin() + static_cast<long>(m * n), v.begin() + static_cast<long>((m + 1) * n));
}

void AdamsIntegrator::advance(long i, Vector& x) {
  Vector d;
  if (i < startup_steps_) {
    if (i == 0) {
      f_(0, x, d);
      push(f_hist_, d);
      push(fr_, slow_part(d));
    }
    x = start_(i, x);
    f_(i + 1, x, d);
    push(f_hist_, d);
    if ((i + 1) % ratio_ == 0) push(fr_, slow_part(d));
    if (i + 1 == startup_steps_)
      for (std::size_t m = 0; m < 4; ++m) fe_[m] = fast_part(f_hist_[m]);
    return;
  }
  if (scheme_ == AdamsScheme::kAbm4) {
    const Vector pred = predict(x, h_, f_hist_);
    f_(i + 1, pred, d);
    x = correct(x, h_, d, f_hist_);
    f_(i + 1, x, d);
    push(f_hist_, d);
    return;
  }
  const double big = h_ * ratio_;
  const long next = i + ratio_;
  const Vector xr = slow_part(x), xe = fast_part(x);
  const Vector pred = predict(xr, big, fr_);  // eqs. 9, 17
  Vector xr_cor, xe_new;
  if (scheme_ == AdamsScheme::kMrabm4Sync) {
    xe_new = fast_round(i, xr, pred, xe, fe_);     // eqs. 10-13
    f_(next, full(pred, xe_new), d);               // eq. 14
    xr_cor = correct(xr, big, slow_part(d), fr_);  // eq. 15
    f_(next, full(xr_cor, xe_new), d);             // eq. 16
  } else {
    f_(next, full(pred, xe), d);                                   // eq. 18
    const Vector preferred = correct(xr, big, slow_part(d), fr_);  // eq. 19
    std::array<Vector, 4> fe_first = fe_;
    const Vector xe_first = fast_round(i, xr, pred, xe, fe_first);  // eqs. 23-26
    f_(next, full(preferred, xe_first), d);                         // eq. 20
    xr_cor = correct(xr, big, slow_part(d), fr_);                   // eq. 21
    f_(next, full(xr_cor, xe_first), d);                            // eq. 22
    xe_new = fast_round(i, xr, preferred, xe, fe_);                 // eqs. 27-30
  }
  push(fr_, slow_part(d));
  x = full(xr_cor, xe_new);
}

}  // namespace dualrate
