#include "schemes/adams/adams.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace dualrate {

namespace {

using Vector = AdamsIntegrator::Vector;

// x + c (a0 d0 + a1 d1 + a2 d2 + a3 d3), term by term in that order.
Vector combine(const Vector& x, double c, const std::array<double, 4>& a, const std::array<const Vector*, 4>& d) {
  Vector r(x.size());
  for (std::size_t m = 0; m < x.size(); ++m)
    r[m] = x[m] + c * (a[0] * (*d[0])[m] + a[1] * (*d[1])[m] + a[2] * (*d[2])[m] + a[3] * (*d[3])[m]);
  return r;
}

constexpr std::array<double, 4> kBashforth = {55, -59, 37, -9};
constexpr std::array<double, 4> kMoulton = {9, 19, -5, 1};

// AB4 from the history (newest first).
Vector predict(const Vector& x, double step, const std::array<Vector, 4>& hist) {
  return combine(x, step / 24, kBashforth, {&hist[0], &hist[1], &hist[2], &hist[3]});
}

// AM4 with the derivative `eval` at the new point and the history (newest first).
Vector correct(const Vector& x, double step, const Vector& eval, const std::array<Vector, 4>& hist) {
  return combine(x, step / 24, kMoulton, {&eval, &hist[0], &hist[1], &hist[2]});
}

void push(std::array<Vector, 4>& hist, Vector newest) {
  for (std::size_t m = 3; m > 0; --m) hist[m] = std::move(hist[m - 1]);
  hist[0] = std::move(newest);
}

}  // namespace

bool adams_scheme(const std::string& scheme, AdamsScheme& out) {
  if (scheme == "abm4") out = AdamsScheme::kAbm4;
  else if (scheme == "mrabm4_sync") out = AdamsScheme::kMrabm4Sync;
  else if (scheme == "mrabm4_parallel_sync") out = AdamsScheme::kMrabm4ParallelSync;
  else if (scheme == "mrabm4") out = AdamsScheme::kMrabm4;
  else if (scheme == "mrabm4_parallel") out = AdamsScheme::kMrabm4Parallel;
  else return false;
  return true;
}

bool task_form(AdamsScheme scheme) {
  return scheme == AdamsScheme::kMrabm4 || scheme == AdamsScheme::kMrabm4Parallel;
}

AdamsIntegrator::AdamsIntegrator(AdamsScheme scheme, std::size_t slow, double h, int ratio, GridRhs f,
                                 StartStep start)
    : scheme_(scheme),
      slow_(slow),
      h_(h),
      ratio_(scheme == AdamsScheme::kAbm4 ? 1 : ratio),
      f_(std::move(f)),
      start_(std::move(start)),
      startup_steps_(3 * ratio_) {}

int AdamsIntegrator::stride(long i) const {
  return i < startup_steps_ || scheme_ == AdamsScheme::kAbm4 ? 1 : ratio_;
}

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
    xe_new = fast_round(i, xr, pred, xe, fe_);                      // eqs. 10-13
    f_(next, full(pred, xe_new), d);                                // eq. 14
    xr_cor = correct(xr, big, slow_part(d), fr_);                   // eq. 15
    f_(next, full(xr_cor, xe_new), d);                              // eq. 16
  } else {
    f_(next, full(pred, xe), d);                                    // eq. 18
    const Vector preferred = correct(xr, big, slow_part(d), fr_);   // eq. 19
    std::array<Vector, 4> fe_first = fe_;
    const Vector xe_first = fast_round(i, xr, pred, xe, fe_first); // eqs. 23-26
    f_(next, full(preferred, xe_first), d);                         // eq. 20
    xr_cor = correct(xr, big, slow_part(d), fr_);                   // eq. 21
    f_(next, full(xr_cor, xe_first), d);                            // eq. 22
    xe_new = fast_round(i, xr, preferred, xe, fe_);                 // eqs. 27-30
  }
  push(fr_, slow_part(d));
  x = full(xr_cor, xe_new);
}

DualRateAdams::DualRateAdams(bool parallel, std::size_t slow, double h, int ratio, TickRhs f, StartStep start)
    : parallel_(parallel), slow_(slow), h_(h), ratio_(ratio), f_(std::move(f)), start_(std::move(start)) {}

Vector DualRateAdams::part(const Vector& x, bool fast) const {
  return fast ? Vector(x.begin() + static_cast<long>(slow_), x.end()) : Vector(x.begin(), x.begin() + static_cast<long>(slow_));
}

Vector DualRateAdams::slow_rate(long k, double t, const Vector& xr, const Vector& xe) const {
  Vector x = xr, d;
  x.insert(x.end(), xe.begin(), xe.end());
  f_(k * ratio_, t, x, d);
  return part(d, false);
}

void DualRateAdams::substep(long n, const Vector& xr, Vector& xe, std::array<Vector, 4>& g) const {
  const double t = static_cast<double>(n + 1) * h_;
  Vector x = xr, d;
  const Vector predicted = predict(xe, h_, g);
  x.insert(x.end(), predicted.begin(), predicted.end());
  f_(n, t, x, d);
  xe = correct(xe, h_, part(d, true), g);
  std::copy(xe.begin(), xe.end(), x.begin() + static_cast<long>(slow_));
  f_(n, t, x, d);
  push(g, part(d, true));
}

void DualRateAdams::fast_tick(long n) {
  if (n < kStartupMacroSteps * ratio_) {
    x_ = start_(n, x_);
    if (n + 4 >= kStartupMacroSteps * ratio_) {
      Vector d;
      f_(n, static_cast<double>(n + 1) * h_, x_, d);
      push(g_, part(d, true));
    }
    xe_first_ = part(x_, true);
    return;
  }
  const long j = n % ratio_ + 1;
  const double w = static_cast<double>(j) / static_cast<double>(ratio_);
  const auto interpolate = [w](const Vector& a, const Vector& b) {
    Vector r(a.size());
    for (std::size_t m = 0; m < a.size(); ++m) r[m] = a[m] + w * (b[m] - a[m]);
    return r;
  };
  Vector xe = part(x_, true);
  if (parallel_) {
    if (j == 1) {
      xe_first_ = xe;
      g_first_ = g_;
    }
    substep(n, interpolate(ends_.first_start, ends_.first_end), xe_first_, g_first_);
  }
  x_ = interpolate(ends_.start, ends_.end);
  substep(n, x_, xe, g_);
  x_.insert(x_.end(), xe.begin(), xe.end());
}

void DualRateAdams::slow_job(long k) {
  const double big = h_ * ratio_;
  const double t = static_cast<double>(k) * big;
  const Vector xe_carried = part(x_, true);
  const Vector& xe = parallel_ ? xe_first_ : xe_carried;
  if (k < kStartupMacroSteps) {
    xr_ = part(x_, false);
  } else {
    xr_ = correct(xr_, big, slow_rate(k, t, predicted_, xe), f_slow_);                       // eqs. 14-15, 20-21
  }
  push(f_slow_, slow_rate(k, t, xr_, xe));                                                   // eqs. 16, 22
  if (k + 1 < kStartupMacroSteps) return;
  next_.first_start = predict(xr_, big, f_slow_);                                            // eqs. 9, 17
  next_.first_end = combine(xr_, big / 3, {27, -44, 31, -8}, {&f_slow_[0], &f_slow_[1], &f_slow_[2], &f_slow_[3]});
  if (parallel_) {
    const Vector d = slow_rate(k, t + big, next_.first_start, xe_carried);                   // eq. 18
    next_.start = correct(xr_, big, d, f_slow_);                                             // eq. 19
    next_.end = next_.start;                                                                 // A' + (B - A)
    for (std::size_t m = 0; m < next_.end.size(); ++m) next_.end[m] += next_.first_end[m] - next_.first_start[m];
  } else {
    next_.start = next_.first_start;
    next_.end = next_.first_end;
  }
  predicted_ = next_.start;
}

void DualRateAdams::advance(long i, Vector& x) {
  const long k = i / ratio_;
  if (i == 0) {
    x_ = x;
    xe_first_ = part(x, true);
    slow_job(0);
  }
  for (long n = i; n < i + ratio_; ++n) fast_tick(n);
  ends_ = next_;
  slow_job(k + 1);
  x = xr_;
  const Vector xe = part(x_, true);
  x.insert(x.end(), xe.begin(), xe.end());
}

template <class Self>
auto DualRateAdams::kept(Self& self) {
  std::vector<decltype(&self.x_)> v = {&self.x_,           &self.xe_first_,        &self.ends_.first_start,
                                       &self.ends_.first_end, &self.ends_.start,   &self.ends_.end,
                                       &self.next_.first_start, &self.next_.first_end, &self.next_.start,
                                       &self.next_.end,     &self.xr_,              &self.predicted_};
  for (auto* history : {&self.g_, &self.g_first_, &self.f_slow_})
    for (auto& d : *history) v.push_back(&d);
  return v;
}

std::vector<DualRateAdams::Kept> DualRateAdams::history_layout() const {
  std::vector<Kept> layout;
  const auto derivatives = [](const std::array<Vector, 4>& h, const Vector* v) {
    return v >= h.data() && v < h.data() + h.size();
  };
  for (const Vector* v : kept(*this)) {
    const bool fast = v == &xe_first_ || derivatives(g_, v) || derivatives(g_first_, v);
    const std::size_t first = v == &x_ || !fast ? 0 : slow_;
    const bool derivative = derivatives(g_, v) || derivatives(g_first_, v) || derivatives(f_slow_, v);
    for (std::size_t i = 0; i < v->size(); ++i)
      layout.push_back({first + i, derivative, v == &xr_ || (v == &x_ && i >= slow_)});
  }
  return layout;
}

void DualRateAdams::restore(const Vector& all) {
  // 15 slow-sized and 10 fast-sized vectors (kept()).
  const std::size_t rest = all.size() < 15 * slow_ ? 1 : all.size() - 15 * slow_;
  if (rest % 10 != 0 || rest == 0)
    throw std::invalid_argument(fmt::format("{} kept values are not 15 x {} slow and 10 x n fast ones", all.size(), slow_));
  const std::size_t fast = rest / 10;
  for (Vector* v : kept(*this)) v->assign(slow_, 0.0);
  x_.assign(slow_ + fast, 0.0);
  xe_first_.assign(fast, 0.0);
  for (auto* history : {&g_, &g_first_})
    for (auto& d : *history) d.assign(fast, 0.0);
  set_history(all);
}

DualRateAdams::Vector DualRateAdams::history() const {
  Vector all;
  for (const Vector* v : kept(*this)) all.insert(all.end(), v->begin(), v->end());
  return all;
}

void DualRateAdams::set_history(const Vector& all) {
  auto it = all.begin();
  for (Vector* v : kept(*this)) {
    std::copy(it, it + static_cast<long>(v->size()), v->begin());
    it += static_cast<long>(v->size());
  }
  if (it != all.end()) throw std::logic_error("DualRateAdams::set_history: wrong size");
}

}  // namespace dualrate
