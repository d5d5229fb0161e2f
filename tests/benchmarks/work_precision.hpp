// Work-precision of our generated schemes against the integrators a user would pick instead,
// on one model's scenario (work_precision.cpp runs them; README "Work-precision").
//
// Inputs: the scenario's input signals sampled at t_s = s t_end / kSamples and held until
// t_{s+1}, for every method alike: our steps hold their inputs over each step (as the ECU task
// does), and with every step dividing the sample interval they all see the same piecewise-
// constant input, so the error measured is the integrator's, not the input sampling's. The
// peers integrate each sample interval as a user with sampled inputs would (the adaptive ones
// carrying their step size from one interval to the next and restarting where the inputs
// jump).
// Accuracy: the states at t_1 .. t_kSamples against a high-accuracy solution (Boost.Odeint's
// controlled Runge-Kutta-Fehlberg 7(8) at 1e-13 absolute and relative, per interval) as max over
// samples and states of |x_ij - ref_ij| / max(1, max_i |ref_ij|) (the normalization of
// `dualrate verify`). Beside it, the same against the high-accuracy solution with the inputs
// taken continuously (the scenario's signals at every evaluation's time): the error a user
// meets, which adds the sampling of the inputs to the integrator's own. Every method integrates the same generated
// right-hand side (Model::derivatives, double), which verify checks against the reference core's evaluator. Work: CPU
// time of one run over [0, t_end], measured by Google Benchmark in the same run for every method.
#pragma once

#include <dualrate/runtime.hpp>

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
#include <boost/numeric/odeint/stepper/rosenbrock4.hpp>
#include <boost/numeric/odeint/stepper/rosenbrock4_controller.hpp>

#include <algorithm>
#include <utility>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace work_precision {

constexpr int kSamples = 100;

// States at t_1 .. t_kSamples, one row each.
using Samples = std::vector<std::vector<double>>;

// A fixed-step method of ours or a peer, run over [0, t_end] at h = t_end / (kSamples m):
// fills `samples` when given; false on a fault (a non-finite state).
using FixedStep = std::function<bool(double t_end, long m, Samples* samples)>;
// An adaptive peer at absolute = relative tolerance; false also when it gives up.
using Adaptive = std::function<bool(double t_end, double tolerance, Samples* samples)>;

struct Case {
  std::string model;  // models/<model>.yaml
  // Fixed-step families, swept over m by work_precision.cpp.
  struct Family {
    std::string name;
    bool ours;
    FixedStep run;
    long first_m = 1;  // m = first_m 2^j (dual-rate: a multiple of the rate ratio)
  };
  std::vector<Family> families;
  // Methods of ours made for one m only (sp_ll: its constants depend on h).
  struct AtStep {
    std::string name;
    long m;
    FixedStep run;
  };
  std::vector<AtStep> at_step;
  struct Peer {
    std::string name;
    Adaptive run;
  };
  std::vector<Peer> adaptive;
  std::function<bool(double t_end, Samples* samples)> reference;
  std::function<bool(double t_end, Samples* samples)> continuous_reference;  // inputs taken continuously
};

std::vector<Case>& cases();
bool add_case(Case c);

namespace odeint = boost::numeric::odeint;

template <class M>
typename M::Input held_input(double t_end, long s) {
  return M::scenario_inputs(static_cast<typename M::Scalar>(t_end * static_cast<double>(s) / kSamples));
}

template <class M>
struct HeldRhs {
  typename M::Input u;
  void operator()(const typename M::State& x, typename M::State& dxdt, double t) const {
    M::derivatives(t, x, u, dxdt);
  }
};

template <class M>
void record(const typename M::State& x, Samples* samples) {
  if (samples) samples->emplace_back(x.data(), x.data() + x.size());
}

// Calls interval(a, b, u, jumped) for each sample interval [a, b] = [t_s, t_{s+1}] with its held
// inputs u; jumped: u differs from the previous interval's (false for the first). False as
// soon as interval() returns false.
template <class M, class Interval>
bool each_interval(double t_end, Interval interval) {
  typename M::Input held = held_input<M>(t_end, 0);
  for (long s = 0; s < kSamples; ++s) {
    const double a = t_end * static_cast<double>(s) / kSamples, b = t_end * static_cast<double>(s + 1) / kSamples;
    const typename M::Input u = held_input<M>(t_end, s);
    const bool jumped = u != held;
    held = u;
    if (!interval(a, b, u, jumped)) return false;
  }
  return true;
}

inline double step_of(double t_end, long m) { return t_end / (static_cast<double>(kSamples) * static_cast<double>(m)); }

// Ours: the generated step (the runtime's Scheme through dualrate::advance, which reports a
// non-finite state).
template <class M, class Scheme>
bool ours(double t_end, long m, Samples* samples) {
  const double h = step_of(t_end, m);
  dualrate::Data<M> d;
  for (long s = 0; s < kSamples; ++s) {
    const typename M::Input u = held_input<M>(t_end, s);
    for (long k = 0; k < m; ++k)
      if (dualrate::advance<Scheme>(d, h, u) != dualrate::Status::kOk) return false;
    record<M>(d.x, samples);
  }
  return true;
}

// Ours, dual-rate (mrabm4, mrabm4_parallel): the fast task every h and, right after it, each
// slow job it releases (run to completion; on the host nothing preempts it), H = kRatio h.
// Slow job k leaves the state at t_k = k H (DualRate::row), which gives the samples; the fast
// task at tick n holds the inputs of the sample interval that tick starts. m must be a
// multiple of kRatio. Unlike the one-step methods, the Adams correction of x_r(t_s) evaluates
// the slow rate at t_s with the inputs sampled there, which are the next interval's (and at
// t_end the scenario's value there): at an input's jump this costs an O(H du) error that is
// the scheme's own as the ECU task runs it.
template <class M, class Tasks>
bool dual_rate(double t_end, long m, Samples* samples) {
  if (m % Tasks::kRatio != 0) return false;
  const double h = step_of(t_end, m);
  Tasks tasks(h);
  const long ticks = kSamples * m;
  for (long n = 0; n <= ticks; ++n) {
    bool release = false;
    if (tasks.fast(held_input<M>(t_end, n / m), release) != dualrate::Status::kOk) return false;
    if (!release) continue;
    if (tasks.slow() != dualrate::Status::kOk) return false;
    if (n > 0 && n % m == 0) record<M>(tasks.row().x, samples);
  }
  return true;
}

template <class M>
using OdeintRk4 =
    odeint::runge_kutta4<typename M::State, double, typename M::State, double, odeint::vector_space_algebra>;

// Boost.Odeint's classical Runge-Kutta 4 at a fixed step.
template <class M>
bool odeint_rk4(double t_end, long m, Samples* samples) {
  const double h = step_of(t_end, m);
  OdeintRk4<M> stepper;
  typename M::State x = M::initial_state();
  long n = 0;
  for (long s = 0; s < kSamples; ++s) {
    const HeldRhs<M> rhs{held_input<M>(t_end, s)};
    for (long k = 0; k < m; ++k, ++n) stepper.do_step(rhs, x, static_cast<double>(n) * h, h);
    if (!x.allFinite()) return false;
    record<M>(x, samples);
  }
  return true;
}

// A controlled odeint stepper over each sample interval, restarted at an interval's start
// where the held inputs jump (make_stepper(): dopri5 would otherwise reuse the last
// derivative, of the previous input, as its first stage) with the step size carried across
// intervals: a step shortened to land on an interval's end does not shrink the next one (as
// odeint's integrate_times does it). make_system(u) is the system with the inputs u held.
template <class M, class MakeStepper, class State, class MakeSystem>
bool controlled(double t_end, MakeStepper make_stepper, State x, MakeSystem make_system, Samples* samples) {
  double dt = t_end / kSamples / 100;
  const auto finite = [&x] {
    for (std::size_t i = 0; i < static_cast<std::size_t>(x.size()); ++i)
      if (!std::isfinite(x[i])) return false;
    return true;
  };
  try {
    std::optional<decltype(make_stepper())> stepper;  // odeint's Rosenbrock controller cannot be assigned
    stepper.emplace(make_stepper());
    return each_interval<M>(t_end, [&](double a, double b, const typename M::Input& u, bool jumped) {
      if (jumped) stepper.emplace(make_stepper());
      const auto system = make_system(u);
      double t = a;
      while (b - t > 1e-12 * (b - a)) {  // a last step to b may land an ulp short of it
        const bool clipped = dt > b - t;
        double step = clipped ? b - t : dt;
        for (int tries = 0; stepper->try_step(system, x, t, step) == odeint::fail; ++tries)
          if (tries > 100 || !(step > 1e-14 * t_end)) return false;
        dt = clipped ? std::max(dt, step) : step;
      }
      if (!finite()) return false;
      if (samples) {
        samples->emplace_back();
        for (std::size_t i = 0; i < static_cast<std::size_t>(x.size()); ++i) samples->back().push_back(x[i]);
      }
      return true;
    });
  } catch (const odeint::odeint_error&) {
    return false;
  }
}

template <class M>
HeldRhs<M> held_rhs(const typename M::Input& u) {
  return {u};
}

// Boost.Odeint's Dormand-Prince 5(4) with step-size control (the algorithm of MATLAB's ode45).
template <class M>
bool odeint_dopri5(double t_end, double tolerance, Samples* samples) {
  using State = typename M::State;
  const auto make_stepper = [tolerance] {
    return odeint::make_controlled(
        tolerance, tolerance, odeint::runge_kutta_dopri5<State, double, State, double, odeint::vector_space_algebra>());
  };
  return controlled<M>(t_end, make_stepper, M::initial_state(), held_rhs<M>, samples);
}

// The high-accuracy solution: Runge-Kutta-Fehlberg 7(8) at 1e-13.
template <class M>
bool high_accuracy(double t_end, Samples* samples) {
  using State = typename M::State;
  const auto make_stepper = [] {
    return odeint::make_controlled(
        1e-13, 1e-13, odeint::runge_kutta_fehlberg78<State, double, State, double, odeint::vector_space_algebra>());
  };
  return controlled<M>(t_end, make_stepper, M::initial_state(), held_rhs<M>, samples);
}

// The high-accuracy solution with the scenario's inputs taken continuously: Runge-Kutta-Fehlberg
// 7(8) at 1e-13 over each sample interval [a, b], every evaluation at the signals' value at its
// time, and at b at their value just before it: a signal that switches at b (dc_motor's steps)
// switches for the next interval, as the sampled inputs do.
template <class M>
bool continuous_accuracy(double t_end, Samples* samples) {
  using State = typename M::State;
  auto stepper = odeint::make_controlled(
      1e-13, 1e-13, odeint::runge_kutta_fehlberg78<State, double, State, double, odeint::vector_space_algebra>());
  State x = M::initial_state();
  try {
    for (long s = 0; s < kSamples; ++s) {
      const double a = t_end * static_cast<double>(s) / kSamples, b = t_end * static_cast<double>(s + 1) / kSamples;
      const auto system = [a, b](const State& xs, State& dxdt, double t) {
        const double at = t < b ? t : std::nextafter(b, a);
        M::derivatives(t, xs, M::scenario_inputs(static_cast<typename M::Scalar>(at)), dxdt);
      };
      odeint::integrate_adaptive(stepper, system, x, a, b, (b - a) / 100);
      if (!x.allFinite()) return false;
      record<M>(x, samples);
    }
  } catch (const odeint::step_adjustment_error&) {
    return false;
  }
  return true;
}

// Boost.Odeint's rosenbrock4 (an L-stable fourth-order Rosenbrock method with an embedded
// third-order error estimate) with step-size control, on the generated Jacobian
// (Model::jacobian, generate --jacobian). It works on uBLAS vectors and matrices: each
// evaluation copies the state in and the rates or the Jacobian out.
template <class M>
bool odeint_rosenbrock4(double t_end, double tolerance, Samples* samples) {
  namespace ublas = boost::numeric::ublas;
  using Vector = ublas::vector<double>;
  using Matrix = ublas::matrix<double>;
  constexpr int n = M::kStates;
  Vector x(n);
  const typename M::State x0 = M::initial_state();
  for (int i = 0; i < n; ++i) x[i] = x0[i];
  const auto make_system = [](const typename M::Input& u) {
    const auto rates = [u](const Vector& xv, Vector& dxdt, double t) {
      typename M::State xs, d;
      for (int i = 0; i < n; ++i) xs[i] = xv[i];
      M::derivatives(t, xs, u, d);
      for (int i = 0; i < n; ++i) dxdt[i] = d[i];
    };
    const auto jacobian = [u](const Vector& xv, Matrix& j, const double& t, Vector& dfdt) {
      typename M::State xs, df;
      Eigen::Matrix<double, n, n> je;
      for (int i = 0; i < n; ++i) xs[i] = xv[i];
      M::jacobian(t, xs, u, je, df);
      for (int r = 0; r < n; ++r) {
        dfdt[r] = df[r];
        for (int c = 0; c < n; ++c) j(r, c) = je(r, c);
      }
    };
    return std::make_pair(rates, jacobian);
  };
  const auto make_stepper = [tolerance] {
    return odeint::rosenbrock4_controller<odeint::rosenbrock4<double>>(tolerance, tolerance);
  };
  return controlled<M>(t_end, make_stepper, x, make_system, samples);
}

// What every case has: our rk4 and Odeint's on the same model, dopri5, the reference.
template <class M, class Rk4Scheme>
void add_common(Case& c) {
  c.reference = high_accuracy<M>;
  c.continuous_reference = continuous_accuracy<M>;
  c.families.push_back({"rk4", true, ours<M, Rk4Scheme>});
  c.families.push_back({"odeint_rk4", false, odeint_rk4<M>});
  c.adaptive.push_back({"odeint_dopri5", odeint_dopri5<M>});
}

}  // namespace work_precision
