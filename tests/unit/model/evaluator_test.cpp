// EvaluatorSet (model/evaluator.hpp): many expressions evaluated as one, each shared
// subexpression once, with every value bit for bit its own Evaluator's.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "model/evaluator.hpp"
#include "numeric/linearization.hpp"
#include "reference/reference_model.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// The planar vehicle's Jacobian: its entries repeat the tire forces' definitions (the normal
// force, the slip's saturation) through the chain rule, with sqrt, min, max and abs.
TEST(EvaluatorSet, GivesEachEntryItsOwnEvaluatorsBitsWithSharedNodesOnce) {
  const Model m = test::load(test::source_path("models/planar_vehicle.yaml"));
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> slots;
  std::vector<double> values;
  // Off the initial state, so that the saturations and square roots are not at their kinks.
  slots[m.time] = 0;
  values.push_back(0.37);
  for (std::size_t i = 0; i < m.states.size(); ++i) {
    slots[m.states[i].symbol] = static_cast<int>(values.size());
    values.push_back(m.states[i].initial_value + 0.01 * static_cast<double>(i % 7) - 0.02);
  }
  for (const auto& u : m.inputs) {
    slots[u.symbol] = static_cast<int>(values.size());
    values.push_back(0.1);
  }
  for (const auto& p : m.parameters) {
    slots[p.symbol] = static_cast<int>(values.size());
    values.push_back(p.value);
  }
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  std::vector<GiNaC::ex> entries, last_row;
  for (unsigned r = 0; r < j.rows(); ++r)
    for (unsigned c = 0; c < j.cols(); ++c) entries.push_back(j(r, c));
  for (unsigned c = 0; c < j.cols(); ++c) last_row.push_back(j(j.rows() - 1, c));
  const EvaluatorSet set({entries, last_row}, slots);
  ASSERT_EQ(set.size(0), entries.size());
  ASSERT_EQ(set.size(1), last_row.size());
  // Scratch left from an earlier evaluation, as the caller reuses it.
  std::vector<double> scratch(set.scratch_size(), 1e300);
  std::vector<double> out(set.size(0)), row(set.size(1));
  set.evaluate(1, values.data(), scratch.data(), row.data());
  set.evaluate(0, values.data(), scratch.data(), out.data());
  int nonzero = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double own = Evaluator(entries[i], slots)(values.data());
    EXPECT_EQ(std::memcmp(&out[i], &own, sizeof own), 0) << "entry " << i << ": " << out[i] << " and " << own;
    nonzero += own != 0;
  }
  EXPECT_GT(nonzero, 100);
  for (std::size_t c = 0; c < last_row.size(); ++c)
    EXPECT_EQ(std::memcmp(&row[c], &out[entries.size() - last_row.size() + c], sizeof(double)), 0) << c;
  // The 784 entries (zeros and repeated constants among them) as fewer distinct nodes; the
  // last row's evaluation computes only the nodes it reaches, its shared ones among them.
  EXPECT_LT(set.nodes(0), entries.size());
  EXPECT_EQ(set.scratch_size(), set.nodes(0));
  EXPECT_LT(set.nodes(1), set.nodes(0));
}

// The reference core's fast block is the full Jacobian's trailing block, bit for bit.
TEST(EvaluatorSet, TheFastBlockIsTheJacobiansCorner) {
  const Model m = test::load(test::source_path("models/planar_vehicle.yaml"));
  const ReferenceModel core(m);
  std::vector<double> x = core.initial_state();
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += 1e-3 * static_cast<double>(i);
  const auto nf = static_cast<Eigen::Index>(m.fast_count());
  const Eigen::MatrixXd full = core.jacobian_at(0.2, x, core.inputs_at(0.2));
  const Eigen::MatrixXd block = core.trailing_jacobian_at(0.2, x, core.inputs_at(0.2), nf);
  EXPECT_TRUE((full.bottomRightCorner(nf, nf).array() == block.array()).all());
  EXPECT_FALSE(block.isZero(0));
}

}  // namespace
}  // namespace dualrate
