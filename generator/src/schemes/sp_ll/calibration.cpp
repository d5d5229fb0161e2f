#include "schemes/sp_ll/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <dualrate/expm.hpp>

#include "model/tunable.hpp"
#include "numeric/calibrated_jacobian.hpp"
#include "numeric/decompositions.hpp"

namespace dualrate {

using Eigen::MatrixXd;

namespace {

// The exponentials' plan: the largest ||.||_1 of the augmented matrices of h g_z and h A over
// the calibration box's points (tunable_box_points), doubled because the norm need not be
// largest at a point of the grid; generated code refuses a calibration beyond it (checked_phi_blocks).
expm::Plan exponential_plan(const Model& m, const std::vector<std::vector<GiNaC::ex>>& blocks,
                            const std::vector<JacobianBlock>& shapes, double h) {
  double largest = h;
  for (const TunablePoint& p : tunable_box_points(m)) {
    const GiNaC::exmap values = parameter_values_at(m, p);
    const auto block = [&](std::size_t b) {
      return evaluate_block(blocks[b], shapes[b].rows, shapes[b].cols, values);
    };
    const MatrixXd gz = block(0), gx = block(1), fz = block(2);
    if (!FullPivotLu(gz).invertible())
      throw ModelError(calibration_range_loc(m),
                       "sp_ll needs an invertible g_z, but g_z is singular at a point of the calibration range",
                       "narrow the tunable parameters' ranges");
    const MatrixXd a = gz + partial_pivot_inverse(gz) * gx * fz;
    largest = std::max({largest, h * gz.cwiseAbs().colwise().sum().maxCoeff(),
                        h * a.cwiseAbs().colwise().sum().maxCoeff()});
  }
  return expm::plan<double>(2 * largest);
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
  return {evaluate("gz", 0),
          evaluate("gx", 1),
          evaluate("fz", 2),
          {K::kInverse, {"gz_inv"}, {"gz"}},
          {K::kProduct, {"k"}, {"gz_inv", "gx"}},
          {K::kProduct, {"k_fz"}, {"k", "fz"}},
          {K::kSum, {"a"}, {"gz", "k_fz"}},
          phi({"e_gz", "p1", "p2"}, "gz"),
          phi({"e_a", "q1", "q2"}, "a")};
}

}  // namespace dualrate
