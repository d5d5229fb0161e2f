// Size: the design of a schedule in one place: the sampled trajectory and its operating points,
// the designer that computes constants once per point, and the steps of design_schedule.
#include "constant_schedule/constant_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>

#include "numeric/linearization.hpp"
#include "reference/reference_model.hpp"
#include "reference/sampled_trajectory.hpp"

namespace dualrate {

using Eigen::MatrixXd;

std::size_t ConstantSchedule::points() const {
  std::size_t n = 1;
  for (const auto& g : grid) n *= g.size();
  return n;
}

namespace {

// The cell of s on grid g (clamped) and the fraction within it, as dualrate::lookup::locate.
std::pair<std::size_t, double> cell_of(const std::vector<double>& g, double s) {
  s = std::clamp(s, g.front(), g.back());
  std::size_t i = 0;
  while (i + 2 < g.size() && s >= g[i + 1]) ++i;
  return {i, (s - g[i]) / (g[i + 1] - g[i])};
}

std::vector<double> uniform(double lo, double hi, std::size_t n) {
  std::vector<double> g(n);
  for (std::size_t i = 0; i < n; ++i) g[i] = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n - 1);
  g.back() = hi;
  return g;
}

// The sampled reference trajectory and the operating points on it.
class Trajectory {
 public:
  Trajectory(const Model& m, double t_end) : model_(m), core_(m) {
    const std::size_t n = m.states.size();
    for (TrajectorySample& at : sampled_trajectory(core_, t_end)) {
      std::vector<double> s = core_.scheduling_values(at.t, at.x, at.u);
      samples_.push_back({at.t, std::move(at.x), std::move(at.u), std::move(s)});
    }
    const std::size_t d = m.simulation.schedule->by.size();
    covered_.assign(d, {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
    for (const auto& p : samples_)
      for (std::size_t k = 0; k < d; ++k)
        covered_[k] = {std::min(covered_[k].first, p.s[k]), std::max(covered_[k].second, p.s[k])};
    // A scheduling value that is a state or input itself is set at an operating point.
    for (const auto& e : m.simulation.schedule->by) {
      Slot slot;
      for (std::size_t i = 0; i < n; ++i)
        if (e.is_equal(m.states[i].symbol)) slot = {true, i};
      for (std::size_t i = 0; i < m.inputs.size(); ++i)
        if (e.is_equal(m.inputs[i].symbol)) slot = {false, i};
      slots_.push_back(slot);
    }
  }

  const std::vector<std::pair<double, double>>& covered() const { return covered_; }

  // The range of state or input `symbol` along the trajectory.
  std::pair<double, double> variation(const GiNaC::ex& symbol) const {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& p : samples_) {
      double v = 0;
      for (std::size_t i = 0; i < model_.states.size(); ++i)
        if (symbol.is_equal(model_.states[i].symbol)) v = p.x[i];
      for (std::size_t i = 0; i < model_.inputs.size(); ++i)
        if (symbol.is_equal(model_.inputs[i].symbol)) v = p.u[i];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    return {lo, hi};
  }

  OperatingPoint at(const std::vector<double>& s) const {
    OperatingPoint op;
    op.s = s;
    bool crossed = false;
    if (s.size() == 1)
      for (std::size_t i = 0; i + 1 < samples_.size() && !crossed; ++i) {
        const double a = samples_[i].s[0], b = samples_[i + 1].s[0];
        if ((a <= s[0] && s[0] <= b) || (b <= s[0] && s[0] <= a)) {
          const double f = a == b ? 0 : (s[0] - a) / (b - a);
          op.t = samples_[i].t + f * (samples_[i + 1].t - samples_[i].t);
          op.x.resize(samples_[i].x.size());
          for (std::size_t k = 0; k < op.x.size(); ++k)
            op.x[k] = samples_[i].x[k] + f * (samples_[i + 1].x[k] - samples_[i].x[k]);
          op.u = core_.inputs_at(op.t);
          crossed = true;
        }
      }
    if (!crossed) {
      const Sample* best = &samples_.front();
      double best_distance = std::numeric_limits<double>::infinity();
      for (const auto& p : samples_) {
        double distance = 0;
        for (std::size_t k = 0; k < s.size(); ++k) {
          const double width = std::max(covered_[k].second - covered_[k].first, 1e-300);
          distance += std::pow((p.s[k] - s[k]) / width, 2);
        }
        if (distance < best_distance) {
          best_distance = distance;
          best = &p;
        }
      }
      op.t = best->t;
      op.x = best->x;
      op.u = best->u;
      for (std::size_t k = 0; k < s.size(); ++k)
        if (slots_[k].index != kNone) (slots_[k].state ? op.x : op.u)[slots_[k].index] = s[k];
    }
    op.reached = core_.scheduling_values(op.t, op.x, op.u);
    return op;
  }

  MatrixXd jacobian(const OperatingPoint& op) const { return core_.jacobian_at(op.t, op.x, op.u); }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Sample {
    double t = 0;
    std::vector<double> x, u, s;
  };
  struct Slot {
    bool state = true;
    std::size_t index = kNone;
  };
  const Model& model_;
  ReferenceModel core_;
  std::vector<Sample> samples_;
  std::vector<std::pair<double, double>> covered_;
  std::vector<Slot> slots_;
};

double relative_difference(const MatrixXd& a, const MatrixXd& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

// The design: operating points and constants, each computed once per point.
class Designer {
 public:
  Designer(const Trajectory& trajectory, const SchedulableScheme& scheme, const ScheduleSpec& spec)
      : trajectory_(trajectory), scheme_(scheme), spec_(spec) {}

  struct Point {
    OperatingPoint op;
    MatrixXd jacobian;
    std::vector<NamedMatrix> constants;  // empty until asked for
  };

  // The operating point at scheduling values s with its Jacobian, and the scheme's constants
  // there unless only the Jacobian is asked for (the proof's points inside the cells).
  const Point& at(const std::vector<double>& s, bool with_constants = true) {
    auto it = points_.find(s);
    if (it == points_.end()) {
      Point p;
      p.op = trajectory_.at(s);
      p.jacobian = trajectory_.jacobian(p.op);
      if (!p.jacobian.allFinite())
        throw ModelError(
            spec_.loc,
            fmt::format("the Jacobian at the operating point {} is not finite", schedule_point_text(spec_.by_text, s)),
            "narrow the schedule's range to where the model is defined");
      it = points_.emplace(s, std::move(p)).first;
    }
    Point& p = it->second;
    if (with_constants && p.constants.empty()) {
      p.constants = scheme_.constants(p.op, p.jacobian);
      for (const NamedMatrix& c : p.constants)
        if (!c.value.allFinite())
          throw ModelError(spec_.loc,
                           fmt::format("the constant {} at the operating point {} is not finite", c.name,
                                       schedule_point_text(spec_.by_text, s)),
                           "narrow the schedule's range to where the fast dynamics are well defined");
    }
    return p;
  }

  // The midpoint criterion between grid neighbours a and b: the map's relative error, and the
  // contraction with the interpolated constants (0 when the scheme has none).
  std::pair<double, double> midpoint_error(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> mid(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) mid[k] = (a[k] + b[k]) / 2;
    const std::vector<NamedMatrix>& ca = at(a).constants;
    const std::vector<NamedMatrix>& cb = at(b).constants;
    const Point& m = at(mid);
    std::vector<NamedMatrix> halfway = m.constants;
    for (std::size_t i = 0; i < halfway.size(); ++i) halfway[i].value = (ca[i].value + cb[i].value) / 2;
    return {relative_difference(scheme_.step_map(halfway, m.op, m.jacobian),
                                scheme_.step_map(m.constants, m.op, m.jacobian)),
            scheme_.contraction ? scheme_.contraction(halfway, m.op) : 0.0};
  }

 private:
  const Trajectory& trajectory_;
  const SchedulableScheme& scheme_;
  const ScheduleSpec& spec_;
  std::map<std::vector<double>, Point> points_;
};

// Every grid point, the first value's points outermost.
std::vector<std::vector<double>> grid_points(const std::vector<std::vector<double>>& grid) {
  std::vector<std::vector<double>> all = {{}};
  for (const auto& axis : grid) {
    std::vector<std::vector<double>> next;
    for (const auto& prefix : all)
      for (double v : axis) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    all = std::move(next);
  }
  return all;
}

// Each cell's neighbouring grid points along axis d, at every grid point of the other axis.
std::vector<std::pair<std::vector<double>, std::vector<double>>> cells_along(
    const std::vector<std::vector<double>>& grid, std::size_t d) {
  std::vector<std::pair<std::vector<double>, std::vector<double>>> cells;
  for (const auto& p : grid_points(grid)) {
    const auto i = static_cast<std::size_t>(std::find(grid[d].begin(), grid[d].end(), p[d]) - grid[d].begin());
    if (i + 1 >= grid[d].size()) continue;
    std::vector<double> q = p;
    q[d] = grid[d][i + 1];
    cells.emplace_back(p, q);
  }
  return cells;
}

}  // namespace

std::string schedule_point_text(const std::vector<std::string>& by, const std::vector<double>& s) {
  std::string text;
  for (std::size_t k = 0; k < s.size(); ++k) text += fmt::format("{}{} = {:.6g}", k ? ", " : "", by[k], s[k]);
  return text;
}

std::set<GiNaC::ex, GiNaC::ex_is_less> jacobian_dependencies(const Model& m) {
  std::set<GiNaC::ex, GiNaC::ex_is_less> found;
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  for (unsigned r = 0; r < j.rows(); ++r)
    for (unsigned c = 0; c < j.cols(); ++c) {
      for (const auto& x : m.states)
        if (j(r, c).has(x.symbol)) found.insert(x.symbol);
      for (const auto& u : m.inputs)
        if (j(r, c).has(u.symbol)) found.insert(u.symbol);
    }
  return found;
}

std::vector<NamedMatrix> scheduled_matrices(const ConstantSchedule& schedule) {
  std::vector<NamedMatrix> matrices = schedule.constants.front();
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    matrices[i].scheduled.clear();
    for (const auto& point : schedule.constants) matrices[i].scheduled.push_back(point[i].value);
  }
  return matrices;
}

std::vector<NamedMatrix> interpolate(const ConstantSchedule& schedule, const std::vector<double>& s) {
  std::vector<std::pair<std::size_t, double>> cells;
  for (std::size_t d = 0; d < schedule.grid.size(); ++d) cells.push_back(cell_of(schedule.grid[d], s[d]));
  std::vector<NamedMatrix> out = schedule.constants.front();
  if (schedule.grid.size() == 1) {  // as the runtime: M_i + f (M_{i+1} - M_i)
    const auto [i, f] = cells.front();
    for (std::size_t k = 0; k < out.size(); ++k) {
      const Eigen::MatrixXd& low = schedule.constants[i][k].value;
      out[k].value = low + f * (schedule.constants[i + 1][k].value - low);
    }
    return out;
  }
  for (auto& m : out) m.value.setZero();
  const std::size_t dims = schedule.grid.size();
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    std::size_t offset = 0;
    double weight = 1;
    for (std::size_t d = 0; d < dims; ++d) {
      const bool upper = ((corner >> d) & 1u) != 0;
      offset = offset * schedule.grid[d].size() + cells[d].first + (upper ? 1 : 0);
      weight *= upper ? cells[d].second : 1 - cells[d].second;
    }
    for (std::size_t i = 0; i < out.size(); ++i) out[i].value += weight * schedule.constants[offset][i].value;
  }
  return out;
}

namespace {

// The scenario's high-accuracy trajectory to t_end, its failure positioned at the schedule.
Trajectory schedule_trajectory(const Model& m, double t_end) {
  const ScheduleSpec& spec = *m.simulation.schedule;
  try {
    return Trajectory(m, t_end);
  } catch (const SimulationError& e) {
    throw ModelError(spec.loc,
                     fmt::format("the schedule's operating points come from the scenario's reference trajectory "
                                 "to t = {:.6g}, which fails: {}",
                                 t_end, e.what()),
                     "check the scenario with 'dualrate simulate MODEL --scheme " + kHighAccuracy + "'");
  }
}

// The starting grid of each axis: the listed points, or uniform points over the given range or
// the covered one widened by 5% at each end (two for points: auto, which refine_grid bisects).
void starting_grid(const ScheduleSpec& spec, double t_end, ConstantSchedule& out) {
  for (std::size_t d = 0; d < spec.by.size(); ++d) {
    if (!spec.points[d].empty()) {
      out.grid.push_back(spec.points[d]);
      continue;
    }
    double lo = 0, hi = 0;
    if (!spec.range.empty()) {
      std::tie(lo, hi) = spec.range[d];
    } else {
      const auto [a, b] = out.covered[d];
      if (!(b > a) || !std::isfinite(a) || !std::isfinite(b))
        throw ModelError(spec.by_loc[d],
                         fmt::format("the scheduling value '{}' does not vary along the scenario's reference "
                                     "trajectory to t = {:.6g} (it stays at {:.6g}): no range to schedule over",
                                     spec.by_text[d], t_end, a),
                         "give simulation: schedule: range:, or a scenario that moves it");
      lo = a - 0.05 * (b - a);
      hi = b + 0.05 * (b - a);
    }
    out.grid.push_back(uniform(lo, hi, spec.counts[d] > 0 ? static_cast<std::size_t>(spec.counts[d]) : 2));
    out.refined = out.refined || spec.counts[d] == 0;
  }
}

// The midpoints of axis d's cells that miss the tolerance (or the scheme's contraction target).
std::vector<double> cells_to_bisect(const ConstantSchedule& out, std::size_t d, Designer& designer,
                                    const SchedulableScheme& scheme, const ScheduleSpec& spec, const SourceLoc& at) {
  std::vector<double> added;
  const double span = out.grid[d].back() - out.grid[d].front();
  for (const auto& [a, b] : cells_along(out.grid, d)) {
    const auto [error, contraction] = designer.midpoint_error(a, b);
    const bool contracts = !(scheme.contraction_target > 0) || contraction <= scheme.contraction_target;
    if (!(error > spec.tolerance) && contracts) continue;
    // A cell a billionth of the range wide that still misses: the constants jump there.
    if (b[d] - a[d] <= 1e-9 * span)
      throw ModelError(at,
                       contracts ? fmt::format("the constants jump at {}: linear interpolation misses them by "
                                               "{:.3g} (tolerance {:.3g}) even over a cell {:.3g} wide",
                                               schedule_point_text(spec.by_text, a), error, spec.tolerance, b[d] - a[d])
                                 : fmt::format("the constants jump at {}: with them interpolated, {} is {:.3g} "
                                               "(at most {:.3g}) even over a cell {:.3g} wide",
                                               schedule_point_text(spec.by_text, a), scheme.contraction_what,
                                               contraction, scheme.contraction_target, b[d] - a[d]),
                       "list the points, with one on each side of the jump, or schedule by a value the "
                       "constants depend on smoothly");
    added.push_back((a[d] + b[d]) / 2);
  }
  return added;
}

// points: auto: bisect every cell that misses the tolerance until none does.
void refine_grid(const ScheduleSpec& spec, const SchedulableScheme& scheme, Designer& designer, ConstantSchedule& out) {
  const SourceLoc& points_at = spec.points_loc.file.empty() ? spec.loc : spec.points_loc;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t d = 0; d < spec.by.size(); ++d) {
      if (spec.counts[d] != 0 || !spec.points[d].empty()) continue;
      const std::vector<double> added = cells_to_bisect(out, d, designer, scheme, spec, points_at);
      if (added.empty()) continue;
      std::vector<double>& axis = out.grid[d];
      axis.insert(axis.end(), added.begin(), added.end());
      std::sort(axis.begin(), axis.end());
      axis.erase(std::unique(axis.begin(), axis.end()), axis.end());
      if (axis.size() > kMaxSchedulePoints)
        throw ModelError(points_at,
                         fmt::format("points: auto needs more than {} grid points of '{}' to bring the interpolated "
                                     "constants within {:.3g} of the computed ones",
                                     kMaxSchedulePoints, spec.by_text[d], spec.tolerance),
                         "raise simulation: schedule: tolerance, narrow the range, or list the points");
      changed = true;
    }
  }
}

// The constants at the grid's points, how far each point's operating point missed it, and the
// largest interpolation error at a cell's midpoint.
void constants_on_grid(Designer& designer, ConstantSchedule& out) {
  const std::size_t dims = out.grid.size();
  for (const auto& p : grid_points(out.grid)) {
    const Designer::Point& point = designer.at(p);
    out.constants.push_back(point.constants);
    out.jacobians.push_back(point.jacobian);
    for (std::size_t k = 0; k < dims; ++k) {
      const double width = std::max(out.covered[k].second - out.covered[k].first, 1e-300);
      out.largest_miss = std::max(out.largest_miss, std::fabs(point.op.reached[k] - p[k]) / width);
    }
  }
  for (std::size_t d = 0; d < dims; ++d)
    for (const auto& [a, b] : cells_along(out.grid, d)) {
      const double e = designer.midpoint_error(a, b).first;
      if (e >= out.interpolation_error) {
        out.interpolation_error = e;
        out.interpolation_error_at = a;
        out.interpolation_error_at[d] = (a[d] + b[d]) / 2;
      }
    }
}

// The proof: the map's spectral radius, judged against the model's own growth there
// (growth_relative), and the scheme's contraction with the interpolated constants at the grid
// points and at points inside every cell; the largest of each.
void prove(const SchedulableScheme& scheme, Designer& designer, ConstantSchedule& out) {
  const std::size_t dims = out.grid.size();
  std::vector<std::vector<double>> per_axis(dims);
  const int inside = dims == 1 ? 8 : 3;
  for (std::size_t d = 0; d < dims; ++d)
    for (std::size_t i = 0; i < out.grid[d].size(); ++i) {
      per_axis[d].push_back(out.grid[d][i]);
      if (i + 1 == out.grid[d].size()) break;
      for (int k = 1; k <= inside; ++k)
        per_axis[d].push_back(out.grid[d][i] + (out.grid[d][i + 1] - out.grid[d][i]) * k / (inside + 1));
    }
  out.worst_relative = -1;
  out.contraction_what = scheme.contraction_what;
  for (const auto& s : grid_points(per_axis)) {
    const Designer::Point& point = designer.at(s, false);
    const std::vector<NamedMatrix> interpolated = interpolate(out, s);
    const Eigen::VectorXcd lambda = eigenvalues(scheme.step_map(interpolated, point.op, point.jacobian));
    const double radius = lambda.size() ? lambda.cwiseAbs().maxCoeff() : 0;
    const Eigen::VectorXcd modes = eigenvalues(point.jacobian);
    const double growth = growth_rate(modes);
    const std::complex<double> leading = slowest_decaying_mode(modes);
    const double accuracy = scheme.order > 0 ? scheme_accuracy(scheme.order, scheme.step * std::abs(leading)) : 0;
    const double relative = growth_relative(radius, growth, growth > 0, scheme.step, accuracy);
    ++out.proof_points;
    if (relative > out.worst_relative) {
      out.worst_relative = relative;
      out.worst_at = s;
      out.worst_radius = radius;
      out.worst_mode = leading;
      out.worst_model_growth = std::exp(scheme.step * out.worst_mode.real());
    }
    if (scheme.contraction) {
      const double factor = scheme.contraction(interpolated, point.op);
      if (!(factor <= out.worst_contraction)) {
        out.worst_contraction = factor;
        out.worst_contraction_at = s;
      }
    }
  }
}

// The refusal of a schedule the proof does not hold for; a Newton iteration that does not
// contract is the cause of the map's instability, so it is named first.
void refuse_unproven(const SchedulableScheme& scheme, const SourceLoc& loc, const ConstantSchedule& out) {
  if (scheme.contraction && !(out.worst_contraction < 1))
    throw ModelError(loc,
                     fmt::format("the scheduled constants do not contract at {}: {} is {:.9g} >= 1 (checked at {} "
                                 "points of the {}-point grid and inside its cells)",
                                 schedule_point_text(out.by, out.worst_contraction_at), scheme.contraction_what,
                                 out.worst_contraction, out.proof_points, out.points()),
                     "refine the grid there (more points, or points: auto with a smaller tolerance), or pass "
                     "--allow-unstable");
  if (out.worst_relative > 1 + kStabilityMargin)
    throw ModelError(loc,
                     fmt::format("the scheduled constants are unstable at {}: the one-step map's spectral radius is "
                                 "{:.9g}, where the model's slowest-decaying mode {:.6g} {:+.6g}i {} by {:.9g} per "
                                 "step{} (checked at {} points of the {}-point grid and inside its cells)",
                                 schedule_point_text(out.by, out.worst_at), out.worst_radius, out.worst_mode.real(),
                                 std::abs(out.worst_mode.imag()), out.worst_model_growth > 1 ? "grows" : "changes",
                                 out.worst_model_growth,
                                 out.worst_model_growth > 1 ? ": the map does not follow the model's growth"
                                                            : ": the growth is the scheme's, not the model's",
                                 out.proof_points, out.points()),
                     "refine the grid there (more points, or points: auto with a smaller tolerance), take a smaller "
                     "step, or pass --allow-unstable");
}

// The states and inputs the constants depend on that no scheduling value covers, with how far
// they move along the trajectory (in the model's order: a set of GiNaC::ex is ordered by hash,
// not reproducibly).
std::vector<std::string> uncovered(const Model& m, const SchedulableScheme& scheme, const Trajectory& trajectory) {
  std::set<GiNaC::ex, GiNaC::ex_is_less> covered_symbols;
  for (const auto& e : m.simulation.schedule->by) {
    const GiNaC::ex r = m.resolve(e);
    for (const auto& x : m.states)
      if (r.has(x.symbol)) covered_symbols.insert(x.symbol);
    for (const auto& u : m.inputs)
      if (r.has(u.symbol)) covered_symbols.insert(u.symbol);
  }
  std::vector<GiNaC::ex> dynamic;
  for (const auto& x : m.states) dynamic.push_back(x.symbol);
  for (const auto& u : m.inputs) dynamic.push_back(u.symbol);
  std::vector<std::string> result;
  for (const auto& symbol : dynamic)
    if (scheme.depends_on.count(symbol) && !covered_symbols.count(symbol)) {
      const auto [lo, hi] = trajectory.variation(symbol);
      if (lo == hi) continue;
      result.push_back(fmt::format("{} (from {:.6g} to {:.6g} along the trajectory)",
                                   GiNaC::ex_to<GiNaC::symbol>(symbol).get_name(), lo, hi));
    }
  return result;
}

}  // namespace

ConstantSchedule design_schedule(const Model& m, double t_end, const SchedulableScheme& scheme, bool allow_unstable) {
  const ScheduleSpec& spec = *m.simulation.schedule;
  const Trajectory trajectory = schedule_trajectory(m, t_end);
  ConstantSchedule out;
  out.by = spec.by_text;
  out.loc = spec.loc;
  out.covered = trajectory.covered();
  out.tolerance = spec.tolerance;
  starting_grid(spec, t_end, out);
  Designer designer(trajectory, scheme, spec);
  refine_grid(spec, scheme, designer, out);
  constants_on_grid(designer, out);
  prove(scheme, designer, out);
  if (!allow_unstable) refuse_unproven(scheme, spec.loc, out);
  out.uncovered = uncovered(m, scheme, trajectory);
  return out;
}

}  // namespace dualrate
