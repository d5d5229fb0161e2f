#include "schemes/adams/dual_rate_adams.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "schemes/adams/formulas.hpp"

namespace dualrate {

template <class T, class Time>
DualRateAdamsIn<T, Time>::DualRateAdamsIn(bool parallel, std::size_t slow, T h, int ratio, Rates rates, Start start,
                                          Jumped jumped, Tick tick, const std::vector<bool>& compensated)
    : parallel_(parallel),
      slow_(slow),
      h_(h),
      ratio_(ratio),
      rates_(std::move(rates)),
      start_(std::move(start)),
      jumped_(std::move(jumped)),
      tick_(std::move(tick)),
      adams_from_(kStartupMacroSteps * ratio) {
  const auto slow_end = compensated.begin() + static_cast<long>(std::min(slow, compensated.size()));
  if (std::none_of(compensated.begin(), slow_end, [](bool c) { return c; })) return;
  compensated_.assign(compensated.begin(), slow_end);
  compensated_.resize(slow, false);
  carry_.assign(slow, T(0));
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::add_correction(const Vector& dx) {
  for (std::size_t m = 0; m < slow_; ++m) {
    if (!compensated_[m]) {
      xr_[m] += dx[m];
      continue;
    }
    const T y = dx[m] - carry_[m];
    const T s = xr_[m] + y;
    carry_[m] = (s - xr_[m]) - y;
    xr_[m] = s;
  }
}

template <class T, class Time>
long DualRateAdamsIn<T, Time>::adams_from(long n) const {
  if (n < 1 || !jumped_ || !jumped_(n)) return adams_from_;
  return ((n + ratio_ - 1) / ratio_ + kStartupMacroSteps) * ratio_;
}

template <class T, class Time>
auto DualRateAdamsIn<T, Time>::part(const Vector& x, bool fast) const -> Vector {
  const auto split = x.begin() + static_cast<long>(slow_);
  return fast ? Vector(split, x.end()) : Vector(x.begin(), split);
}

template <class T, class Time>
auto DualRateAdamsIn<T, Time>::slow_rate(long k, Time t, const Vector& xr, const Vector& xe) const -> Vector {
  Vector x = xr, d;
  x.insert(x.end(), xe.begin(), xe.end());
  rates_.slow(k * ratio_, t, x, d);
  return part(d, false);
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::substep(long n, Time t, const Vector& xr, Vector& xe, std::array<Vector, 4>& g) const {
  Vector x = xr, d;
  const Vector predicted = adams::predict(xe, h_, g);
  x.insert(x.end(), predicted.begin(), predicted.end());
  rates_.fast(n, t, x, d);
  xe = adams::correct(xe, h_, part(d, true), g);
  std::copy(xe.begin(), xe.end(), x.begin() + static_cast<long>(slow_));
  rates_.fast(n, t, x, d);
  adams::push(g, part(d, true));
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::fast_tick(long n) {
  adams_from_ = adams_from(n);
  const Time t_next = Time(static_cast<double>(n + 1)) * Time(h_);
  if (n < adams_from_) {
    x_ = start_(n, x_);
    if (n + 4 >= adams_from_) {
      Vector d;
      rates_.fast(n, t_next, x_, d);
      adams::push(g_, part(d, true));
    }
    xe_first_ = part(x_, true);
    return;
  }
  const long j = n % ratio_ + 1;
  const T w = run_time_value(j, h_) / static_cast<T>(ratio_);
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
    substep(n, t_next, interpolate(ends_.first_start, ends_.first_end), xe_first_, g_first_);
  }
  x_ = interpolate(ends_.start, ends_.end);
  substep(n, t_next, x_, xe, g_);
  x_.insert(x_.end(), xe.begin(), xe.end());
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::slow_job(long k) {
  const T big = h_ * static_cast<T>(ratio_);
  const Time t = Time(static_cast<double>(k)) * Time(big);
  const Vector xe_carried = part(x_, true);
  const Vector& xe = parallel_ ? xe_first_ : xe_carried;
  const long first_adams = adams_from(k * ratio_) / ratio_;
  if (k < first_adams) {
    xr_ = part(x_, false);
    std::fill(carry_.begin(), carry_.end(), T(0));
  } else if (carry_.empty()) {
    xr_ = adams::correct(xr_, big, slow_rate(k, t, predicted_, xe), f_slow_);  // eqs. 14-15, 20-21
  } else {
    add_correction(adams::correction(big, slow_rate(k, t, predicted_, xe), f_slow_));
  }
  adams::push(f_slow_, slow_rate(k, t, xr_, xe));  // eqs. 16, 22
  if (k + 1 < first_adams) return;
  next_.first_start = adams::predict(xr_, big, f_slow_);  // eqs. 9, 17
  next_.first_end = adams::predict_two(xr_, big, f_slow_);
  if (parallel_) {
    const Vector d = slow_rate(k, t + Time(big), next_.first_start, xe_carried);  // eq. 18
    next_.start = adams::correct(xr_, big, d, f_slow_);                           // eq. 19
    next_.end = next_.start;                                                      // A' + (B - A)
    for (std::size_t m = 0; m < next_.end.size(); ++m) next_.end[m] += next_.first_end[m] - next_.first_start[m];
  } else {
    next_.start = next_.first_start;
    next_.end = next_.first_end;
  }
  predicted_ = next_.start;
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::advance(long i, Vector& x) {
  const long k = i / ratio_;
  if (restored_) {
    adams_from_ = kStartupMacroSteps * ratio_;
    for (long n = std::max(1L, i - 5 * ratio_ + 1); n < i; ++n) adams_from_ = adams_from(n);
    restored_ = false;
  }
  if (i == 0) {
    adams_from_ = kStartupMacroSteps * ratio_;
    x_ = x;
    xe_first_ = part(x, true);
    slow_job(0);
  }
  for (long n = i; n < i + ratio_; ++n) {
    if (tick_) tick_(n, x_);
    fast_tick(n);
  }
  ends_ = next_;
  slow_job(k + 1);
  x = xr_;
  const Vector xe = part(x_, true);
  x.insert(x.end(), xe.begin(), xe.end());
}

template <class T, class Time>
template <class Self>
auto DualRateAdamsIn<T, Time>::kept(Self& self) {
  std::vector<decltype(&self.x_)> v = {
      &self.x_,        &self.xe_first_,         &self.ends_.first_start, &self.ends_.first_end, &self.ends_.start,
      &self.ends_.end, &self.next_.first_start, &self.next_.first_end,   &self.next_.start,     &self.next_.end,
      &self.xr_,       &self.predicted_};
  for (auto* history : {&self.g_, &self.g_first_, &self.f_slow_})
    for (auto& d : *history) v.push_back(&d);
  if (!self.carry_.empty()) v.push_back(&self.carry_);
  return v;
}

template <class T, class Time>
std::vector<StepMapEntry> DualRateAdamsIn<T, Time>::history_layout() const {
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

template <class T, class Time>
void DualRateAdamsIn<T, Time>::restore(const Vector& all) {
  // 15 slow-sized (16 with carries) and 10 fast-sized vectors (kept()).
  const std::size_t slow_sized = carry_.empty() ? 15 : 16;
  const std::size_t rest = all.size() < slow_sized * slow_ ? 1 : all.size() - slow_sized * slow_;
  if (rest % 10 != 0 || rest == 0)
    throw std::invalid_argument(
        fmt::format("{} kept values are not {} x {} slow and 10 x n fast ones", all.size(), slow_sized, slow_));
  const std::size_t fast = rest / 10;
  for (Vector* v : kept(*this)) v->assign(slow_, T(0));
  x_.assign(slow_ + fast, T(0));
  xe_first_.assign(fast, T(0));
  for (auto* history : {&g_, &g_first_})
    for (auto& d : *history) d.assign(fast, T(0));
  set_history(all);
  restored_ = true;
}

template <class T, class Time>
auto DualRateAdamsIn<T, Time>::history() const -> Vector {
  Vector all;
  for (const Vector* v : kept(*this)) all.insert(all.end(), v->begin(), v->end());
  return all;
}

template <class T, class Time>
void DualRateAdamsIn<T, Time>::set_history(const Vector& all) {
  auto it = all.begin();
  for (Vector* v : kept(*this)) {
    std::copy(it, it + static_cast<long>(v->size()), v->begin());
    it += static_cast<long>(v->size());
  }
  if (it != all.end()) throw std::logic_error("DualRateAdams::set_history: wrong size");
}

template class DualRateAdamsIn<double>;
template class DualRateAdamsIn<float>;
template class DualRateAdamsIn<CountedScalar, CountedScalar>;

}  // namespace dualrate
