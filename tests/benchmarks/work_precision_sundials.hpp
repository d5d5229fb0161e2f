// SUNDIALS peers of the work-precision program (work_precision.hpp), built when CMake finds
// SUNDIALS (libsundials-dev; scripts/deps installs it):
// - CVODE: variable-order BDF with Newton iterations on a dense direct linear solver, on the
//   generated Jacobian (Model::jacobian, generate --jacobian) where the model has one and on
//   CVODE's difference quotients where it does not (a mass matrix that depends on the
//   coordinates); adaptive, at absolute = relative tolerance.
// - ARKODE's MRIStep: the multirate infinitesimal method of order 4 (MRI-GARK-ERK45a, explicit
//   at the slow rate) on the model's split, the slow rate [f(x, z, u); 0] (Model::
//   slow_derivatives) at a fixed step H and the fast rate [0; g(x, z, u)] (Model::
//   fast_derivatives) integrated inside by ARKStep's explicit Runge-Kutta of order 4 at the
//   fixed step H / kRatio, the ratio of our dual-rate schemes. MRIStep takes only fixed slow
//   steps in this SUNDIALS (6.4).
// Both stop exactly at each sample interval's end and are restarted at the next one's start
// where the held inputs jump there (CVODE's documented treatment of a discontinuity:
// CVodeReInit, which estimates the first step and starts at order 1 again); where the inputs
// hold, they integrate on. Each run creates and frees its solver, as a user integrating a
// scenario once would.
#pragma once

#include <cvode/cvode.h>
#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_mristep.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <memory>

#include "work_precision.hpp"

namespace work_precision::sundials_peer {

struct ContextFree {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct VectorFree {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixFree {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct SolverFree {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct CvodeFree {
  void operator()(void* mem) const { CVodeFree(&mem); }
};
struct ArkStepFree {
  void operator()(void* mem) const { ARKStepFree(&mem); }
};
struct MriStepFree {
  void operator()(void* mem) const { MRIStepFree(&mem); }
};
struct InnerFree {
  void operator()(MRIStepInnerStepper s) const { MRIStepInnerStepper_Free(&s); }
};
using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorFree>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using Solver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, SolverFree>;
using Cvode = std::unique_ptr<void, CvodeFree>;
using ArkStep = std::unique_ptr<void, ArkStepFree>;
using MriStep = std::unique_ptr<void, MriStepFree>;
using Inner = std::unique_ptr<std::remove_pointer_t<MRIStepInnerStepper>, InnerFree>;

// SUNDIALS reports a failure through its return flags (checked); its messages are not printed.
inline void quiet(int, const char*, const char*, char*, void*) {}

inline Context context() {
  SUNContext c = nullptr;
  if (SUNContext_Create(nullptr, &c) != 0) return nullptr;
  return Context(c);
}

template <class M>
typename M::State state_of(N_Vector v) {
  return Eigen::Map<const typename M::State>(N_VGetArrayPointer(v));
}

// The model with the inputs of the current sample interval, as SUNDIALS' user data.
template <class M>
struct Held {
  typename M::Input u;

  static int rates(double t, N_Vector y, N_Vector ydot, void* data) {
    typename M::State d;
    M::derivatives(t, state_of<M>(y), static_cast<Held*>(data)->u, d);
    Eigen::Map<typename M::State>(N_VGetArrayPointer(ydot)) = d;
    return d.allFinite() ? 0 : 1;  // a positive flag: recoverable, SUNDIALS retries smaller
  }
  static int jacobian(double t, N_Vector y, N_Vector, SUNMatrix j, void* data, N_Vector, N_Vector, N_Vector) {
    Eigen::Matrix<double, M::kStates, M::kStates> je;
    typename M::State dfdt;
    M::jacobian(t, state_of<M>(y), static_cast<Held*>(data)->u, je, dfdt);
    Eigen::Map<Eigen::Matrix<double, M::kStates, M::kStates>>(SUNDenseMatrix_Data(j)) = je;  // column-major
    return je.allFinite() ? 0 : 1;
  }
  static int slow(double t, N_Vector y, N_Vector ydot, void* data) {
    typename M::SlowState d;
    M::slow_derivatives(t, state_of<M>(y), static_cast<Held*>(data)->u, d);
    Eigen::Map<typename M::State> out(N_VGetArrayPointer(ydot));
    out.template head<M::kSlow>() = d;
    out.template tail<M::kFast>().setZero();
    return d.allFinite() ? 0 : 1;
  }
  static int fast(double t, N_Vector y, N_Vector ydot, void* data) {
    typename M::FastState d;
    M::fast_derivatives(t, state_of<M>(y), static_cast<Held*>(data)->u, d);
    Eigen::Map<typename M::State> out(N_VGetArrayPointer(ydot));
    out.template head<M::kSlow>().setZero();
    out.template tail<M::kFast>() = d;
    return d.allFinite() ? 0 : 1;
  }
};

template <class M>
Vector initial_vector(SUNContext c) {
  Vector y(N_VNew_Serial(M::kStates, c));
  if (y) Eigen::Map<typename M::State>(N_VGetArrayPointer(y.get())) = M::initial_state();
  return y;
}

template <class M>
bool sample(N_Vector y, Samples* samples) {
  const typename M::State x = state_of<M>(y);
  if (!x.allFinite()) return false;
  record<M>(x, samples);
  return true;
}

constexpr long kMaxStepsPerInterval = 100'000;

// CVODE's BDF on the generated Jacobian (kJacobian) or on its difference quotients.
template <class M, bool kJacobian>
bool cvode_bdf(double t_end, double tolerance, Samples* samples) {
  Context c = context();
  if (!c) return false;
  Vector y = initial_vector<M>(c.get());
  Matrix a(SUNDenseMatrix(M::kStates, M::kStates, c.get()));
  Cvode mem(CVodeCreate(CV_BDF, c.get()));
  if (!y || !a || !mem) return false;
  Solver ls(SUNLinSol_Dense(y.get(), a.get(), c.get()));
  Held<M> held{held_input<M>(t_end, 0)};
  if (!ls || CVodeSetErrHandlerFn(mem.get(), quiet, nullptr) != CV_SUCCESS ||
      CVodeInit(mem.get(), Held<M>::rates, 0.0, y.get()) != CV_SUCCESS ||
      CVodeSStolerances(mem.get(), tolerance, tolerance) != CV_SUCCESS ||
      CVodeSetUserData(mem.get(), &held) != CV_SUCCESS ||
      CVodeSetMaxNumSteps(mem.get(), kMaxStepsPerInterval) != CV_SUCCESS ||
      CVodeSetLinearSolver(mem.get(), ls.get(), a.get()) != CVLS_SUCCESS)
    return false;
  if constexpr (kJacobian)
    if (CVodeSetJacFn(mem.get(), Held<M>::jacobian) != CVLS_SUCCESS) return false;
  return each_interval<M>(t_end, [&](double a, double b, const typename M::Input& u, bool jumped) {
    held.u = u;
    double t = a;
    return (!jumped || CVodeReInit(mem.get(), a, y.get()) == CV_SUCCESS) &&
           CVodeSetStopTime(mem.get(), b) == CV_SUCCESS && CVode(mem.get(), b, y.get(), &t, CV_NORMAL) >= 0 &&
           sample<M>(y.get(), samples);
  });
}

// MRIStep at the slow step H = t_end / (kSamples m), the fast rate inside at H / kRatio.
template <class M, int kRatio>
bool mristep(double t_end, long m, Samples* samples) {
  const double big = step_of(t_end, m);
  Context c = context();
  if (!c) return false;
  Vector y = initial_vector<M>(c.get());
  if (!y) return false;
  Held<M> held{held_input<M>(t_end, 0)};
  ArkStep inner_mem(ARKStepCreate(Held<M>::fast, nullptr, 0.0, y.get(), c.get()));
  if (!inner_mem || ARKStepSetErrHandlerFn(inner_mem.get(), quiet, nullptr) != ARK_SUCCESS ||
      ARKStepSetUserData(inner_mem.get(), &held) != ARK_SUCCESS || ARKStepSetOrder(inner_mem.get(), 4) != ARK_SUCCESS ||
      ARKStepSetFixedStep(inner_mem.get(), big / kRatio) != ARK_SUCCESS ||
      ARKStepSetMaxNumSteps(inner_mem.get(), kMaxStepsPerInterval) != ARK_SUCCESS)
    return false;
  MRIStepInnerStepper raw_inner = nullptr;
  if (ARKStepCreateMRIStepInnerStepper(inner_mem.get(), &raw_inner) != ARK_SUCCESS) return false;
  Inner inner(raw_inner);
  MriStep mem(MRIStepCreate(Held<M>::slow, nullptr, 0.0, y.get(), inner.get(), c.get()));
  if (!mem || MRIStepSetErrHandlerFn(mem.get(), quiet, nullptr) != ARK_SUCCESS ||
      MRIStepSetUserData(mem.get(), &held) != ARK_SUCCESS || MRIStepSetOrder(mem.get(), 4) != ARK_SUCCESS ||
      MRIStepSetFixedStep(mem.get(), big) != ARK_SUCCESS ||
      MRIStepSetMaxNumSteps(mem.get(), kMaxStepsPerInterval) != ARK_SUCCESS)
    return false;
  return each_interval<M>(t_end, [&](double a, double b, const typename M::Input& u, bool jumped) {
    held.u = u;
    double t = a;
    return (!jumped || MRIStepReInit(mem.get(), Held<M>::slow, nullptr, a, y.get()) == ARK_SUCCESS) &&
           MRIStepSetStopTime(mem.get(), b) == ARK_SUCCESS &&
           MRIStepEvolve(mem.get(), b, y.get(), &t, ARK_NORMAL) >= 0 && sample<M>(y.get(), samples);
  });
}

}  // namespace work_precision::sundials_peer
