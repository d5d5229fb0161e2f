// Seed 001's stabilized multirate forward Euler (SMFE) on the generator side: the choice of
// the inner step h_s and of the number N of inner steps per macro step D, proven against
// eq. 14 for every eigenvalue of the Jacobian at the design point; eq. 17's sufficient bound
// beside it; the reference core's plain transcription of Algorithm 1.
//
// Eq. 14 (with h_s = eps D in the paper's notation): the macro step is stable for the
// linearized system iff for every eigenvalue lambda of the Jacobian
//     |1 + (D - N h_s) lambda| |1 + h_s lambda|^N < 1.
// Eq. 17, for the fastest eigenvalue lambda_f (the paper's scaled eigenvalue eps lambda_f
// times D is h_s lambda_f):  N >= -ln(D |lambda_f|) / ln |1 + h_s lambda_f|.
#pragma once

#include <Eigen/Dense>

#include <complex>
#include <string>
#include <optional>
#include <vector>

#include "reference/reference_model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// The most inner steps per macro step a design may take (the search stops there).
constexpr int kSmfeMaxInnerSteps = 100000;

// The left side of eq. 14 for one eigenvalue.
double smfe_factor(std::complex<double> lambda, double macro_step, double inner_step, int inner_steps);

// Why no design exists: the message names the eigenvalue and the inner step.
class SmfeDesignError : public SchemeDesignError {
 public:
  using SchemeDesignError::SchemeDesignError;
};

struct SmfeDesign {
  double macro_step = 0;                  // D
  double inner_step = 0;                  // h_s
  int inner_steps = 0;                    // N, the smallest that satisfies eq. 14 for every eigenvalue
  double worst_factor = 0;                // max over eigenvalues of eq. 14's left side at N
  double eq17_bound = 0;                  // eq. 17's sufficient N for the fastest eigenvalue (0 when dead-beat)
  int extremes_inner_steps = 0;           // the smallest N for the paper's two eigenvalues alone (eqs. 15, 10)
  double extremes_worst_factor = 0;       // eq. 14 over every eigenvalue at that N
  std::complex<double> extremes_breaker;  // the eigenvalue with that factor
};

// The default inner step: -Re(lambda_f) / |lambda_f|^2 for the fastest eigenvalue lambda_f
// of `fast`; SmfeDesignError when there are no fast eigenvalues or Re(lambda_f) >= 0.
double smfe_default_inner_step(const Eigen::VectorXcd& fast);

// The design for macro step D: h_s = `inner_step` if given, else from the fastest
// eigenvalue lambda_f of `fast` (g_z): h_s = -Re(lambda_f) / |lambda_f|^2, which minimises
// |1 + h_s lambda_f| (dead-beat, 1 + h_s lambda_f = 0, for a real lambda_f: Remark 3); then
// the smallest N >= 1 with N h_s < D for which eq. 14 holds (<= 1 + kStabilityMargin, so
// that the neutral eigenvalue 0 of a free coordinate passes) for every eigenvalue of `all`
// (the Jacobian's). Beside it, the N the paper's analysis looks at: the largest-modulus
// eigenvalues of the reduced slow dynamics (`slow`, eq. 15) and of g_z (eq. 10) alone; an
// intermediate eigenvalue can break that N. Throws SmfeDesignError when no N exists,
// naming the eigenvalue that breaks the largest N.
SmfeDesign smfe_design(const Eigen::VectorXcd& all, const Eigen::VectorXcd& slow, const Eigen::VectorXcd& fast,
                       double macro_step, std::optional<double> inner_step = std::nullopt);

// smfe_design at the model's design point: its Jacobian at the initial state with the
// scenario's inputs at t = 0; for a model with tunable values, one design (h_s the smallest of
// the points' own, N the smallest that satisfies eq. 14 at all of them) for every point of the
// calibration range (tunable_box_points), which generated code keeps fixed. Throws ModelError,
// positioned at the simulation section, when no design exists.
SmfeDesign smfe_design_for(const Model& model, double macro_step, std::optional<double> inner_step = std::nullopt);

// smfe's own options (SchemeTraits::options), typed, read from those given.
struct SmfeOptions {
  std::optional<double>
      inner_step;  // h_s (simulation.scheme_options.inner_step, --inner-step); not given, smfe_design chooses it
};
SmfeOptions smfe_options(const SchemeOptions& given);

// smfe's registry entry: the design as constants (h_s and N; h_s given as the option inner_step or
// chosen), the reference step (smfe_reference_step with the design), the runtime step's cost.
SchemeInfo smfe_scheme();

// One macro step of Algorithm 1 from (t, x): N forward-Euler steps of h_s (eq. 12), then one
// of D - N h_s (eq. 13), the right-hand side evaluated at the inner steps' times.
std::vector<double> smfe_reference_step(const RightHandSide& f, double t, double macro_step, double inner_step,
                                        int inner_steps, const std::vector<double>& x);

}  // namespace dualrate
