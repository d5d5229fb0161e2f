// The tolerance a verify run is held to: the derivation, the bounds and the step-map tolerance of one run.
#include "verify/tolerance.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/stability.hpp"
#include "numeric/decompositions.hpp"
#include "registry/registry.hpp"

namespace dualrate {

// Tolerances.
// double: generated code and reference core run the same scheme in double and differ only
//   in rounding (operation order inside expressions: compiled emission vs tree
//   interpretation; for sp_ll also precomputed phi-functions vs per-step exponentials).
//   The acceptance bound is the scheme's (1e-12, 1e-10 for sp_ll; issues #2, #3). Per step each side commits
//   relative errors of a few units of u = 2^-53 per operation; in a stable run these add
//   up like a random walk, about sqrt(N)*c*u = 1e-14 for N = 1e4 steps and c = 100.
// float: the generated side rounds every operation to u_f = 2^-24 while the reference
//   stays in double. Per step, each of the (stages + 2) roundings of a stage input, the
//   update and the stored state perturbs the state by up to u_f relative to its scale, and
//   a perturbed stage input moves the step's result by up to h ||J|| times as much (J the
//   Jacobian of the right-hand side; its value at the initial state stands for the run).
//   A first-order bound for a stable, non-expansive step map adds these over the N steps:
//   (N + 1) * (stages + 2) * u_f * (1 + h ||J||_inf). It is a worst case (errors of
//   opposite sign do not cancel in it) and does not cover growth by unstable modes; such a
//   run fails and says so. It is used where there is no one-step map to carry the rounding
//   through (step_map_tolerance).
// float, from the step map: the generated state after N steps is off by
//   e_N = sum_k Phi^(N-k) delta_k, the roundings delta_k of step k carried through the
//   scheme's one-step map Phi (for the Jacobian at the initial state) instead of being added
//   up as if every step passed them on undamped. Two kinds of rounding, per state:
//   - the operations of a step: at most d = (stages + 2) u_f (X + |h J| X) componentwise (X_i
//     the largest |x_i| of the reference run; a stage's rounding is relative to the terms it
//     adds, each J_ij x_j at most, |h J| entrywise). Modelled, as in Higham and Mary's
//     probabilistic rounding error analysis (SIAM J. Sci. Comput. 41, 2019), as independent
//     and of mean zero from step to step and state to state, Hoeffding's inequality bounds
//     component i by lambda sqrt(sum_k (Phi^k o Phi^k) (d o d))_i except with probability
//     2 exp(-lambda^2 / 2) = 4.6e-11 for lambda = 7 (kRoundingLambda): errors of either sign
//     partly cancel over N steps, about sqrt(N) instead of N for an undamped mode;
//   - the constants, rounded to float once and so the same in every step (no cancellation;
//     summed in absolute value, sum_k |Phi^k| d_s): the step h and the scheme's own
//     coefficients move a step's increment (Phi - I) x by u_f each, twice 2 u_f |Phi - I| X
//     (where they are h and one factor of the whole increment, VerifyPolicy::
//     step_scaled_constants, u_f (|h d step/dh| + |step - x|) from the reference core's steps
//     along the run: |Phi - I| X is a worst case over each row's terms, which on a stiff
//     spring cancel), and a parameter p_j moves the derivative by |df/dp_j p_j| u_f, over a
//     step h u_f P with P_i = max over the reference rows of sum_j |df_i/dp_j p_j| (a table's
//     value counted as a parameter: ReferenceModel::parameter_rates). The same rounding of
//     f_j in a stage moves the next stage's input x_j by h u_f P_j and so state i's step by
//     h |J_ij| h u_f P_j: over a step h u_f (P + |h J| P). On a trimmed airframe the moment's
//     table terms cancel in q' and q carries their rounding into a filtered q_f.
//   A compensated state (dualrate/compensated_sum.hpp) carries its value's rounding into the
//   next step: its d has no u_f X term, its increment's (stages + 2) roundings u_f |x' - x|
//   (|x' - x| from the reference core's steps), which a constant input repeats every step, are
//   counted as the constants', and u_f X is added once (what it holds is its sum rounded once).
//   The inputs are no rounding of this kind: the reference samples them as the float build
//   does (RunOptions::float_time). The tolerance is max_i (bound_i / scale_i), scale_i the
//   comparison's (compare_traces). For mrabm4 and mrabm4_parallel Phi is the map of a macro
//   step on everything the tasks keep, derivative histories included, and d, d_s are those of
//   its r substeps (step_map_tolerance).
double verify_tolerance(ScalarType scalar, long steps, int stages, double h_norm_j, double double_tolerance) {
  if (scalar == ScalarType::kDouble) return double_tolerance;
  const double u = std::ldexp(1.0, -24);
  return static_cast<double>(steps + 1) * (stages + 2) * u * (1 + h_norm_j);
}

StepRounding step_rounding(const Eigen::VectorXd& magnitude, const Eigen::VectorXd& terms,
                           const Eigen::VectorXd& constants_share, const Eigen::VectorXd& parameter_step,
                           int roundings) {
  const double u = std::ldexp(1.0, -24);
  return {roundings * u * (magnitude + terms), u * (constants_share + parameter_step)};
}

Eigen::VectorXd increment_share(const Eigen::MatrixXd& step_map, const Eigen::VectorXd& magnitude) {
  const auto m = step_map.rows();
  return 2 * (step_map - Eigen::MatrixXd::Identity(m, m)).cwiseAbs() * magnitude;
}

double map_float_tolerance(const Eigen::MatrixXd& step_map, const std::vector<Eigen::Index>& compared,
                           const StepRounding& rounding, const Eigen::VectorXd& scale, long steps) {
  const auto n = static_cast<Eigen::Index>(compared.size());
  Eigen::MatrixXd rows = Eigen::MatrixXd::Zero(n, step_map.cols());  // the compared rows of Phi^k
  for (Eigen::Index i = 0; i < n; ++i) rows(i, compared[static_cast<std::size_t>(i)]) = 1;
  const Eigen::VectorXd d_squared = rounding.operations.cwiseAbs2();
  Eigen::VectorXd random = Eigen::VectorXd::Zero(n), systematic = Eigen::VectorXd::Zero(n);
  for (long k = 0; k <= steps; ++k) {
    random += rows.cwiseAbs2() * d_squared;
    systematic += rows.cwiseAbs() * rounding.constants;
    rows = rows * step_map;
  }
  Eigen::VectorXd once = Eigen::VectorXd::Zero(n);
  if (rounding.last.size() > 0)
    for (Eigen::Index i = 0; i < n; ++i) once[i] = rounding.last[compared[static_cast<std::size_t>(i)]];
  return (kRoundingLambda * random.cwiseSqrt() + systematic + once).cwiseQuotient(scale).maxCoeff();
}

namespace {

// The states of row r of `reference` (columns 1..n).
std::vector<double> row_state(const Trace& reference, std::size_t r, std::size_t n) {
  const auto& row = reference.rows[r];
  return {row.begin() + 1, row.begin() + 1 + static_cast<long>(n)};
}

// P_i = max over the sampled rows of `reference` of sum_j |df_i/dp_j p_j|: how much the rounding
// of the parameters to float moves state i's derivative, per unit u_f.
Eigen::VectorXd parameter_rate(const Model& model, const ReferenceCore& core, const Trace& reference) {
  const std::size_t n = model.states.size();
  Eigen::VectorXd result = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  for (const std::size_t r : sampled_rows(reference.rows.size())) {
    const double t = reference.rows[r][0];
    const std::vector<double> rates = core.parameter_rates(t, row_state(reference, r, n), core.inputs_at(t, true));
    result = result.cwiseMax(Eigen::Map<const Eigen::VectorXd>(rates.data(), result.size()));
  }
  return result;
}

// VerifyPolicy::step_scaled_constants: per state, the largest |h d step/dh| + |step - x| over the
// reference core's steps from the sampled rows of `reference` (d/dh by central differences at
// h (1 +- 1e-4): the step is a polynomial in h of the scheme's order for a smooth model, so
// their error is about 1e-8 of the derivative, and the differences' own rounding 1e-12 |x|);
// without `scaled`, the largest |step - x| alone (a scheme whose constants are for h only).
Eigen::VectorXd step_scaled_share(const ReferenceCore& core, const RunOptions& run, const Trace& reference,
                                  Eigen::Index n, bool scaled = true) {
  constexpr double kRelative = 1e-4;
  const double h = run.step;
  const auto step = core.single_step_of_length(run);
  Eigen::VectorXd result = Eigen::VectorXd::Zero(n);
  for (const std::size_t r : sampled_rows(reference.rows.size())) {
    const long i = std::lround(reference.rows[r][0] / h);
    const std::vector<double> start = row_state(reference, r, static_cast<std::size_t>(n));
    const auto at = [&](double length) {
      const std::vector<double> next = step(i, start, length);
      return Eigen::Map<const Eigen::VectorXd>(next.data(), n).eval();
    };
    const Eigen::VectorXd sensitivity =
        scaled ? ((at(h * (1 + kRelative)) - at(h * (1 - kRelative))) / (2 * kRelative)).eval()
               : Eigen::VectorXd::Zero(n).eval();
    const Eigen::VectorXd increment = at(h) - Eigen::Map<const Eigen::VectorXd>(start.data(), n);
    result = result.cwiseMax(sensitivity.cwiseAbs() + increment.cwiseAbs());
  }
  return result;
}

// VerifyPolicy::fast_states_solved: the terms a solved fast state's rounding is relative to,
// T_f = |g_z^-1| (|J_f,:| X + P_f) (J the model's Jacobian at the initial state, whatever
// the scheme analyses; `rate` P, the terms that carry a parameter, which covers those without
// a state, such as a load m g), and the slow states', which take the fast ones through f_z
// over the step, h |f_z| T_f; zero for other schemes. `analysed` is verify's Jacobian, the
// model's unless the scheme analyses another (SchemeHooks::analysed_jacobian).
Eigen::VectorXd solved_terms(const Model& model, const ReferenceCore& core, const GenerateRequest& generate,
                             const SchemeInfo* info, const Eigen::MatrixXd& analysed, const Eigen::VectorXd& magnitude,
                             const Eigen::VectorXd& rate) {
  const auto n = analysed.rows(), slow = static_cast<Eigen::Index>(model.slow_count), fast = n - slow;
  Eigen::VectorXd terms = Eigen::VectorXd::Zero(n);
  if (!info || !info->verify.fast_states_solved || fast <= 0) return terms;
  const Eigen::MatrixXd j =
      info->hooks.analysed_jacobian ? core.jacobian_at(0, core.initial_state(), core.inputs_at(0)) : analysed;
  const FullPivotLu gz(j.bottomRightCorner(fast, fast));
  if (!gz.invertible()) return terms;
  const Eigen::VectorXd derivative = j.cwiseAbs() * magnitude;
  terms.tail(fast) = gz.inverse().cwiseAbs() * (derivative.tail(fast) + rate.tail(fast));
  terms.head(slow) = generate.step * j.topRightCorner(slow, fast).cwiseAbs() * terms.tail(fast);
  return terms;
}

}  // namespace

std::optional<MapRounding> map_rounding(const Model& model, const ReferenceCore& core, const GenerateRequest& generate,
                                        const SchemeDesign& design, const RunOptions& run, const Eigen::MatrixXd& j,
                                        const Trace& reference, int evaluations) {
  const auto n = static_cast<Eigen::Index>(model.states.size());
  if (j.rows() != n || reference.rows.empty()) return std::nullopt;
  MapRounding r;
  try {
    r.map = one_step_map(generate.scheme, j, generate.step, model.slow_count, generate.ratio, design.options);
  } catch (const SchemeDesignError&) {
    return std::nullopt;
  }
  Eigen::VectorXd magnitude = Eigen::VectorXd::Zero(n);
  for (const auto& row : reference.rows)
    for (Eigen::Index i = 0; i < n; ++i)
      magnitude[i] = std::max(magnitude[i], std::fabs(row[static_cast<std::size_t>(i) + 1]));
  const Eigen::VectorXd rate = parameter_rate(model, core, reference);
  r.scale = magnitude.cwiseMax(1.0);
  const Eigen::VectorXd derivative = j.cwiseAbs() * magnitude;
  const SchemeInfo* info = find_scheme(generate.scheme);
  const Eigen::VectorXd solved = solved_terms(model, core, generate, info, j, magnitude, rate);
  const StepMapLayout layout = step_map_layout(generate.scheme, j, generate.step, model.slow_count, generate.ratio);
  r.substeps = layout.substeps;
  const auto m = static_cast<Eigen::Index>(layout.entries.size());
  if (r.map.rows() != m) return std::nullopt;
  const double big = generate.step * r.substeps;
  Eigen::VectorXd entry(m), terms(m), parameter_step(m);
  r.compared.assign(static_cast<std::size_t>(n), -1);
  for (Eigen::Index e = 0; e < m; ++e) {
    const auto& kept = layout.entries[static_cast<std::size_t>(e)];
    const auto i = static_cast<Eigen::Index>(kept.state);
    entry[e] = kept.derivative ? derivative[i] : magnitude[i];
    terms[e] = kept.derivative ? 0.0 : big * derivative[i] + solved[i];
    parameter_step[e] = kept.derivative ? rate[i] : big * rate[i];
    parameter_step[e] += (kept.derivative ? 1.0 : big) * big * j.row(i).cwiseAbs().dot(rate);
    if (kept.compared) r.compared[kept.state] = e;
  }
  if (std::find(r.compared.begin(), r.compared.end(), -1) != r.compared.end()) return std::nullopt;
  Eigen::VectorXd constants_share = increment_share(r.map, entry);
  const int roundings = r.substeps * (evaluations + 2);
  // Dual-rate task forms: their compensated slow sums' roundings are bounded as plain ones (the
  // step's share of the increments is a single step's, which the task forms do not have).
  const bool compensated = !run.compensated.empty() && !(info && info->traits.dual_rate);
  const bool scaled = info && info->verify.step_scaled_constants;
  Eigen::VectorXd last = Eigen::VectorXd::Zero(m);
  if (scaled || compensated) {
    const Eigen::VectorXd share = step_scaled_share(core, run, reference, n, scaled);
    for (Eigen::Index e = 0; e < m; ++e) {
      const auto& kept = layout.entries[static_cast<std::size_t>(e)];
      const auto i = static_cast<Eigen::Index>(kept.state);
      if (!kept.derivative && scaled) constants_share[e] = share[i];
      // A compensated state: its value's rounding is carried (held once, `last`); what its steps
      // add up is the roundings of its increment, which the same input (a constant current) repeats
      // every step: roundings u_f |x' - x| of them counted as the constants' (share >= |x' - x|).
      if (!kept.derivative && compensated && run.compensated[kept.state]) {
        constants_share[e] += roundings * share[i];
        entry[e] = 0;
        last[e] = std::ldexp(1.0, -24) * magnitude[i];
      }
    }
  }
  r.rounding = step_rounding(entry, terms, constants_share, parameter_step, roundings);
  if (compensated) r.rounding.last = std::move(last);
  return r;
}

std::vector<std::size_t> sampled_rows(std::size_t rows) {
  const std::size_t stride = (rows + kSampledRows - 1) / kSampledRows;
  std::vector<std::size_t> sampled;
  for (std::size_t r = 0; r < rows; r += stride) sampled.push_back(r);
  if (rows > 0 && sampled.back() != rows - 1) sampled.push_back(rows - 1);
  return sampled;
}

std::optional<double> step_map_tolerance(const MapRounding& r, long steps) {
  if (steps % r.substeps != 0) return std::nullopt;
  return map_float_tolerance(r.map, r.compared, r.rounding, r.scale, steps / r.substeps);
}

LocalTolerance local_step_tolerance(const MapRounding& r) {
  const auto n = static_cast<Eigen::Index>(r.compared.size());
  LocalTolerance tolerance{Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (Eigen::Index state = 0; state < n; ++state) {
    const Eigen::Index e = r.compared[static_cast<std::size_t>(state)];
    tolerance.operations[state] = r.rounding.operations[e] / r.scale[state];
    tolerance.constants[state] = r.rounding.constants[e] / r.scale[state];
  }
  return tolerance;
}

}  // namespace dualrate
