// dualrate::Quasistatic::step (runtime/include/dualrate/schemes/quasistatic.hpp: seed 002's
// reduced form, eq. 3, integrated by RK4 with the fast states projected onto G = 0 at every
// stage, and Theorem 1's boundary-layer correction) written once for the generator, over an
// arithmetic A that says what its vectors, scalars, inputs and evaluations are. Its
// arithmetics: the runtime's in float or double (runtime_step.cpp: verify's exact step check)
// and counted sizes (step_cost.cpp: the operation count). The plain transcription in double is
// apart: quasistatic_reference_step.
//
// A provides the types Scalar (h's), Time (t's), Slow and Fast (the slow states x and the fast
// states z), Inputs (the inputs at a stage time), and
//   Inputs sample(Time t): the inputs sampled at the step's start t
//   Inputs inputs_at(Time t): the inputs as held at a stage time t
//   void project(Time t, const Inputs& u, const Slow& x, Fast& z): Newton's steps on G = 0
//   Slow reduced_slow(Time t, const Inputs& u, const Slow& x, const Fast& z): F(t, x, z)
//   Slow updated(const Slow& x, const Slow& dx): x + dx as the runtime's Sum adds it
//   bool boundary_layer(), Fast layer_transition(const Fast& eta): E eta
#pragma once

namespace dualrate {

// The step's counts and variant as the generated constants state them (C::newton_iterations,
// C::inverse_precomputed, C::boundary_layer).
struct QuasistaticStepConstants {
  int newton_iterations = 0;
  bool inverse_precomputed = false;  // Newton's steps with G_z^-1 precomputed, not G_z's LU
  bool boundary_layer = false;       // E eta added
};

// One step of h from (t, x, z), in place.
template <class A>
void quasistatic_step(A& a, typename A::Time t, typename A::Scalar h, typename A::Slow& x, typename A::Fast& z) {
  using Scalar = typename A::Scalar;
  using Time = typename A::Time;
  using Slow = typename A::Slow;
  using Fast = typename A::Fast;
  const Scalar half = h / Scalar(2);
  const Time mid = t + Time(half), end = t + Time(h);
  const typename A::Inputs u_start = a.sample(t);
  const typename A::Inputs u_mid = a.inputs_at(mid);
  const typename A::Inputs u_end = a.inputs_at(end);
  Fast z1 = z;
  a.project(t, u_start, x, z1);
  const Slow k1 = a.reduced_slow(t, u_start, x, z1);
  const Fast eta = z - z1;
  const Slow x2 = x + half * k1;
  Fast z2 = z1;
  a.project(mid, u_mid, x2, z2);
  const Slow k2 = a.reduced_slow(mid, u_mid, x2, z2);
  const Slow x3 = x + half * k2;
  Fast z3 = z2;
  a.project(mid, u_mid, x3, z3);
  const Slow k3 = a.reduced_slow(mid, u_mid, x3, z3);
  const Slow x4 = x + h * k3;
  Fast z4 = z3;
  a.project(end, u_end, x4, z4);
  const Slow k4 = a.reduced_slow(end, u_end, x4, z4);
  x = a.updated(x, Slow((h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4)));
  z = z4;
  a.project(end, u_end, x, z);
  if (a.boundary_layer()) z += a.layer_transition(eta);
}

}  // namespace dualrate
