// Seed 000's SP-LL scheme on the generator side: which Jacobian blocks it needs, whether
// they are constant (decided symbolically), the constant matrices the runtime step uses
// (runtime/include/dualrate/schemes/sp_ll.hpp), and the reference core's plain
// transcription of the paper's procedure.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

#include "ir/linear_map.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// The blocks of the Jacobian [[f_x, f_z], [g_x, g_z]] at a point, and the entries of f_z, g_x
// and g_z the model's equations allow to be nonzero (empty when not known).
struct SpLlBlocks {
  Eigen::MatrixXd fx, fz, gx, gz;
  Pattern fz_structure{}, gx_structure{}, gz_structure{};
};

// Splits a Jacobian after its first `slow` rows and columns.
SpLlBlocks split_jacobian(const Eigen::MatrixXd& j, std::size_t slow);

// e^{hZ}, h phi1(hZ), h^2 phi2(hZ) from one Van Loan exponential of
// h [[Z, I, 0], [0, 0, I], [0, 0, 0]].
void phi_blocks(const Eigen::MatrixXd& z, double h, Eigen::MatrixXd& e, Eigen::MatrixXd& p1, Eigen::MatrixXd& p2);

// Checks that the model suits sp_ll: it has slow and fast states, g_z is invertible, and
// f_z, g_x, g_z are constant unless `frozen` (then they are taken at the initial state).
// Throws ModelError naming the matrix and the symbols it depends on.
SpLlBlocks sp_ll_blocks(const Model& model, bool frozen);

// The constants of runtime's dualrate::SpLl for step h, with their structure when the
// blocks' is known.
std::vector<NamedMatrix> sp_ll_constants(const SpLlBlocks& blocks, double h);

// The map x_n -> x_{n+1} of one step of the runtime's formulas (above, as dualrate::SpLl
// computes them from sp_ll_constants) for the linear system dx/dt = J x split after `slow`
// states, computed for all n unit vectors at once: what the stability analysis needs, built
// in one pass instead of n reference steps with two block exponentials each.
Eigen::MatrixXd sp_ll_step_map(const Eigen::MatrixXd& j, std::size_t slow, double h);
// The same with given constants (scheduled: interpolated ones, not J's own).
Eigen::MatrixXd sp_ll_step_map_with(const std::vector<NamedMatrix>& constants, const Eigen::MatrixXd& j,
                                    std::size_t slow, double h);

// How much each of f_z, g_x, g_z varies along a trajectory, given the Jacobian at each of its
// samples, relative to its value at the first: max over samples of ||M - M_0||_F / ||M_0||_F.
std::vector<std::pair<std::string, double>> sp_ll_variation(const std::vector<Eigen::MatrixXd>& jacobians,
                                                            std::size_t slow);

// One step of the paper's procedure (steps 1-3) for x' = f(x), split after `slow` states,
// with block-matrix exponentials of eqs. 34 and 47 computed at run time and the blocks
// supplied by `linearize` at (t_n, x_n).
using Linearize = std::function<SpLlBlocks(double t, const std::vector<double>& x)>;
using SplitRhs = std::function<void(double t, const std::vector<double>& x, std::vector<double>& dxdt)>;
std::vector<double> sp_ll_reference_step(const SplitRhs& rhs, const Linearize& linearize, std::size_t slow, double t,
                                         double h, const std::vector<double>& x);

// The constants of sp_ll_constants (the same names, without structure) computed the reference
// core's way: g_z^-1 g_x and A by solves with g_z, the phi-functions of h g_z from the block
// exponential of eq. 34 (p1 = g_z^-1 (F_2 - I) of eq. 43, p2 its J_1 block of eq. 44 for
// gamma = I) and those of h A from eq. 47's (forcing B = I, then C = I): verify's exact step
// check confirms the generated code's constants with these (schemes/sp_ll/float_step.hpp).
std::vector<NamedMatrix> sp_ll_reference_constants(const SpLlBlocks& blocks, double h);

// One step of the runtime's formulas (runtime/include/dualrate/schemes/sp_ll.hpp) in dense
// double with the given constants (sp_ll_constants' names): the reference core's step for
// scheduled constants, which it interpolates at each step's start as generated code does.
std::vector<double> sp_ll_constants_step(const SplitRhs& rhs, const std::vector<NamedMatrix>& constants,
                                         std::size_t slow, double t, double h, const std::vector<double>& x);

// sp_ll's registry entry: constants for the step (sp_ll_constants), the reference step with
// the Jacobian blocks at each step's start (sp_ll_reference_step), the runtime step's cost.
SchemeInfo sp_ll_scheme();

}  // namespace dualrate
