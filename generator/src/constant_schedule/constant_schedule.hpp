// Scheduled precomputation (simulation: linearization: scheduled): a scheme's constant
// matrices computed at the points of a grid over one or two scheduling values s(x, u), for
// generated code to interpolate linearly at each step (runtime/include/dualrate/schedule.hpp),
// as gain scheduling interpolates controller gains designed at operating points.
//
// Operating points. The constants at grid point s* are the scheme's constants at the
// linearization of the model at the state of the scenario's reference trajectory (the
// high-accuracy solution to t_end) where the scheduling values are s*: for one value, the
// first crossing of s* along the trajectory, the state interpolated linearly between the two
// samples around it; for two values, or where the trajectory never reaches s*, the sample
// nearest to s* (each value's distance relative to its covered width), with every scheduling
// value that is a state or an input itself set to s*. The range defaults to the covered one,
// widened by 5% of its width at each end.
//
// Grid. Listed points, or a number of uniform points over the range, or (auto) the ends of
// the range bisected until, in every cell, the one-step map with the constants interpolated
// at the cell's midpoint is within `tolerance` of the one with the constants computed there:
//   ||Phi(C_interpolated, J_mid) - Phi(C_mid, J_mid)||_F <= tolerance ||Phi(C_mid, J_mid)||_F
// (for two values, each axis's cells at each grid point of the other), and the scheme's
// contraction there is within its target (SchedulableScheme::contraction_target).
//
// Proof. The spectral radius of the one-step map with the interpolated constants applied to
// the linearization at the operating point, at every grid point and at 8 points inside every
// cell (1-D: at fractions 1/9 .. 8/9; 2-D: a 3 x 3 lattice), must be at most 1, and the
// scheme's contraction factor (when it has one) below 1 at the same points.
#pragma once

#include <Eigen/Dense>

#include <complex>
#include <ginac/ginac.h>

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/linear_map.hpp"
#include "ir/op_count.hpp"
#include "model/model.hpp"

namespace dualrate {

// The states and inputs the model's Jacobian depends on (SchedulableScheme::depends_on of a
// scheme whose constants come from all of it).
std::set<GiNaC::ex, GiNaC::ex_is_less> jacobian_dependencies(const Model& m);

// A point of the schedule's evaluation: scheduling values s and the model's state and inputs there.
struct OperatingPoint {
  std::vector<double> s;
  double t = 0;
  std::vector<double> x, u;
  // The scheduling values the point actually has (differs from s where the trajectory does not
  // reach s and a value is not a state or input itself).
  std::vector<double> reached;
};

// What a scheme schedules: its constants at an operating point, whose linearization of the whole
// model is J, and its one-step map there with given constants (which need not be the point's
// own). Optionally, the contraction factor of an iteration the constants drive (quasistatic's
// Newton steps with a scheduled inverse: rho(I - G_z^-1 interpolated G_z)), which the proof
// requires below 1.
struct SchedulableScheme {
  std::function<std::vector<NamedMatrix>(const OperatingPoint& op, const Eigen::MatrixXd& j)> constants;
  std::function<Eigen::MatrixXd(const std::vector<NamedMatrix>& constants, const OperatingPoint& op,
                                const Eigen::MatrixXd& j)>
      step_map;
  std::function<double(const std::vector<NamedMatrix>& constants, const OperatingPoint& op)> contraction{};
  double step = 0;  // of the one-step map (a macro step for smfe): the model's growth over it
  // The scheme's order: on a growing mode its map may fall short of the model's growth by the
  // scheme's accuracy over the step (scheme_accuracy), as analyze judges a map; 0: not given,
  // no relaxation.
  int order = 0;
  std::string contraction_what{};  // names it in messages
  // points: auto also bisects a cell whose midpoint's contraction with the interpolated
  // constants exceeds this (0: no such criterion).
  double contraction_target = 0;
  // The symbols (states, inputs) the constants depend on, for the warning on what the
  // schedule does not cover.
  std::set<GiNaC::ex, GiNaC::ex_is_less> depends_on;
};

struct ConstantSchedule {
  std::vector<std::string> by;  // as written
  double step = 0;              // the constants are the scheme's at this step
  int iterations = 0;  // a count the scheme fixed for the whole grid (smfe: N inner steps; quasistatic: Newton steps)
  SourceLoc loc{};     // of the model file's schedule
  std::vector<std::vector<double>> grid;           // per scheduling value, ascending
  std::vector<std::pair<double, double>> covered;  // by the reference trajectory
  // The constants at every grid point, the first value's points outermost.
  std::vector<std::vector<NamedMatrix>> constants;
  // The Jacobian at each grid point's operating point, which its constants are computed from
  // (verify's exact step check confirms them with the reference core's own computation).
  std::vector<Eigen::MatrixXd> jacobians;
  bool refined = false;            // grid chosen by points: auto
  double tolerance = 0;            // of points: auto
  double interpolation_error = 0;  // largest midpoint error (as auto's criterion) over the cells
  std::vector<double> interpolation_error_at;
  // The proof: the largest spectral radius judged against the model's own growth at its point
  // (growth_relative, as analyze judges a map: <= 1 + kStabilityMargin holds), where, the
  // map's radius there, the model's mode with the largest real part there and its growth
  // e^{H Re lambda} over the map's step.
  double worst_relative = 0;
  std::vector<double> worst_at;
  double worst_radius = 0;
  std::complex<double> worst_mode{};
  double worst_model_growth = 0;
  long proof_points = 0;
  // The largest contraction factor over the proof's points (the scheme has one), and where.
  std::string contraction_what;
  double worst_contraction = -1;  // -1: the scheme has none
  std::vector<double> worst_contraction_at;
  double largest_miss = 0;             // largest |reached - s| relative to the covered width
  std::vector<std::string> uncovered;  // what the constants depend on beyond the schedule, with its variation

  std::size_t points() const;
};

// "V = 100, alpha = 0.1": scheduling values s of the expressions `by` (messages, reports).
std::string schedule_point_text(const std::vector<std::string>& by, const std::vector<double>& s);

// The constants at the first grid point, each with its values at every grid point
// (NamedMatrix::scheduled): what a scheme emits from its schedule.
std::vector<NamedMatrix> scheduled_matrices(const ConstantSchedule& schedule);

// The constants interpolated at s (clamped to the grid), entry by entry as generated code does.
std::vector<NamedMatrix> interpolate(const ConstantSchedule& schedule, const std::vector<double>& s);

// The schedule of `scheme`'s constants for model m (whose simulation.schedule is set) over the
// scenario to t_end. Throws ModelError (at the schedule) when the trajectory does not vary a
// scheduling value and no range is given, when auto needs more than kMaxSchedulePoints points,
// and, unless allow_unstable, when the proof finds a radius above 1 or a contraction factor of
// 1 or more.
constexpr std::size_t kMaxSchedulePoints = 129;
ConstantSchedule design_schedule(const Model& m, double t_end, const SchedulableScheme& scheme, bool allow_unstable);

// The arithmetic of generated code's schedule(t, x, u) per step: the scheduling values, each
// one's cell (dualrate::lookup::locate), every scheduled entry of `matrices` and `scalars`
// scheduled reals interpolated.
OpCount schedule_ops(const Model& m, const std::vector<NamedMatrix>& matrices, long scalars,
                     const ConstantSchedule& schedule);

// Text (report.cpp) for the generated header's notes and generate's standard error: the grid, how it was
// chosen, the interpolation error, the proof, and what the schedule does not cover.
std::string schedule_summary(const ConstantSchedule& schedule);
// The same as a JSON object (analyze --json's "schedule").
std::string schedule_json(const ConstantSchedule& schedule);

}  // namespace dualrate
