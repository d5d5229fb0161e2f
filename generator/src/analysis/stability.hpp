// Symbolic analysis of a model: Jacobians of the right-hand side by GiNaC differentiation,
// and their values at a point.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "numeric/linearization.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// A scheme's one-step map against the model's own growth (docs/schemes.md#growing-models). A
// mode lambda of J that does not grow (Re lambda at most growth_rate's threshold) must not grow
// in the map either: amplification a <= 1. A mode that grows must grow in the map as in the
// model, at a rate within half and one and a half times its own: with z = H Re lambda over the
// map's step H (h, or the macro step of a dual-rate scheme),
//   min(exp(z / 2), exp(z) - scheme_accuracy) <= a <= exp(3 z / 2),
// so that over the mode's e-folding time 1 / Re lambda the scheme's amplitude stays within a
// factor e^(1/2) of the model's: growing faster is the scheme's instability, growing slower (or
// decaying) by more than the scheme's own error on the mode misses the model's. `relative`
// measures how far outside that is: the largest over the modes of a (modes that do not grow),
// a / exp(3 z / 2) and the lower end over a (modes that grow), so that relative <= 1 accepts.
// A scheme checked per eigenvalue (SchemeTraits::uniform) gives each mode its own a; the map of
// any other scheme is judged by its spectral radius against the fastest growing mode (its
// eigenvalues are not paired with J's).
struct MapJudgement {
  double radius = 0;    // the map's spectral radius
  double relative = 0;  // <= 1 + kStabilityMargin: acceptable
  double growth = 0;    // growth_rate of J: 0 when the model does not grow
  // The mode that decides `relative` (for a non-uniform map: the fastest growing mode, or the
  // largest), its amplification by the map over one (macro) step and the model's own, |e^(H lambda)|.
  std::complex<double> mode{};
  double amplification = 0, model_growth = 1;
  // `mode` is the one whose amplification decides `relative` (false: judge_radius's stiffest
  // mode, where no mode grows and the map's radius is not traced to one).
  bool mode_decides = true;
};

// Linear analysis at the initial state (t = 0, initial state, inputs of the scenario at 0),
// for a scheme and step h.
struct StabilityReport {
  std::string scheme;
  double step = 0;
  int ratio = 1;                          // dual-rate schemes: the map is of one macro step H = ratio h
  Eigen::VectorXcd jacobian_eigenvalues;  // of the full Jacobian [f_x f_z; g_x g_z]
  Eigen::VectorXcd fast_eigenvalues;      // of g_z (empty without fast states)
  Eigen::VectorXcd slow_eigenvalues;      // of the reduced slow dynamics f_x - f_z g_z^-1 g_x
  double separation = 0;                  // min |fast| / max |reduced slow| (inf if no slow motion)
  double spectral_radius = 0;             // of the scheme's one-step map for the linearized model
  // The map judged against the model's own growth (MapJudgement): `relative` <= 1 +
  // kStabilityMargin is stable; for a model that does not grow, relative = spectral_radius.
  MapJudgement judgement;
  // A Jacobian with eigenvalues 0 (an integrating state: a charge, a position) maps them to
  // eigenvalues 1 of a single-rate map, which then set spectral_radius: the largest |mu| of the
  // map's other eigenvalues, which shows how its other modes are damped, and of the map on
  // the fast modes (the Jacobian's fast_count eigenvalues of largest |lambda|) (-1: none such).
  double other_modes_radius = -1, fast_modes_radius = -1;
  bool stable = false;                  // judgement.relative <= 1 + kStabilityMargin
  bool searched = true;                 // false: the two below were not searched (StepSearch)
  double max_stable_step = 0;           // largest stable h (max_stable_step() below)
  bool max_stable_step_bounded = true;  // false: stable over the whole scan
  SchemeAnalysis scheme_analysis;       // what the scheme adds (SchemeHooks::analyse; smfe: its design at h = D)
  // Schemes that integrate a reduced form (quasistatic): the eigenvalues above are of its
  // Jacobian [F_x F_z; G_x G_z] (slow: the dynamics left after elimination); these are of the
  // full model, with RK4's largest stable step on it, against which the step is gained.
  Eigen::VectorXcd full_jacobian_eigenvalues;
  std::optional<double> full_rk4_max_stable_step;  // when searched

  std::string json() const;
  std::string text() const;
};

// Where the model grows at its initial state (t = 0, its initial state, the scenario's inputs
// at 0): each growing mode of the Jacobian, the state it lives in most (its eigenvector's largest
// component) and the negative parameters in that state's equation (a negative capacitance,
// mass or resistance makes a mode grow). Empty when no mode grows.
std::string growth_origin(const Model& model);

// The one-step map of a scheme for the linear system dx/dt = J x (the first `slow` states
// slow), built column by column by applying one step of the scheme's reference
// implementation to each unit vector. A grid-tied scheme builds its own
// (SchemeHooks::grid_step_map): for the dual-rate multistep schemes (mrabm4, mrabm4_parallel)
// the map of one macro step H = ratio h after the start-up, on everything the reference
// core's task form keeps between macro steps (states, derivative histories, predicted end
// points), so its size exceeds n. For smfe, h is the macro step D and the map is that of the
// design chosen for J and D (its option inner_step, given, fixes h_s), or SchemeDesignError when there is none.
Eigen::MatrixXd reference_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow = 0,
                                   int ratio = 1, const SchemeOptions& options = {});

// What each entry of a scheme's one-step map's vector is and how many steps of h one
// application of the map takes: the n states, one step, for the single-step schemes; the
// scheme's own layout (SchemeHooks::step_map_layout: mrabm4 and mrabm4_parallel, a macro step
// on everything the tasks keep) for the others.
StepMapLayout step_map_layout(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow,
                              int ratio);

// The same map, from the scheme's own builder where it has one (SchemeHooks::step_map: sp_ll
// from its constants, in one pass), else reference_step_map.
Eigen::MatrixXd one_step_map(const std::string& scheme, const Eigen::MatrixXd& j, double h, std::size_t slow = 0,
                             int ratio = 1, const SchemeOptions& options = {});

// The spectral radius of that map, as a function of h. For a scheme that treats every state
// alike (SchemeTraits::uniform, and abm4), the map of J is similar to the direct sum of the maps
// of J's eigenvalues (the real ones as 1x1 blocks, each complex pair as [[a, -b], [b, a]]),
// so J is decomposed once and each h costs one small map per eigenvalue; otherwise each h
// builds the whole map and decomposes it. Infinity when smfe has no design at h.
class MapRadius {
 public:
  MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, const SchemeOptions& options);
  // The same, given J's eigenvalues (already computed by the caller).
  MapRadius(std::string scheme, const Eigen::MatrixXd& j, std::size_t slow, int ratio, const SchemeOptions& options,
            Eigen::VectorXcd eigenvalues);
  double operator()(double h) const;
  // The map at h judged against the model's growth (MapJudgement).
  MapJudgement judge(double h) const;
  // max_stable_step() below, for this scheme and J.
  double largest_stable_step(bool& bounded) const;

 private:
  // Each eigen block's amplification by the map at h (uniform), in eigen_blocks_' order.
  std::vector<double> block_amplifications(double h) const;
  // The map's step: h, or the macro step of a dual-rate scheme.
  double map_step(double h) const;

  std::string scheme_;
  Eigen::MatrixXd j_;
  std::size_t slow_;
  int ratio_;
  SchemeOptions options_;
  Eigen::VectorXcd eigenvalues_;               // of J
  bool uniform_;                               // checked per eigenvalue
  std::vector<Eigen::MatrixXd> eigen_blocks_;  // uniform: a 1x1 or 2x2 block per eigenvalue (pair)
};

// A map over `step` whose spectral radius is `radius`, judged against the model's growth at a
// linearization whose eigenvalues are `modes`, as MapRadius::judge judges a scheme's map that is
// not checked per eigenvalue: the radius against the fastest growing mode, within the accuracy
// of a scheme of order `order` on it. Its `mode`: the fastest growing one, or, where none grows,
// the one of largest modulus (the stiffest).
MapJudgement judge_radius(double radius, const Eigen::VectorXcd& modes, double step, int order);

// The largest step h for which `scheme`'s one-step map for dx/dt = J x stays stable
// (MapJudgement::relative <= 1 + kStabilityMargin: for a model that does not grow, the
// spectral radius). Stability regions need not be monotone in h, so h is scanned upwards in
// steps of 2% from h rho(J) = 1e-4 and the first crossing bisected to 1e-9 relative; 0 when
// the smallest step is already unstable. For a model that grows the scan is this generic one,
// not the scheme's own (SchemeHooks::stable_step_scan, which bounds the radius alone).
// `bounded` is false when every scanned step up to h rho(J) = 1e4 is stable (the result is
// then that end of the scan). An island of stability or instability narrower than the 2%
// grid can be missed.
double max_stable_step(const std::string& scheme, const Eigen::MatrixXd& j, std::size_t slow, bool& bounded,
                       int ratio = 1, const SchemeOptions& options = {});

// Whether analyze_stability searches the largest stable step (max_stable_step, the costly
// part: hundreds of maps): always (analyze), only when the step is unstable, for the hint of
// the refusal (generate, verify-system), or never (generate --allow-unstable refuses nothing).
enum class StepSearch { kAlways, kWhenUnstable, kNever };

StabilityReport analyze_stability(const Model& model, const std::string& scheme, double h, int ratio = 1,
                                  const SchemeOptions& options = {}, StepSearch search = StepSearch::kAlways);

// For a model that grows, how the map treats the mode that decides j: "; the model grows: mode
// 0.135+2.72i 1/s by 1.000135 per step, the map by 1.000135 (a growth rate 1 times the
// model's, accepted from 0.5 to 1.5): follows it" (empty for a model that does not grow).
std::string judgement_text(const MapJudgement& j, bool stable);

// Why the generator refuses an unstable report r (generate without --allow-unstable,
// verify-system): the message, with the growth over t_end, and a hint (a smaller step or
// another scheme, or that the model itself is unstable).
struct Instability {
  std::string message, hint;
};
Instability instability(const Model& model, const StabilityReport& r, double t_end);

}  // namespace dualrate
