#include "schemes/sp_ll/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>

#include <dualrate/expm.hpp>

#include "model/tunable.hpp"
#include "numeric/calibrated_jacobian.hpp"
#include "numeric/decompositions.hpp"
#include "numeric/interval.hpp"
#include "numeric/linearization.hpp"

namespace dualrate {

using Eigen::MatrixXd;

namespace {

// The norms of the augmented matrices of h g_z and h A (A = g_z + g_z^-1 g_x f_z) in a box of
// the tunable values: a proven upper bound (numeric/interval.hpp), ||A||_1 <= ||g_z||_1 +
// ||g_z^-1||_1 ||g_x||_1 ||f_z||_1 with ||g_z^-1||_1 bounded by inverse_norm_bound, which proves
// g_z invertible in the box; and their value at its middle. nullopt where g_z's inverse cannot
// be bounded in the box.
std::optional<BoxBound> exponential_norms_in(const Model& m, const std::vector<std::vector<GiNaC::ex>>& blocks,
                                             const std::vector<JacobianBlock>& shapes, double h,
                                             const TunableBox& box) {
  const IntervalMap at = parameter_intervals(m, box);
  const auto block = [&](std::size_t b) { return bound_block(blocks[b], shapes[b].rows, shapes[b].cols, at); };
  const IntervalMatrix gz = block(0), gx = block(1), fz = block(2);
  const std::optional<double> inverse = inverse_norm_bound(gz);
  if (!inverse) return std::nullopt;
  const double rounding = 1 + 8 * std::numeric_limits<double>::epsilon();
  const double a = (norm_bound(gz) + *inverse * norm_bound(gx) * norm_bound(fz)) * rounding;
  TunablePoint middle;
  for (const auto& [name, range] : box) middle[name] = range.middle();
  const GiNaC::exmap values = parameter_values_at(m, middle);
  const MatrixXd gz_m = evaluate_block(blocks[0], shapes[0].rows, shapes[0].cols, values);
  const MatrixXd a_m = gz_m + partial_pivot_inverse(gz_m) *
                                  evaluate_block(blocks[1], shapes[1].rows, shapes[1].cols, values) *
                                  evaluate_block(blocks[2], shapes[2].rows, shapes[2].cols, values);
  return BoxBound{h * std::max(norm_bound(gz), a) * rounding,
                  h * std::max(gz_m.cwiseAbs().colwise().sum().maxCoeff(), a_m.cwiseAbs().colwise().sum().maxCoeff())};
}

// The exponentials' plan: from the largest proven bound of those norms over the whole box of
// tunable values (and h, the augmented matrices' other columns), so that generated code takes the
// same degree and squarings for every write within the range.
expm::Plan exponential_plan(const Model& m, const std::vector<std::vector<GiNaC::ex>>& blocks,
                            const std::vector<JacobianBlock>& shapes, double h) {
  const std::optional<double> largest = bound_over_box(
      tunable_box(m), [&](const TunableBox& box) { return exponential_norms_in(m, blocks, shapes, h, box); });
  if (!largest)
    throw ModelError(calibration_range_loc(m),
                     "sp_ll needs g_z invertible at every point of the calibration range, which its bounds over the "
                     "range cannot prove (g_z may be singular within it)",
                     "narrow the tunable parameters' ranges");
  return expm::plan<double>(std::max(*largest, h));
}

}  // namespace

std::vector<RecomputeStep> sp_ll_calibration_steps(const Model& m, double h) {
  const GiNaC::matrix j = calibrated_jacobian(m);
  const std::size_t ns = m.slow_count, nf = m.fast_count();
  const std::vector<JacobianBlock> shapes = {{"g_z", ns, nf, ns, nf}, {"g_x", ns, nf, 0, ns}, {"f_z", 0, ns, ns, nf}};
  const GiNaC::exmap point = design_point(m);
  std::vector<std::vector<GiNaC::ex>> blocks;
  bool calibrated = false;
  for (const auto& b : shapes) {
    blocks.push_back(calibrated_block(m, j, b, point, "sp_ll"));
    calibrated = calibrated || follows_calibration(m, blocks.back());
  }
  std::vector<GiNaC::ex> gu;  // g_u of the held inputs (SpLlBlocks::gu), for a model with held inputs
  const std::size_t ni = m.inputs.size();
  if (m.holds_inputs()) {
    gu = calibrated_block(m, calibrated_jacobian(m, input_symbols(m)), {"g_u", ns, nf, 0, ni}, point, "sp_ll");
    for (std::size_t r = 0; r < nf; ++r)
      for (std::size_t k = 0; k < ni; ++k)
        if (m.inputs[k].hold == InputHold::kZero) gu[r * ni + k] = 0;
    calibrated = calibrated || follows_calibration(m, gu);
  }
  if (!calibrated) return {};
  const expm::Plan plan = exponential_plan(m, blocks, shapes, h);
  if (!plan.valid())
    throw ModelError(calibration_range_loc(m), "sp_ll's exponentials cannot be planned over the calibration range",
                     "narrow the tunable parameters' ranges or take a smaller step");
  using K = RecomputeStep::Kind;
  const auto evaluate = [&](const char* name, std::size_t b) {
    return RecomputeStep{K::kEvaluate, {name}, {}, static_cast<long>(shapes[b].rows), static_cast<long>(shapes[b].cols),
                         blocks[b]};
  };
  const auto phi = [&](std::vector<std::string> out, const char* z) {
    return RecomputeStep{K::kPhiBlocks, std::move(out), {z}, 0, 0, {}, h, plan.degree, plan.squarings};
  };
  std::vector<RecomputeStep> steps = {evaluate("gz", 0),
                                      evaluate("gx", 1),
                                      evaluate("fz", 2),
                                      {K::kInverse, {"gz_inv"}, {"gz"}},
                                      {K::kProduct, {"k"}, {"gz_inv", "gx"}},
                                      {K::kProduct, {"k_fz"}, {"k", "fz"}},
                                      {K::kSum, {"a"}, {"gz", "k_fz"}},
                                      phi({"e_gz", "p1", "p2"}, "gz"),
                                      phi({"e_a", "q1", "q2"}, "a")};
  if (!gu.empty()) {
    steps.insert(steps.begin() + 5, {K::kEvaluate, {"gu"}, {}, static_cast<long>(nf), static_cast<long>(ni), gu});
    steps.insert(steps.begin() + 6, {K::kProduct, {"ku"}, {"gz_inv", "gu"}});
  }
  return steps;
}

}  // namespace dualrate
