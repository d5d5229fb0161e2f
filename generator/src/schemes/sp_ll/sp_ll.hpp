// Seed 000's SP-LL scheme on the generator side: which Jacobian blocks it needs, whether
// they are constant (decided symbolically), the constant matrices the runtime step uses
// (runtime/include/dualrate/schemes/sp_ll.hpp); the reference core's plain transcription of
// the paper's procedure is reference_step.hpp, the runtime's step in float or double
// runtime_step.hpp.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

#include "ir/linear_map.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"
#include "schemes/sp_ll/blocks.hpp"
#include "schemes/sp_ll/reference_step.hpp"

namespace dualrate {

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

// The map x_n -> x_{n+1} of one step of the runtime's formulas (sp_ll_step, step_formula.hpp,
// with sp_ll_constants) for the linear system dx/dt = J x split after `slow` states, computed
// for all n unit vectors at once: what the stability analysis needs, built in one pass instead
// of n reference steps with two block exponentials each.
Eigen::MatrixXd sp_ll_step_map(const Eigen::MatrixXd& j, std::size_t slow, double h);
// The same with given constants (scheduled: interpolated ones, not J's own; the plant's rates
// are J's).
Eigen::MatrixXd sp_ll_step_map_with(const std::vector<NamedMatrix>& constants, const Eigen::MatrixXd& j,
                                    std::size_t slow, double h);

// How much each of f_z, g_x, g_z varies along a trajectory, given the Jacobian at each of its
// samples, relative to its value at the first: max over samples of ||M - M_0||_F / ||M_0||_F
// (where M_0 = 0: / max over samples of ||M||_F; 0 for a block that is 0 throughout).
std::vector<std::pair<std::string, double>> sp_ll_variation(const std::vector<Eigen::MatrixXd>& jacobians,
                                                            std::size_t slow);

// sp_ll's registry entry: constants for the step (sp_ll_constants), the reference step with
// the Jacobian blocks at each step's start (sp_ll_reference_step), the runtime step's cost.
SchemeInfo sp_ll_scheme();

}  // namespace dualrate
