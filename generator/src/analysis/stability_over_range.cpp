#include "analysis/stability_over_range.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

#include "analysis/stability.hpp"
#include "model/calibration.hpp"
#include "model/tunable.hpp"
#include "numeric/linearization.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"

namespace dualrate {
namespace {

enum class Pattern { kValues, kMin, kMax, kMinMax, kMaxMin };
constexpr Pattern kPatterns[] = {Pattern::kValues, Pattern::kMin, Pattern::kMax, Pattern::kMinMax, Pattern::kMaxMin};
constexpr std::size_t kJointTables = 2;                    // every combination of the tables' patterns: 5^2
constexpr double kFirstStep = 0.25, kLastStep = 1.0 / 64;  // the compass search's, of each range
constexpr std::size_t kCompassStarts = 4;  // the grid's worst points it starts from (besides the worst of all)

const char* to_string(Pattern p) {
  switch (p) {
    case Pattern::kValues:
      return "its values";
    case Pattern::kMin:
      return "all at min";
    case Pattern::kMax:
      return "all at max";
    case Pattern::kMinMax:
      return "alternating min/max";
    case Pattern::kMaxMin:
      return "alternating max/min";
  }
  return "";
}

// t's values in pattern p: alternation by the parity of the sum of a value's indices (first
// axis outermost), so that neighbours along every axis differ.
std::vector<double> pattern_values(const Table& t, Pattern p) {
  if (p == Pattern::kValues) return t.values;
  std::vector<double> v(t.values.size());
  for (std::size_t flat = 0; flat < v.size(); ++flat) {
    std::size_t rest = flat, sum = 0;
    for (std::size_t a = t.axes(); a-- > 0;) {
      sum += rest % t.breakpoints[a].size();
      rest /= t.breakpoints[a].size();
    }
    const bool odd = sum % 2 == 1;
    const bool high = p == Pattern::kMax || (p == Pattern::kMinMax && odd) || (p == Pattern::kMaxMin && !odd);
    v[flat] = high ? t.max : t.min;
  }
  return v;
}

struct Point {
  std::vector<double> parameters;  // the tunable parameters' values, in file order
  std::vector<Pattern> tables;     // the tunable tables' patterns, in file order
  bool operator<(const Point& o) const { return std::tie(parameters, tables) < std::tie(o.parameters, o.tables); }
};

class Search {
 public:
  Search(const Model& m, const std::string& scheme, double h, int ratio, const SchemeOptions& options,
         const SchemeDesign* design)
      : m_(m), scheme_(scheme), h_(h), ratio_(ratio), options_(options) {
    const SchemeInfo* info = find_any_scheme(scheme);
    if (design && info && info->hooks.design_step_map && design->recompute.empty() && !design->schedule) {
      fixed_ = design;
      info_ = info;
    }
    for (const auto& p : m.parameters)
      if (p.tunable) parameters_.push_back(&p);
    for (const auto& t : m.tables)
      if (t->tunable) tables_.push_back(t.get());
  }

  RangeStability run() {
    Point values;
    for (const Parameter* p : parameters_) values.parameters.push_back(p->value);
    values.tables.assign(tables_.size(), Pattern::kValues);
    radius(values);
    grid(values);
    const std::vector<Point> starts = worst_points(kCompassStarts);
    table_patterns(values);
    table_patterns(starts.front());
    compass(worst_);
    for (const Point& start : starts) compass(start);
    result_.spectral_radius = worst_radius_;
    result_.where = describe(worst_);
    result_.points = radii_.size();
    return result_;
  }

 private:
  double radius(const Point& p) {
    const auto known = radii_.find(p);
    if (known != radii_.end()) return known->second;
    CalibrationValues values;
    TunablePoint point;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      values[parameters_[i]->name] = {p.parameters[i]};
      point[parameters_[i]->name] = p.parameters[i];
    }
    require_finite_derived_at(m_, point, ScalarType::kDouble);
    for (std::size_t i = 0; i < tables_.size(); ++i)
      values[tables_[i]->name] = pattern_values(*tables_[i], p.tables[i]);
    const MapJudgement j = judge(calibrated_model(m_, values));
    const double judged = j.relative;
    const double growth = j.growth;
    if (growth > 0) {
      ++result_.growing;
      if (growth > result_.growth) {
        result_.growth = growth;
        result_.growth_where = describe(p);
      }
    }
    radii_.emplace(p, judged);
    result_.stable = result_.stable && judged <= 1 + kStabilityMargin;
    if (radii_.size() == 1 || judged > worst_radius_) {
      worst_ = p;
      worst_radius_ = judged;
    }
    return judged;
  }

  // The map at model `at`: of the header's design at its Jacobian, or of the scheme's own design.
  MapJudgement judge(const Model& at) const {
    if (!fixed_) return analyze_stability(at, scheme_, h_, ratio_, options_, StepSearch::kNever).judgement;
    const ReferenceCore core(at);
    const Eigen::MatrixXd j = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
    const Eigen::MatrixXd map = info_->hooks.design_step_map(*fixed_, j, at.slow_count, h_);
    return judge_radius(eigenvalues(map).cwiseAbs().maxCoeff(), eigenvalues(j), h_, info_->traits.order);
  }

  // tunable_box_points' grid, tables at their values.
  void grid(const Point& values) {
    for (const TunablePoint& t : tunable_box_points(m_)) {
      Point q = values;
      for (std::size_t i = 0; i < parameters_.size(); ++i) q.parameters[i] = t.at(parameters_[i]->name);
      radius(q);
    }
  }

  void table_patterns(const Point& base) {
    const std::size_t n = tables_.size();
    if (n == 0) return;
    Point q = base;
    if (n <= kJointTables) {
      std::size_t count = 1;
      for (std::size_t i = 0; i < n; ++i) count *= std::size(kPatterns);
      for (std::size_t index = 0; index < count; ++index) {
        std::size_t rest = index;
        for (std::size_t i = 0; i < n; ++i, rest /= std::size(kPatterns))
          q.tables[i] = kPatterns[rest % std::size(kPatterns)];
        radius(q);
      }
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      q = base;
      for (Pattern p : kPatterns) {
        q.tables[i] = p;
        radius(q);
      }
    }
  }

  // The n points of largest judged radius so far (at least one).
  std::vector<Point> worst_points(std::size_t n) const {
    std::vector<std::pair<double, const Point*>> order;
    for (const auto& [point, judged] : radii_) order.emplace_back(judged, &point);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<Point> points;
    for (std::size_t i = 0; i < order.size() && i < n; ++i) points.push_back(*order[i].second);
    return points;
  }

  void compass(const Point& start) {
    if (parameters_.empty()) return;
    Point best = start;
    for (double fraction = kFirstStep; fraction >= kLastStep; fraction /= 2) {
      for (bool moved = true; moved;) {
        moved = false;
        for (std::size_t i = 0; i < parameters_.size(); ++i) {
          const Parameter& p = *parameters_[i];
          for (double sign : {-1.0, 1.0}) {
            Point q = best;
            q.parameters[i] = std::clamp(best.parameters[i] + sign * fraction * (p.max - p.min), p.min, p.max);
            if (radius(q) > radius(best)) {
              best = q;
              moved = true;
            }
          }
        }
      }
    }
  }

  std::string describe(const Point& p) const {
    std::string s;
    for (std::size_t i = 0; i < parameters_.size(); ++i)
      s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", parameters_[i]->name, p.parameters[i]);
    for (std::size_t i = 0; i < tables_.size(); ++i)
      if (p.tables[i] != Pattern::kValues)
        s += fmt::format("{}{}: {}", s.empty() ? "" : ", ", tables_[i]->name, to_string(p.tables[i]));
    return s.empty() ? "the model's values" : s;
  }

  const Model& m_;
  const std::string& scheme_;
  double h_;
  int ratio_;
  const SchemeOptions& options_;
  const SchemeDesign* fixed_ = nullptr;  // the header's design, judged at every point
  const SchemeInfo* info_ = nullptr;
  std::vector<const Parameter*> parameters_;
  std::vector<const Table*> tables_;
  std::map<Point, double> radii_;
  Point worst_;
  double worst_radius_ = 0;
  RangeStability result_;
};

}  // namespace

RangeStability stability_over_range(const Model& m, const std::string& scheme, double h, int ratio,
                                    const SchemeOptions& options, const SchemeDesign* design) {
  return Search(m, scheme, h, ratio, options, design).run();
}

}  // namespace dualrate
