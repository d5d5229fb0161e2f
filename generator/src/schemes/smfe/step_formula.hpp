// dualrate::Smfe::step (runtime/include/dualrate/schemes/smfe.hpp: seed 001's Algorithm 1,
// eqs. 12-13) written once for the generator, over an arithmetic A that says what its vectors,
// scalars and right-hand sides are. Its arithmetics: the runtime's in float or double
// (runtime_step.cpp: verify's exact step check), matrices on a linear plant and counted sizes
// (step_arithmetics.cpp: the macro-step map and the operation count). The paper's procedure in
// double is apart: smfe_reference_step.
//
// A provides the types Vector, Scalar (h_s's and D's) and Time (t's), and
//   Vector rate_at_start(Time t, const Vector& x): F(t, x) with the inputs sampled at t
//   Vector rate(Time t, const Vector& x): F(t, x) with the inputs as held at t
#pragma once

namespace dualrate {

// One macro step d from (t, x): n forward-Euler steps of hs (eq. 12), then one over the rest
// of d (eq. 13).
template <class A>
typename A::Vector smfe_step(A& a, typename A::Time t, typename A::Scalar d, typename A::Scalar hs, int n,
                             typename A::Vector x) {
  using Scalar = typename A::Scalar;
  using Time = typename A::Time;
  x += hs * a.rate_at_start(t, x);
  for (int i = 1; i < n; ++i) {
    const Time ti = t + Time(Scalar(i) * hs);
    x += hs * a.rate(ti, x);
  }
  const Scalar done = Scalar(n) * hs;
  x += (d - done) * a.rate(t + Time(done), x);
  return x;
}

}  // namespace dualrate
