// Seed 004's Adams schemes, transcribed plainly for the reference core (double, one
// corrector iteration, as in the paper's comparison). AdamsIntegrator runs them as the
// paper states them, the tracks meeting inside each macro step:
//   abm4             single-rate fourth-order Adams-Bashforth-Moulton PECE at step h on the
//                    whole state (the paper's reference for its comparison);
//   mrabm4_sync      serial multirate ABM4, Steps 1-11 (eqs. 9-16): the slow state is
//                    predicted over the macro step H = r h (AB4), the fast state takes r
//                    PECE substeps with the slow state interpolated linearly between x_r(t_k)
//                    and that prediction, then the slow state is corrected with the fast
//                    state at t_k + H;
//   mrabm4_parallel_sync  the two-track variant, eqs. 17-30: the slow track also evaluates its
//                    prediction with x_e(t_k) and corrects it (the preferred predictor
//                    PRED', eqs. 18-19) while the fast track takes a first round of r
//                    substeps towards PRED; the slow corrector (eqs. 20-22) then uses that
//                    round's x_e(t_k + H), while a second fast round, again from x_e(t_k),
//                    interpolates towards PRED' (eqs. 27-30) and gives x_e(t_k + H).
// Coefficients (eqs. 9-10, 12, 15): AB4 (55, -59, 37, -9)/24, AM4 (9, 19, -5, 1)/24.
// Derivatives are evaluated only at grid times t_i = i h, with the inputs sampled there.
// Start-up, as in the paper: classical RK4 at the fast step h on the whole state until
// the histories are filled (3 steps for abm4, 3 r for the multirate schemes), inputs held
// over each RK4 step.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "schemes/contract.hpp"

namespace dualrate {

// The registry entries: mrabm4 and mrabm4_parallel (generated, as dual-rate tasks), then
// abm4, mrabm4_sync and mrabm4_parallel_sync (the reference core's paper forms; abm4 is
// also analysed).
std::vector<SchemeInfo> adams_schemes();

enum class AdamsScheme { kAbm4, kMrabm4Sync, kMrabm4ParallelSync, kMrabm4, kMrabm4Parallel };

// The Adams scheme named `scheme`, or false when it is none of them.
bool adams_scheme(const std::string& scheme, AdamsScheme& out);
// mrabm4 and mrabm4_parallel: the dual-rate task forms (DualRateAdams).
bool task_form(AdamsScheme scheme);

class AdamsIntegrator {
 public:
  using Vector = std::vector<double>;
  // `slow`: the number of slow states, which come first in x; h the fast step; `ratio`:
  // r = H / h (1 for abm4).
  AdamsIntegrator(AdamsScheme scheme, std::size_t slow, double h, int ratio, GridRhs f, StartStep start);

  // Fast steps one advance() takes from grid index i: 1 during start-up and for abm4, else r.
  int stride(long i) const;
  // Advances x from grid index i by stride(i) fast steps.
  void advance(long i, Vector& x);
  // abm4 after the start-up (advance() from grid index startup_steps() on): what a step reads
  // besides x, the derivatives at t_i ... t_{i-3} concatenated. One step of a linear,
  // time-invariant system is a linear map of [x; this]: the stability analysis builds it
  // column by column with set_derivative_history().
  Vector derivative_history() const;
  void set_derivative_history(const Vector& v);
  int startup_steps() const { return startup_steps_; }

 private:
  // Fast PECE substeps from grid index i with the fast history `fe` (newest first), the
  // slow state interpolated linearly from xr0 (at i) to xr1 (at i + r).
  Vector fast_round(long i, const Vector& xr0, const Vector& xr1, Vector xe, std::array<Vector, 4>& fe) const;
  Vector full(const Vector& xr, const Vector& xe) const;
  Vector slow_part(const Vector& x) const;
  Vector fast_part(const Vector& x) const;

  AdamsScheme scheme_;
  std::size_t slow_;
  double h_;
  int ratio_;
  GridRhs f_;
  StartStep start_;
  int startup_steps_;             // RK4 steps before the Adams steps begin
  std::array<Vector, 4> f_hist_;  // abm4: f at t_i, t_i - h, ... (newest first)
  std::array<Vector, 4> fr_;      // slow derivatives at t_k, t_k - H, t_k - 2H, t_k - 3H
  std::array<Vector, 4> fe_;      // fast derivatives at t_k, t_k - h, t_k - 2h, t_k - 3h
};

}  // namespace dualrate
