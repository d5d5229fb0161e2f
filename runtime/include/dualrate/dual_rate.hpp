// Two tasks and their deterministic data transfer for a dual-rate scheme (e.g. Mrabm4).
//
// An executive calls fast() every h, at tick n (t_n = n h), with the inputs sampled at t_n,
// and runs slow() once for every release fast() asks for, at lower priority: the fast task
// may preempt the slow one anywhere. With R = H / h, releases fall on the ticks n = k R.
//
// Transfer, by double buffers indexed by the parity of the macro step, so that neither task
// ever reads what the other is writing:
//  - fast -> slow: at tick k R, before its own step, fast() writes snapshot[k % 2] with
//    the values at t_k (state, round-1 fast state, u(t_k)) and releases slow job k. Job k
//    reads only that slot; the fast task writes it again at tick (k + 2) R, after job k's
//    deadline t_{k+1}.
//  - slow -> fast: job k writes the end points of macro step k + 1 into endpoints[(k+1) % 2]
//    and then marks itself done. At tick (k + 1) R fast() copies them for its macro step
//    (latches) before releasing job k + 1, which writes the other slot.
// So every value each task reads was written at a fixed instant of the tick grid, and the
// result is the same, bit for bit, whatever the interleaving, as long as each slow job ends
// before the next release; the sequential executive (slow job run to completion at its
// release) is the oracle.
//
// Overrun policy (slow job k still running at t_{k+1}): fast() counts a slow overrun,
// reports Status::kSlowOverrun, does not release job k + 1 (that release is skipped) and
// keeps the fast rate with the slow state held at the last end point it had (Scheme::hold).
// The late job's results are used from the next release it lets happen. A run with a slow
// overrun is no longer the scheme's result and is reported as such. Fast overruns (a tick
// that comes while the fast task still runs) are the executive's to detect and report
// (report(Status::kFastOverrun)).
#pragma once

#include <atomic>
#include <cstdint>

#include "fault.hpp"
#include "status.hpp"

namespace dualrate {

template <class Scheme>
class DualRate {
 public:
  using Scalar = typename Scheme::Scalar;
  using State = typename Scheme::State;
  using Input = typename Scheme::Input;
  static constexpr int kRatio = Scheme::kRatio;
  static_assert(kRatio >= 1, "dualrate: the rate ratio r = H / h must be a positive integer");

  // What slow job k leaves for the executive: t_k, the state [x_r(t_k); x_e(t_k)] and u(t_k).
  struct Row {
    std::uint32_t macro = 0;
    State x;
    Input u;
  };

  explicit DualRate(Scalar h) noexcept : h_(h) {}

  // The fast task's body for tick n = ticks(); sets `release` when slow job n / R must be released now.
  [[nodiscard]] Status fast(const Input& u, bool& release) noexcept {
    release = false;
    Status status = Status::kOk;
    const std::uint64_t n = fast_.tick;
    if (n % kRatio == 0) {
      const auto k = static_cast<std::uint32_t>(n / kRatio);
      if (slow_busy_.load(std::memory_order_acquire)) {
        ++slow_overruns_;
        Scheme::hold(fast_.ends);
        status = report(Status::kSlowOverrun);
      } else {
        if (ends_macro_[k % 2] == k) fast_.ends = ends_[k % 2];
        else if (k >= Scheme::kStartupMacroSteps) Scheme::hold(fast_.ends);
        auto& s = snapshot_[k % 2];
        s.x = fast_.x;
        s.xe_first = fast_.xe_first;
        s.u = u;
        released_ = k;
        slow_busy_.store(true, std::memory_order_release);
        release = true;
      }
    }
    const Status stepped = Scheme::fast_step(fast_, h_, u);
    return stepped != Status::kOk ? report(stepped) : status;
  }

  // The slow task's body: one job for the latest release.
  [[nodiscard]] Status slow() noexcept {
    const std::uint32_t k = released_.load(std::memory_order_acquire);
    const auto& in = snapshot_[k % 2];
    const Status status = Scheme::slow_step(slow_, k, h_, in, ends_[(k + 1) % 2]);
    ends_macro_[(k + 1) % 2] = k + 1;
    row_.macro = k;
    row_.x.template head<Scheme::kSlow>() = slow_.xr;
    row_.x.template tail<Scheme::kFast>() = in.x.template tail<Scheme::kFast>();
    row_.u = in.u;
    slow_busy_.store(false, std::memory_order_release);
    return status != Status::kOk ? report(status) : status;
  }

  // Read by the slow task's executive after slow() returned (nothing else writes it meanwhile).
  const Row& row() const noexcept { return row_; }
  std::uint64_t ticks() const noexcept { return fast_.tick; }
  std::uint32_t released() const noexcept { return released_.load(std::memory_order_acquire); }  // latest release k
  std::uint32_t slow_overruns() const noexcept { return slow_overruns_; }
  bool slow_busy() const noexcept { return slow_busy_.load(std::memory_order_acquire); }

 private:
  Scalar h_;
  typename Scheme::Fast fast_{};
  typename Scheme::Slow slow_{};
  typename Scheme::Snapshot snapshot_[2]{};
  typename Scheme::Endpoints ends_[2]{};
  std::uint32_t ends_macro_[2] = {0, 0};  // the macro step each end-point slot is for
  std::atomic<std::uint32_t> released_{0};
  std::atomic<bool> slow_busy_{false};
  std::uint32_t slow_overruns_ = 0;
  Row row_{};
};

}  // namespace dualrate
