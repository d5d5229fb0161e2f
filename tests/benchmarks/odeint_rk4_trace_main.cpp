// Boost.Odeint's runge_kutta4 on a generated model's right-hand side (Model::derivatives), as
// a Cortex-M trace program: the peer of our rk4 on the ECU side of the work-precision report
// (scripts/work-precision-target builds it with the flags `dualrate verify --target` used for
// the generated trace program, so the compiler, scalar and libm are the same). It runs STEPS
// steps of the model's step h with the scenario's inputs held over each step, prints the trace
// (trace_format.hpp) and '# instructions_per_step TOTAL MIN MAX' for the do_step calls
// (instruction_counter.hpp), as targets/cortex-m/trace_main.cpp does for the generated step.
// Arguments STEPS EVERY on the semihosting command line.
// Odeint's algebra dispatcher includes uBLAS, whose error reporting would bring <iostream>
// (std::cerr, and with it the locale machinery and the heap) into the program.
#define BOOST_UBLAS_NO_STD_CERR
#include <boost/numeric/odeint/algebra/vector_space_algebra.hpp>
#include <boost/numeric/odeint/external/eigen/eigen_algebra.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>

#include <cstdlib>

#include "step_counts.hpp"

// Built without exceptions: Boost then calls these instead of throwing (odeint throws only on
// misuse of its integrate functions, which this program does not call).
namespace boost {
void throw_exception(const std::exception&) { std::abort(); }
void throw_exception(const std::exception&, const boost::source_location&) { std::abort(); }
}  // namespace boost

namespace {

using Model = dualrate_trace::model::Model;
using Scalar = Model::Scalar;
using Stepper = boost::numeric::odeint::runge_kutta4<Model::State, Scalar, Model::State, Scalar,
                                                     boost::numeric::odeint::vector_space_algebra>;

struct HeldRhs {
  Model::Input u;
  void operator()(const Model::State& x, Model::State& dxdt, Scalar t) const { Model::derivatives(t, x, u, dxdt); }
};

class OdeintProbe {
 public:
  dualrate::Status operator()(dualrate_trace::model::Data& d, const Model::Input& u) {
    const Scalar h = dualrate_trace::model::kStep;
    const Scalar t = d.time(h);
    counts_.count([&] { step(d.x, u, t, h); });
    ++d.steps;
    return d.x.allFinite() ? dualrate::Status::kOk : dualrate::Status::kNonFiniteState;
  }

  void report(std::FILE* out) const { counts_.report(out); }

 private:
  [[gnu::noinline]] void step(Model::State& x, const Model::Input& u, Scalar t, Scalar h) {
    stepper_.do_step(HeldRhs{u}, x, t, h);
  }

  Stepper stepper_;
  dualrate_cortex_m::StepCounts counts_;
};

}  // namespace

int main(int argc, char** argv) {
  OdeintProbe probe;
  return dualrate_cortex_m::trace_program(argc, argv, probe);
}
