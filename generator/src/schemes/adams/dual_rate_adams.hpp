// mrabm4 and mrabm4_parallel in the dual-rate task form of the generated code, run
// sequentially: the formulas are stated in runtime/include/dualrate/schemes/mrabm4.hpp and
// written here again, independently, on plain vectors. Per macro step k the slow job k + 1
// runs after the fast ticks of macro step k (the sequential executive's order).
//
// In T = double it is the reference core's run; in T = float, restarted from what a float
// build's tasks keep, verify's exact step check of the task forms. Either way every operation
// is the runtime's, in its order and in T: the formulas (formulas.hpp), the interpolation
// S + w (E - S) with w = j / r, H = h r, B' = A' + (B - A); the times where the model reads t
// in Time (double, as the runtime's Time holds them), t_{n+1} = (n + 1) h and t_k = k H with h
// and H in T.
// With `jumped` (whether the sample of tick n stepped from tick n - 1's, by the model's
// input_jumps in T) it restarts as the runtime does at a step: RK4 from the step's tick to
// tick (ceil(n / r) + 4) r, the slow jobs of those macro steps taking x_r from it.
// With `compensated` slow states it adds their corrections as dualrate::CompensatedSum does,
// x + (dx - c) with the carry c = (s - x) - y, the carries kept after history()'s other entries.
// In T = Time = CountedScalar (ir/counted_arithmetic.hpp) it counts the runtime's arithmetic of
// a macro step: each formula above as written, the stage times in Time as the runtime's.
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "ir/counted_arithmetic.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

template <class T, class Time = double>
class DualRateAdamsIn {
 public:
  using Vector = std::vector<T>;
  // dx/dt at t with the inputs sampled at input_tick (TickRhs in T).
  using Rhs = std::function<void(long input_tick, Time t, const Vector& x, Vector& dxdt)>;
  // f_e and f_r: of dx/dt, the fast task reads the fast rows, the slow job the slow rows (each
  // may write all rows).
  struct Rates {
    Rhs fast, slow;
  };
  // One RK4 step of the whole state from tick i, inputs held (the start-up, StartStep in T).
  using Start = std::function<Vector(long i, const Vector& x)>;
  using Jumped = std::function<bool(long tick)>;
  // Called before each fast tick n with the fast task's state [x_r; x_e] at t_n (the runtime's
  // DualRate::state()).
  using Tick = std::function<void(long tick, const Vector& x)>;
  DualRateAdamsIn(bool parallel, std::size_t slow, T h, int ratio, Rates rates, Start start, Jumped jumped = nullptr,
                  Tick tick = nullptr, const std::vector<bool>& compensated = {});

  // Advances x = [x_r(t_k); x_e(t_k)] from tick i = k r to t_{k+1} (r ticks); x at tick 0
  // is the initial state.
  void advance(long i, Vector& x);

  // Every vector the fast ticks and the slow job keep between macro steps, concatenated.
  // After the start-up (advance() from tick kStartupMacroSteps r on) one macro step of a
  // linear, time-invariant system is a linear map of it: the linear stability analysis
  // builds that map column by column with set_history().
  Vector history() const;
  void set_history(const Vector& all);
  // set_history() at any macro step, the start-up's included (verify's local check restarts
  // the run from what the generated tasks keep: dualrate::Mrabm4::kept, in history()'s order).
  // Throws std::invalid_argument when `all` is no such vector for this split. The next
  // advance() finds the restart in effect from the steps of the 5 r ticks before it.
  void restore(const Vector& all);
  // What each entry of history() is: a value of state `state`, or its derivative; `compared`
  // marks the entries advance() returns as the state (x_r from the slow task, x_e carried).
  using Kept = StepMapEntry;
  std::vector<Kept> history_layout() const;
  static constexpr long kStartupMacroSteps = 4;

 private:
  struct Ends {
    Vector first_start, first_end, start, end;
  };
  void fast_tick(long n);
  void slow_job(long k);
  // x_r += dx, the compensated states with their carries.
  void add_correction(const Vector& dx);
  // The tick from which the fast task runs Adams rounds, with tick n's sample taken into account.
  long adams_from(long n) const;
  void substep(long n, Time t, const Vector& xr, Vector& xe, std::array<Vector, 4>& g) const;
  Vector part(const Vector& x, bool fast) const;
  Vector slow_rate(long k, Time t, const Vector& xr, const Vector& xe) const;

  // Pointers to the vectors history() concatenates (const or not with `self`).
  template <class Self>
  static auto kept(Self& self);
  bool parallel_;
  std::size_t slow_;
  T h_;
  int ratio_;
  Rates rates_;
  Start start_;
  Jumped jumped_;
  Tick tick_;
  long adams_from_ = 0;                // fast task: ticks before it integrate with RK4
  bool restored_ = false;              // adams_from_ to be found at the next advance()
  Vector x_;                           // fast task: [last interpolated x_r; carried x_e] (whole state in start-up)
  Vector xe_first_;                    // fast task: round-1 fast state
  std::array<Vector, 4> g_, g_first_;  // fast derivative histories, newest first
  Ends ends_;                          // fast task: end points of the current macro step
  Ends next_;                          // slow task: end points of the next macro step
  Vector xr_, predicted_;              // slow task
  std::array<Vector, 4> f_slow_;       // slow derivative history, newest first
  std::vector<bool> compensated_;      // per slow state; empty: none
  Vector carry_;                       // slow task: the compensated sums' carries (empty: none)
};

extern template class DualRateAdamsIn<double>;
extern template class DualRateAdamsIn<float>;
extern template class DualRateAdamsIn<CountedScalar, CountedScalar>;
using DualRateAdams = DualRateAdamsIn<double>;

}  // namespace dualrate
