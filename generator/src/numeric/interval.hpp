// Interval bounds over the box of tunable values (docs/calibration.md#a-fixed-worst-case-cost):
// what a proof that holds at every point of the calibration range needs, where a grid of points
// only samples it. Each operation's result is widened outward by a few units in the last place,
// which covers its rounding to nearest (and the elementary functions' few ulps of error), so
// that an interval contains every value the expression takes over the box.
#pragma once

#include <Eigen/Dense>
#include <ginac/ginac.h>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

struct Interval {
  double lo = 0, hi = 0;
  double magnitude() const;  // the largest |x| within
  double middle() const;
  bool contains_zero() const { return lo <= 0 && hi >= 0; }
};

// What cannot be bounded: a division by an interval that holds 0, a function the bounds do not
// know (a table), a symbol without a bound.
class IntervalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using IntervalMap = std::map<GiNaC::ex, Interval, GiNaC::ex_is_less>;

// An interval holding the value of e wherever each symbol lies within its interval in `symbols`.
Interval bound(const GiNaC::ex& e, const IntervalMap& symbols);

// A box of the tunable parameters' values: name -> [lo, hi].
using TunableBox = std::map<std::string, Interval>;

// Each tunable parameter's [min, max].
TunableBox tunable_box(const Model& m);

// Every parameter's interval over `box`, by symbol: the tunable ones as the box has them, the
// derived ones bounded from their expressions, the fixed ones their values.
IntervalMap parameter_intervals(const Model& m, const TunableBox& box);

// The entrywise bounds of a rows x cols matrix whose entries (row by row) are expressions of
// the parameters.
struct IntervalMatrix {
  Eigen::MatrixXd lo, hi;
  Eigen::MatrixXd magnitude() const;  // entrywise largest |x|
};
IntervalMatrix bound_block(const std::vector<GiNaC::ex>& entries, std::size_t rows, std::size_t cols,
                           const IntervalMap& symbols);

// An upper bound of ||.||_1 over every matrix within m.
double norm_bound(const IntervalMatrix& m);

// An upper bound of ||G^-1||_1 over every G within g, which proves each of them invertible: with
// C the inverse of g's midpoint matrix, ||I - C G||_1 <= b := || |I - C M| + |C| R ||_1 (M the
// midpoint, R the radius) and, when b < 1, ||G^-1||_1 <= ||C||_1 / (1 - b). nullopt when b >= 1
// (a narrower box may still succeed) or the midpoint matrix is singular.
std::optional<double> inverse_norm_bound(const IntervalMatrix& g);

// An upper bound of a quantity over a box, and its value at the box's middle (which says how
// loose the bound is).
struct BoxBound {
  double upper, at_middle;
};

// The largest upper bound over sub-boxes that cover `box`: a box is bisected (at the middle of
// its parameter widest relative to the whole box) while `bound_in` cannot bound it (nullopt),
// or its bound exceeds twice its middle's value, up to `max_boxes` boxes in all. nullopt when a
// box is still unbounded then.
std::optional<double> bound_over_box(const TunableBox& box,
                                     const std::function<std::optional<BoxBound>(const TunableBox&)>& bound_in,
                                     std::size_t max_boxes = 1024);

}  // namespace dualrate
