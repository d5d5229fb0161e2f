// Constant matrices as emitted (linear_map.hpp): structure algebra, the nonzero terms and
// their cost, the emitted text, and sp_ll's constants on models with known structure.
#include <gtest/gtest.h>

#include "emit/constants.hpp"
#include "ir/linear_map.hpp"
#include "ir/op_count.hpp"
#include "registry/registry.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

Pattern pattern(std::initializer_list<std::initializer_list<int>> rows) {
  Pattern p(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index r = 0;
  for (const auto& row : rows) {
    Eigen::Index c = 0;
    for (int v : row) p(r, c++) = v != 0;
    ++r;
  }
  return p;
}

// M v from the emitted terms, summed in their order.
VectorXd apply(const LinearMap& m, const VectorXd& v) {
  VectorXd r = VectorXd::Zero(m.rows);
  for (Eigen::Index i = 0; i < m.rows; ++i)
    for (const auto& t : m.terms[static_cast<std::size_t>(i)]) r[i] += t.coefficient * v[t.column];
  return r;
}

TEST(Pattern, ClosureIsReachabilityIncludingTheDiagonal) {
  // 0 -> 1 -> 2 (entry (i, j): j feeds i), 3 alone.
  const Pattern a = pattern({{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}});
  const Pattern expected = pattern({{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 1, 1, 0}, {0, 0, 0, 1}});
  EXPECT_TRUE((pattern_closure(a) == expected).all());
  // A cycle fills its strongly connected block.
  const Pattern cycle = pattern({{0, 1}, {1, 0}});
  EXPECT_TRUE(pattern_closure(cycle).all());
}

TEST(Pattern, ProductAndSum) {
  const Pattern a = pattern({{1, 0}, {0, 1}, {1, 1}});
  const Pattern b = pattern({{0, 1, 0}, {0, 0, 1}});
  EXPECT_TRUE((pattern_product(a, b) == pattern({{0, 1, 0}, {0, 0, 1}, {0, 1, 1}})).all());
  EXPECT_TRUE((pattern_sum(pattern({{1, 0}}), pattern({{0, 0}})) == pattern({{1, 0}})).all());
  EXPECT_THROW(pattern_product(a, a), std::logic_error);
}

TEST(LinearMap, KeepsExactNonzerosPositiveFirstAndCountsWhatIsEmitted) {
  MatrixXd m(3, 3);
  m << 0, -2, 1,  //
      0, 0, 0,    //
      -1, 0, -0.5;
  const LinearMap map = linear_map({"m", m, "test"});
  ASSERT_EQ(map.terms.size(), 3u);
  ASSERT_EQ(map.terms[0].size(), 2u);
  EXPECT_EQ(map.terms[0][0].column, 2);  // +1 first, then -2
  EXPECT_EQ(map.terms[0][1].column, 1);
  EXPECT_TRUE(map.terms[1].empty());
  EXPECT_EQ(map.nonzeros(), 4);
  EXPECT_EQ(map.structural_nonzeros, 9);
  EXPECT_EQ(map.shape(), "sparse");
  // Row 0: v2 - 2 v1 (one add, one mul); row 2: -(v0 + 0.5 v2) (one add, one mul, one negation).
  const OpCount c = map.ops();
  EXPECT_EQ(c.add, 2);
  EXPECT_EQ(c.mul, 2);
  EXPECT_EQ(c.neg, 1);
  const VectorXd v = VectorXd::LinSpaced(3, 1, 3);
  EXPECT_EQ(apply(map, v), m * v);  // exact: at most two terms a row
  EXPECT_EQ(matrix_function(map),
            "  // test: 3 x 3, 4 nonzeros (sparse)\n"
            "  static Eigen::Matrix<Scalar, 3, 1> m(const Schedule& /*s_*/, const Eigen::Matrix<Scalar, 3, 1>& v_) "
            "noexcept {\n"
            "    Eigen::Matrix<Scalar, 3, 1> r_;\n"
            "    r_[0] = v_[2] - Scalar(2)*v_[1];\n"
            "    r_[1] = Scalar(0);\n"
            "    r_[2] = -(v_[0] + Scalar(0x1p-1)*v_[2]);\n"
            "    return r_;\n"
            "  }\n");
}

TEST(LinearMap, Shapes) {
  EXPECT_EQ(linear_map({"z", MatrixXd::Zero(2, 3), ""}).shape(), "zero");
  EXPECT_EQ(linear_map({"d", MatrixXd(Eigen::Vector3d(1, -2, 3).asDiagonal()), ""}).shape(), "diagonal");
  MatrixXd p = MatrixXd::Zero(3, 3);
  p(0, 2) = 2;
  p(1, 0) = -1;
  p(2, 1) = 4;
  EXPECT_EQ(linear_map({"p", p, ""}).shape(), "permutation");
  EXPECT_EQ(linear_map({"f", MatrixXd::Ones(2, 2), ""}).shape(), "dense");
  const LinearMap zero = linear_map({"z", MatrixXd::Zero(2, 3), ""});
  EXPECT_EQ(zero.ops().total(), 0);
  EXPECT_NE(matrix_function(zero).find("(const Schedule& /*s_*/, const Eigen::Matrix<Scalar, 3, 1>& /*v_*/)"),
            std::string::npos);
}

// Scheduled: the entries that differ between grid points are tabled (row by row) and read
// from the step's schedule, the ones equal at every point stay constants, an entry zero at
// every point is left out; each tabled entry costs a multiplication.
TEST(LinearMap, ScheduledEntriesAreTabledAndEqualOnesStayConstant) {
  MatrixXd a(2, 2), b(2, 2);
  a << 1, 0, 2, 3;
  b << 1, 0, 5, -3;
  NamedMatrix m{"m", a, "test"};
  m.scheduled = {a, b};
  const LinearMap map = linear_map(m);
  ASSERT_EQ(map.tables.size(), 2u);
  EXPECT_EQ(map.tables[0], (std::vector<double>{2, 5}));
  EXPECT_EQ(map.tables[1], (std::vector<double>{3, -3}));
  EXPECT_EQ(map.nonzeros(), 3);
  const OpCount c = map.ops();
  EXPECT_EQ(c.add, 1);
  EXPECT_EQ(c.mul, 2);
  EXPECT_EQ(matrix_function(map),
            "  // test: 2 x 2, 3 nonzeros (sparse; 2 of them scheduled)\n"
            "  static Eigen::Matrix<Scalar, 2, 1> m(const Schedule& s_, const Eigen::Matrix<Scalar, 2, 1>& v_) "
            "noexcept {\n"
            "    Eigen::Matrix<Scalar, 2, 1> r_;\n"
            "    r_[0] = v_[0];\n"
            "    r_[1] = s_.m[0]*v_[0] + s_.m[1]*v_[1];\n"
            "    return r_;\n"
            "  }\n");
}

// Rounding residue where the structure says zero is dropped and measured.
TEST(LinearMap, DropsResidueOutsideTheStructure) {
  MatrixXd m(2, 2);
  m << 1, 1e-19, 0, 2;
  const LinearMap map = linear_map({"m", m, "", pattern({{1, 0}, {1, 1}})});
  EXPECT_EQ(map.nonzeros(), 2);
  EXPECT_EQ(map.structural_nonzeros, 3);  // (1, 0) is allowed but exactly zero
  EXPECT_DOUBLE_EQ(map.dropped_residue, 1e-19 / 2);
}

// The actuated chain: g_z = -I/tau, g_x couples each actuator to its own mass, f_z feeds
// each force into its mass's velocity. Every sp_ll constant is diagonal or one block row
// per state, the structure says so before the numbers do, and the products equal the dense
// ones to rounding.
TEST(LinearMap, SpLlConstantsOfTheActuatedChainFollowItsStructure) {
  const Model m = test::load(test::source_path("models/actuated_chain.yaml"));
  const std::vector<NamedMatrix> constants = sp_ll_constants(sp_ll_blocks(m, false), 1e-3);
  const std::map<std::string, std::pair<std::string, long>> expected = {
      {"gz_inv", {"diagonal", 10}}, {"k", {"sparse", 20}},    {"fz", {"sparse", 10}},   {"a", {"diagonal", 10}},
      {"p1", {"diagonal", 10}},     {"p2", {"diagonal", 10}}, {"q1", {"diagonal", 10}}, {"q2", {"diagonal", 10}}};
  for (const NamedMatrix& c : constants) {
    const LinearMap map = linear_map(c);
    EXPECT_EQ(map.shape(), expected.at(c.name).first) << c.name;
    EXPECT_EQ(map.nonzeros(), expected.at(c.name).second) << c.name;
    EXPECT_EQ(map.structural_nonzeros, map.nonzeros()) << c.name;
    EXPECT_EQ(map.dropped_residue, 0) << c.name;
    const VectorXd v = VectorXd::LinSpaced(c.value.cols(), -1, 2);
    // At most two nonzeros a row: the same products and one addition as the dense sum, whose
    // other terms are exact zeros, so the two agree exactly.
    EXPECT_EQ(apply(map, v), c.value * v) << c.name;
  }
}

// A numeric zero inside the structure: frozen at the initial state x = 0, f_z = x is zero
// but not structurally; the map drops it and still says the structure allows it.
TEST(LinearMap, ExactZerosAreToldApartFromStructuralOnes) {
  const Model m = test::load(test::source_path("tests/models/schemes/frozen_zero_coupling.yaml"));
  const SpLlBlocks b = sp_ll_blocks(m, true);
  ASSERT_EQ(b.fz_structure.size(), 1);
  EXPECT_TRUE(b.fz_structure(0, 0));
  EXPECT_EQ(b.fz(0, 0), 0);
  for (const NamedMatrix& c : sp_ll_constants(b, 1e-3)) {
    const LinearMap map = linear_map(c);
    EXPECT_EQ(map.structural_nonzeros, 1) << c.name;
    EXPECT_EQ(map.nonzeros(), c.name == "fz" ? 0 : 1) << c.name;
  }
}

// The emitted sp_ll step of the chain costs a fraction of the dense one, and its bound
// (right-hand sides and products) is below its count.
TEST(LinearMap, SparseEmissionCutsTheChainsSpLlStep) {
  const Model m = test::load(test::source_path("models/actuated_chain.yaml"));
  GenerateRequest o{"sp_ll", 1e-3, 1, ScalarType::kDouble, "test"};
  const SchemeDesign design = precompute_scheme(m, o);
  const StepCost cost = step_cost(m, o, design);
  long saved = 0;  // against dense r x k products (r (k - 1) additions, r k multiplications)
  for (const NamedMatrix& c : design.matrices) {
    const long uses = c.name == "k" ? 10 : 1;  // as the runtime step applies them (sp_ll.cpp's cost)
    const long dense = c.value.rows() * (2 * c.value.cols() - 1);
    saved += uses * (dense - linear_map(c).ops().total());
  }
  EXPECT_GT(saved, 2 * cost.ops.total());
  EXPECT_LT(cost.bound.total(), cost.ops.total());
}

}  // namespace
}  // namespace dualrate
