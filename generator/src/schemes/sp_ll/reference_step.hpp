// The reference core's side of seed 000's SP-LL scheme: the paper's procedure transcribed
// plainly (block exponentials at every step), its constants computed the reference core's way,
// and the runtime's formulas in dense double for scheduled constants.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <vector>

#include "ir/linear_map.hpp"
#include "reference/reference_model.hpp"
#include "schemes/sp_ll/blocks.hpp"

namespace dualrate {

// One step of the paper's procedure (steps 1-3) for x' = f(x), split after `slow` states,
// with block-matrix exponentials of eqs. 34 and 47 computed at run time and the blocks
// supplied by `linearize` at (t_n, x_n). With `held` inputs (their rates not empty: the
// polynomials rhs evaluates over the step) the linearization takes g_u (u(t) - u_n) as well:
// the manifold moves by g_z^-1 g_u (u(t) - u_n), and y = z - H gains the forcing
// g_z^-1 g_u u'(t) in eq. 34's W (its rate at t_n, as gamma is taken there) and in eq. 47's
// B and C (exactly, u' being linear).
using Linearize = std::function<SpLlBlocks(double t, const std::vector<double>& x)>;
using SplitRhs = std::function<void(double t, const std::vector<double>& x, std::vector<double>& dxdt)>;
std::vector<double> sp_ll_reference_step(const SplitRhs& rhs, const Linearize& linearize, std::size_t slow, double t,
                                         double h, const std::vector<double>& x, const HeldInputs<double>& held = {});

// The constants of sp_ll_constants (the same names, without structure) computed the reference
// core's way: g_z^-1 g_x and A by solves with g_z, the phi-functions of h g_z from the block
// exponential of eq. 34 (p1 its block (0, 1), eq. 43's g_z^-1 (F_2 - I) without the
// cancellation of F_2 - I, which loses far more than a double rounding on a stiff fast block:
// docs/schemes.md; p2 its J_1 block of eq. 44 for gamma = I) and
// those of h A from eq. 47's (forcing B = I, then C = I): verify's exact step check confirms
// the generated code's constants with these (schemes/sp_ll/runtime_step.hpp). With g_u (held
// inputs) also ku = g_z^-1 g_u, by a solve.
std::vector<NamedMatrix> sp_ll_reference_constants(const SpLlBlocks& blocks, double h);

// The runtime's step (sp_ll_step, step_formula.hpp) in dense double with the given constants
// (sp_ll_constants' names): the reference core's step for scheduled constants, which it
// interpolates at each step's start as generated code does.
std::vector<double> sp_ll_constants_step(const SplitRhs& rhs, const std::vector<NamedMatrix>& constants,
                                         std::size_t slow, double t, double h, const std::vector<double>& x);

}  // namespace dualrate
