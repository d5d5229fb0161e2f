// The integration schemes the generator knows, by name. Each is registered in one place
// (schemes.cpp): the explicit Runge-Kutta and the dual-rate Adams schemes as plain entries,
// each seed scheme by the SchemeInfo its own unit returns (sp_ll.hpp, smfe.hpp, prk.hpp,
// quasistatic.hpp), whose hooks say what the generator precomputes for it, how the reference
// core steps it and what one step of the runtime's implementation costs.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

#include "ir/op_count.hpp"
#include "schemes/reference_core.hpp"

namespace dualrate {

struct GenerateOptions;
struct Model;

// What a scheme's reference step is prepared with.
struct ReferenceSetup {
  const Model* model = nullptr;  // the model, or null when analysing a bare Jacobian
  std::size_t slow = 0;          // states before the fast ones
  // The Jacobian at (t, x): re-linearized, frozen at the initial state, or (analysis) the
  // analysed constant Jacobian.
  std::function<Eigen::MatrixXd(double t, const std::vector<double>& x)> jacobian;
  double inner_step = 0;  // smfe: --inner-step (0: the generator's choice)
  // The inputs the step holds from its start time t (null when analysing a bare Jacobian).
  std::function<std::vector<double>(double t)> inputs;
};

// One step of size h from (t, x) on the right-hand side f (inputs held over the step).
using ReferenceStep =
    std::function<std::vector<double>(const RightHandSide& f, double t, double h, const std::vector<double>& x)>;

struct SchemeInfo {
  const char* name;
  const char* runtime_class;  // class template in the runtime, instantiated with the model
  const char* header;         // runtime header that defines it
  int order;
  const char* summary;
  int evaluations;            // right-hand-side evaluations per step
  bool constants = false;     // instantiated as <Model, SchemeConstants> with precomputed matrices
  double double_tolerance = 1e-12;  // verify bound against the reference core in double
  bool dual_rate = false;     // runs as a fast and a slow task (dualrate::DualRate), H = ratio h
  bool parallel = false;      // dual-rate: the parallel two-track variant
  // Hooks of the seed schemes; null for the textbook schemes, which the reference core
  // (scheme_step, adams.hpp) and op_count know directly.
  // Fills options' constants and notes; throws ModelError when the model does not suit it.
  void (*precompute)(const Model& model, bool frozen, GenerateOptions& options) = nullptr;
  // The reference core's transcription of the scheme at step h.
  ReferenceStep (*reference)(const ReferenceSetup& setup, double h) = nullptr;
  // Arithmetic of one step of the runtime's implementation and its lower bound (step_cost),
  // with the options precomputed (smfe: inner_steps is its N; sp_ll: the matrices).
  StepCost (*cost)(const Model& model, const GenerateOptions& options) = nullptr;
  // The Jacobian at the design point of what the scheme integrates, when that is not the
  // model's right-hand side (quasistatic: its reduced form); analysis linearizes this one.
  Eigen::MatrixXd (*analysed_jacobian)(const Model& model) = nullptr;
  // The one-step map for dx/dt = J x split after `slow` states, when the scheme builds it
  // faster than analysis's n reference steps (one_step_map); null otherwise.
  Eigen::MatrixXd (*step_map)(const Eigen::MatrixXd& j, std::size_t slow, double h) = nullptr;
  // Treats every state alike (no slow/fast split): its one-step map for J decouples along J's
  // eigenvectors, so the analysis checks it per eigenvalue (on a 1x1 or 2x2 real block).
  bool uniform = false;
};

const std::vector<SchemeInfo>& schemes();

// Runs the scheme's precompute hook (SchemeInfo::precompute): the constants and functions of
// the schemes that run on generator-chosen data (sp_ll: matrices; smfe: h_s and N;
// quasistatic: the reduced form and its Newton design); a no-op for the others. Throws
// ModelError when the model does not suit the scheme.
void precompute_scheme(const Model& model, bool frozen, GenerateOptions& options);
const SchemeInfo* find_scheme(const std::string& name);
std::vector<std::string> scheme_names();

}  // namespace dualrate
