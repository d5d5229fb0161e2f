// dualrate::SpLl::step (runtime/include/dualrate/schemes/sp_ll.hpp: seed 000's steps 1-3 with
// the constants precomputed, eqs. 40-47) written once for the generator, over an arithmetic A
// that says what its vectors, scalars and products with the constants are. Its arithmetics:
// the runtime's in float or double (runtime_step.cpp: verify's exact step check), dense double
// with constants interpolated by the reference core (reference_step.cpp: scheduled constants),
// matrices on a linear plant (sp_ll.cpp: the step map), and counted sizes (sp_ll.cpp: the
// operation count). The paper's procedure, with its exponentials at every step, is apart:
// sp_ll_reference_step.
//
// A provides the types Vector, Scalar (h's), Time (t's) and Input (the inputs at a time, as the
// step evaluates the model with them), and
//   Input input_sample(Time t), inputs_at(Time t): the inputs sampled at the step's start, and
//     (held inputs) their polynomials' value at t
//   Vector rate(const Input& u, const Vector& xs, const Vector& zs): dx/dt at [xs; zs]
//   Vector slow_rate(const Input& u, const Vector& xs, const Vector& zs): its slow rows
//   Vector slow_rows(const Vector& d), fast_rows(const Vector& d), fast_zero()
//   Vector product(SpLlConstant c, const Vector& v): the constant c times v
//   bool holds_inputs(); Vector input_rate(), input_curvature(): the held inputs' r and c
//   Vector update(xn, rk4, fz): the slow states' xn + rk4 + fz, as the runtime's Sum adds them
//   Vector stack(const Vector& xs, const Vector& zs): [xs; zs]
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace dualrate {

// The constants of sp_ll_constants by what they are; their names there are kSpLlConstantNames'.
enum class SpLlConstant { kGzInv, kK, kFz, kA, kP1, kP2, kQ1, kQ2, kKu };
inline constexpr std::array<const char*, 9> kSpLlConstantNames = {"gz_inv", "k",  "fz", "a", "p1",
                                                                  "p2",     "q1", "q2", "ku"};
inline std::string name_of(SpLlConstant c) { return kSpLlConstantNames.at(static_cast<std::size_t>(c)); }

// One step of size h from (t, [xn; zn]): [x_{n+1}; z_{n+1}].
template <class A>
typename A::Vector sp_ll_step(A& a, typename A::Time t, typename A::Scalar h, const typename A::Vector& xn,
                              const typename A::Vector& zn) {
  using Vector = typename A::Vector;
  using Scalar = typename A::Scalar;
  using Time = typename A::Time;
  using C = SpLlConstant;
  const Vector d = a.rate(a.input_sample(t), xn, zn);
  const Vector sigma = a.product(C::kGzInv, a.fast_rows(d));
  Vector gamma = a.product(C::kK, a.slow_rows(d));
  const bool held = a.holds_inputs();
  Vector input_rate = a.fast_zero(), input_curvature = a.fast_zero();  // K_u r, K_u c
  if (held) {
    input_rate = a.product(C::kKu, a.input_rate());
    input_curvature = a.product(C::kKu, a.input_curvature());
    gamma += input_rate;
  }
  const Vector integral_y = a.product(C::kP1, sigma) + a.product(C::kP2, gamma);

  const Scalar half = h / Scalar(2);
  const Time mid = t + Time(half), end = t + Time(h);
  const auto u_mid = a.inputs_at(mid), u_end = a.inputs_at(end);
  const Vector offset = zn - sigma + a.product(C::kK, xn);
  Vector shift_mid = a.fast_zero(), shift_end = a.fast_zero();
  if (held) {
    const Scalar s_mid = static_cast<Scalar>(mid - t), s_end = static_cast<Scalar>(end - t);
    shift_mid = s_mid * (input_rate + s_mid * input_curvature);
    shift_end = s_end * (input_rate + s_end * input_curvature);
  }
  const auto manifold = [&](const Vector& xs, const Vector& shift) -> Vector {
    if (held) return offset - a.product(C::kK, xs) - shift;
    return offset - a.product(C::kK, xs);
  };
  const auto slow_rate = [&](const auto& u, const Vector& xs, const Vector& shift) -> Vector {
    return a.slow_rate(u, xs, manifold(xs, shift));
  };
  const Vector k1 = slow_rate(a.input_sample(t), xn, a.fast_zero());
  const Vector k2 = slow_rate(u_mid, xn + half * k1, shift_mid);
  const Vector k3 = slow_rate(u_mid, xn + half * k2, shift_mid);
  const Vector k4 = slow_rate(u_end, xn + h * k3, shift_end);
  const Vector rk4 = (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4);
  const Vector x_next = a.update(xn, rk4, a.product(C::kFz, integral_y));

  const Vector f1 = slow_rate(u_end, x_next, shift_end);
  Vector b = a.product(C::kA, sigma) + a.product(C::kK, k1);
  Vector c = a.product(C::kK, f1 - k1) / h;
  if (held) {
    b += input_rate;
    c += Scalar(2) * input_curvature;
  }
  const Vector y_next = sigma + a.product(C::kQ1, b) + a.product(C::kQ2, c);
  return a.stack(x_next, manifold(x_next, shift_end) + y_next);
}

}  // namespace dualrate
