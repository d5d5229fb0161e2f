#include "schemes/sp_ll/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <dualrate/expm.hpp>

#include "model/tunable.hpp"

namespace dualrate {

using Eigen::MatrixXd;

namespace {

// A block of the Jacobian: rows [row0, row0 + rows), columns [col0, col0 + cols).
struct Block {
  const char* name;
  std::size_t row0, rows, col0, cols;
};

// The entries of block b of the Jacobian at the point where the blocks are taken (t = 0, the
// initial state, the inputs there), in the calibrated parameters; throws when a tunable table
// reaches one (its values would stay those of the generation).
std::vector<GiNaC::ex> calibrated_block(const Model& m, const GiNaC::matrix& j, const Block& b,
                                        const GiNaC::exmap& point) {
  std::vector<GiNaC::ex> entries;
  for (std::size_t r = b.row0; r < b.row0 + b.rows; ++r)
    for (std::size_t c = b.col0; c < b.col0 + b.cols; ++c) {
      const GiNaC::ex e =
          j(static_cast<unsigned>(r), static_cast<unsigned>(c)).subs(point, GiNaC::subs_options::no_pattern);
      if (const Table* t = called_tunable_table(e))
        throw ModelError(t->range_loc,
                         fmt::format("sp_ll's {} depends on tunable table '{}' (through the equation of '{}'): "
                                     "generated code cannot recompute it on the target",
                                     b.name, t->name, m.states[r].name),
                         "make the table fixed, or use an explicit scheme (euler, rk2, rk4, prk25)");
      entries.push_back(e.evalf());
    }
  return entries;
}

// t = 0, the initial state and the inputs there.
GiNaC::exmap frozen_point(const Model& m) {
  GiNaC::exmap point;
  point[m.time] = GiNaC::numeric(0);
  for (const auto& x : m.states) point[x.symbol] = GiNaC::numeric(x.initial_value);
  for (std::size_t i = 0; i < m.inputs.size(); ++i)
    point[m.inputs[i].symbol] =
        m.input_signal(i).subs(m.parameter_values()).subs(GiNaC::lst{m.time}, GiNaC::lst{0}).evalf();
  return point;
}

MatrixXd evaluated(const std::vector<GiNaC::ex>& entries, const Block& b, const GiNaC::exmap& parameters) {
  MatrixXd out(b.rows, b.cols);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const GiNaC::ex v = entries[k].subs(parameters, GiNaC::subs_options::no_pattern).evalf();
    out(static_cast<Eigen::Index>(k / b.cols), static_cast<Eigen::Index>(k % b.cols)) =
        GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  }
  return out;
}

// The exponentials' plan: the largest ||.||_1 of the augmented matrices of h g_z and h A over
// the calibration box's points (tunable_box_points), doubled because the norm need not be
// largest at a corner; generated code refuses a calibration beyond it (checked_phi_blocks).
expm::Plan exponential_plan(const Model& m, const std::vector<std::vector<GiNaC::ex>>& blocks,
                            const std::vector<Block>& shapes, double h) {
  double largest = h;
  for (const TunablePoint& p : tunable_box_points(m)) {
    const GiNaC::exmap values = parameter_values_at(m, p);
    const MatrixXd gz = evaluated(blocks[0], shapes[0], values), gx = evaluated(blocks[1], shapes[1], values),
                   fz = evaluated(blocks[2], shapes[2], values);
    if (!Eigen::FullPivLU<MatrixXd>(gz).isInvertible())
      throw ModelError(m.parameters.front().loc, "sp_ll needs an invertible g_z, but g_z is singular at a point of "
                                                 "the calibration range",
                       "narrow the tunable parameters' ranges");
    const MatrixXd a = gz + gz.inverse() * gx * fz;
    largest = std::max({largest, h * gz.cwiseAbs().colwise().sum().maxCoeff(),
                        h * a.cwiseAbs().colwise().sum().maxCoeff()});
  }
  return expm::plan<double>(2 * largest);
}

// Calibration: the steps that recompute sp_ll's constants on the target when f_z, g_x or g_z
// depend on a tunable value (none when they do not).
}  // namespace

std::vector<RecomputeStep> sp_ll_calibration_steps(const Model& m, double h) {
  const GiNaC::exmap vars = m.variable_definitions(), fixed = fixed_parameter_values(m);
  std::vector<GiNaC::ex> rhs;
  for (const auto& x : m.states) rhs.push_back(x.rhs.subs(vars).subs(fixed));
  GiNaC::matrix j(static_cast<unsigned>(rhs.size()), static_cast<unsigned>(rhs.size()));
  for (unsigned r = 0; r < rhs.size(); ++r)
    for (unsigned c = 0; c < rhs.size(); ++c) j(r, c) = rhs[r].diff(GiNaC::ex_to<GiNaC::symbol>(m.states[c].symbol));
  const std::size_t ns = m.slow_count, nf = m.fast_count();
  const std::vector<Block> shapes = {{"g_z", ns, nf, ns, nf}, {"g_x", ns, nf, 0, ns}, {"f_z", 0, ns, ns, nf}};
  const GiNaC::exmap point = frozen_point(m);
  std::vector<std::vector<GiNaC::ex>> blocks;
  bool calibrated = false;
  for (const auto& b : shapes) {
    blocks.push_back(calibrated_block(m, j, b, point));
    for (const auto& e : blocks.back())
      for (const Parameter* p : calibrated_parameters(m)) calibrated = calibrated || e.has(p->symbol);
  }
  if (!calibrated) return {};
  const expm::Plan plan = exponential_plan(m, blocks, shapes, h);
  if (!plan.valid())
    throw ModelError(m.parameters.front().loc, "sp_ll's exponentials cannot be planned over the calibration range",
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
