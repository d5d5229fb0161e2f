#include "numeric/interval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/tunable.hpp"

namespace dualrate {

double Interval::magnitude() const { return std::max(std::fabs(lo), std::fabs(hi)); }
double Interval::middle() const { return lo + 0.5 * (hi - lo); }

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Outward widening: one ulp covers an operation rounded to nearest; four the elementary
// functions of libm (within a few ulps).
constexpr int kOperationUlps = 1;
constexpr int kFunctionUlps = 4;
constexpr double kPi = 3.141592653589793;

Interval widened(double lo, double hi, int ulps) {
  if (std::isnan(lo) || std::isnan(hi)) throw IntervalError("a value is not a number over the box");
  for (int i = 0; i < ulps; ++i) {
    lo = std::nextafter(lo, -kInf);
    hi = std::nextafter(hi, kInf);
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) throw IntervalError("a value is not finite over the box");
  return {lo, hi};
}

Interval add(Interval a, Interval b) { return widened(a.lo + b.lo, a.hi + b.hi, kOperationUlps); }

Interval multiply(Interval a, Interval b) {
  const double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return widened(*std::min_element(p, p + 4), *std::max_element(p, p + 4), kOperationUlps);
}

Interval reciprocal(Interval a) {
  if (a.contains_zero()) throw IntervalError("a division by a value that reaches 0 over the box");
  return widened(1 / a.hi, 1 / a.lo, kOperationUlps);
}

// a^n: increasing for odd n, from the smallest to the largest |a| for even n.
Interval integer_power(Interval a, long n) {
  if (n < 0) return reciprocal(integer_power(a, -n));
  const double p = static_cast<double>(n);
  if (n % 2 == 1) return widened(std::pow(a.lo, p), std::pow(a.hi, p), kFunctionUlps);
  const double least = a.contains_zero() ? 0.0 : std::min(std::fabs(a.lo), std::fabs(a.hi));
  return widened(std::pow(least, p), std::pow(a.magnitude(), p), kFunctionUlps);
}

// f increasing on [a.lo, a.hi] (within its domain).
template <class F>
Interval increasing(Interval a, F f) {
  return widened(f(a.lo), f(a.hi), kFunctionUlps);
}

// sin over a, from the extremes it passes: 1 at pi/2 + 2k pi, -1 at 3 pi/2 + 2k pi.
Interval sine(Interval a) {
  if (a.hi - a.lo >= 2 * kPi) return {-1, 1};
  const auto passes = [&](double at) {  // whether at + 2k pi lies within a for some k
    return std::floor((a.hi - at) / (2 * kPi)) >= std::ceil((a.lo - at) / (2 * kPi));
  };
  Interval r =
      widened(std::min(std::sin(a.lo), std::sin(a.hi)), std::max(std::sin(a.lo), std::sin(a.hi)), kFunctionUlps);
  if (passes(kPi / 2)) r.hi = 1;
  if (passes(3 * kPi / 2)) r.lo = -1;
  return {std::max(r.lo, -1.0), std::min(r.hi, 1.0)};
}

Interval require_within(Interval a, double lo, double hi, const char* function) {
  if (a.lo < lo || a.hi > hi)
    throw IntervalError(fmt::format("{} of a value that leaves its domain [{}, {}] over the box", function, lo, hi));
  return a;
}

Interval function_bound(const GiNaC::function& f, const std::vector<Interval>& args) {
  const std::string name = f.get_name();
  const Interval a = args.at(0);
  if (name == "exp") return increasing(a, [](double x) { return std::exp(x); });
  if (name == "log") {
    if (a.lo <= 0) throw IntervalError("log of a value that reaches 0 or below over the box");
    return increasing(a, [](double x) { return std::log(x); });
  }
  if (name == "sin") return sine(a);
  if (name == "cos") return sine(add(a, {kPi / 2, kPi / 2}));
  if (name == "tan") {
    if (std::floor((a.lo + kPi / 2) / kPi) != std::floor((a.hi + kPi / 2) / kPi))
      throw IntervalError("tan of a value that passes a pole over the box");
    return increasing(a, [](double x) { return std::tan(x); });
  }
  if (name == "asin") return increasing(require_within(a, -1, 1, "asin"), [](double x) { return std::asin(x); });
  if (name == "acos") {
    require_within(a, -1, 1, "acos");
    return widened(std::acos(a.hi), std::acos(a.lo), kFunctionUlps);
  }
  if (name == "atan") return increasing(a, [](double x) { return std::atan(x); });
  if (name == "atan2") return {-kPi - 1e-15, kPi + 1e-15};
  if (name == "sinh") return increasing(a, [](double x) { return std::sinh(x); });
  if (name == "tanh") return increasing(a, [](double x) { return std::tanh(x); });
  if (name == "cosh") {
    const double top = std::cosh(a.magnitude());
    const double bottom = a.contains_zero() ? 1.0 : std::cosh(std::min(std::fabs(a.lo), std::fabs(a.hi)));
    return widened(bottom, top, kFunctionUlps);
  }
  if (name == "dr_abs") return {a.contains_zero() ? 0.0 : std::min(std::fabs(a.lo), std::fabs(a.hi)), a.magnitude()};
  if (name == "dr_sign") return {a.lo > 0 ? 1.0 : a.lo == 0 ? 0.0 : -1.0, a.hi < 0 ? -1.0 : a.hi == 0 ? 0.0 : 1.0};
  if (name == "dr_step") return {a.lo >= 0 ? 1.0 : 0.0, a.hi >= 0 ? 1.0 : 0.0};
  if (name == "dr_min") return {std::min(a.lo, args.at(1).lo), std::min(a.hi, args.at(1).hi)};
  if (name == "dr_max") return {std::max(a.lo, args.at(1).lo), std::max(a.hi, args.at(1).hi)};
  if (name == "dr_time") return a;
  throw IntervalError("a call of " + name + ", which the bounds do not cover (a table's values)");
}

Interval power_bound(const GiNaC::ex& base, const GiNaC::ex& exponent, const IntervalMap& symbols) {
  const Interval b = bound(base, symbols);
  if (!GiNaC::is_a<GiNaC::numeric>(exponent)) throw IntervalError("a power whose exponent is not a number");
  const GiNaC::numeric p = GiNaC::ex_to<GiNaC::numeric>(exponent);
  if (p.is_integer()) return integer_power(b, p.to_long());
  if (!p.is_real()) throw IntervalError("a power with a complex exponent");
  const double q = p.to_double();
  if (b.lo < 0 || (q < 0 && b.lo <= 0))
    throw IntervalError("a fractional power of a value that reaches 0 or below over the box");
  const double at_lo = std::pow(b.lo, q), at_hi = std::pow(b.hi, q);
  return widened(std::min(at_lo, at_hi), std::max(at_lo, at_hi), kFunctionUlps);
}

}  // namespace

Interval bound(const GiNaC::ex& e, const IntervalMap& symbols) {
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    const GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(e);
    if (!n.is_real()) throw IntervalError("a complex number");
    const double v = n.to_double();
    return widened(v, v, kOperationUlps);
  }
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto found = symbols.find(e);
    if (found == symbols.end())
      throw IntervalError("symbol " + GiNaC::ex_to<GiNaC::symbol>(e).get_name() + " has no bound");
    return found->second;
  }
  if (GiNaC::is_a<GiNaC::add>(e)) {
    Interval s = bound(e.op(0), symbols);
    for (std::size_t i = 1; i < e.nops(); ++i) s = add(s, bound(e.op(i), symbols));
    return s;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    Interval s = bound(e.op(0), symbols);
    for (std::size_t i = 1; i < e.nops(); ++i) s = multiply(s, bound(e.op(i), symbols));
    return s;
  }
  if (GiNaC::is_a<GiNaC::power>(e)) return power_bound(e.op(0), e.op(1), symbols);
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::vector<Interval> args;
    for (const GiNaC::ex& arg : e) args.push_back(bound(arg, symbols));
    return function_bound(GiNaC::ex_to<GiNaC::function>(e), args);
  }
  throw IntervalError("an expression the bounds do not cover");
}

TunableBox tunable_box(const Model& m) {
  TunableBox box;
  for (const Parameter& p : m.parameters)
    if (p.tunable) box[p.name] = {p.min, p.max};
  return box;
}

IntervalMap parameter_intervals(const Model& m, const TunableBox& box) {
  IntervalMap out;
  for (const Parameter& p : m.parameters) {
    if (p.tunable) {
      out[p.symbol] = box.at(p.name);
    } else if (depends_on_tunable(m, p)) {
      out[p.symbol] = bound(p.expr, out);
    } else {
      out[p.symbol] = {p.value, p.value};
    }
  }
  return out;
}

Eigen::MatrixXd IntervalMatrix::magnitude() const { return lo.cwiseAbs().cwiseMax(hi.cwiseAbs()); }

IntervalMatrix bound_block(const std::vector<GiNaC::ex>& entries, std::size_t rows, std::size_t cols,
                           const IntervalMap& symbols) {
  IntervalMatrix m{Eigen::MatrixXd(rows, cols), Eigen::MatrixXd(rows, cols)};
  for (std::size_t k = 0; k < rows * cols; ++k) {
    const Interval b = bound(entries[k], symbols);
    m.lo(k / cols, k % cols) = b.lo;
    m.hi(k / cols, k % cols) = b.hi;
  }
  return m;
}

namespace {

// An upper bound of the largest column sum of a nonnegative matrix: summed in double and
// widened by one ulp per addition.
double column_sum_bound(const Eigen::MatrixXd& nonnegative) {
  double largest = 0;
  for (Eigen::Index c = 0; c < nonnegative.cols(); ++c) {
    double s = 0;
    for (Eigen::Index r = 0; r < nonnegative.rows(); ++r) s = std::nextafter(s + nonnegative(r, c), kInf);
    largest = std::max(largest, s);
  }
  return largest;
}

}  // namespace

double norm_bound(const IntervalMatrix& m) { return column_sum_bound(m.magnitude()); }

std::optional<double> inverse_norm_bound(const IntervalMatrix& g) {
  const Eigen::MatrixXd middle = 0.5 * (g.lo + g.hi);
  const Eigen::MatrixXd radius = (0.5 * (g.hi - g.lo)).cwiseAbs();
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(middle);
  if (!lu.isInvertible()) return std::nullopt;
  const Eigen::MatrixXd c = lu.inverse();
  const Eigen::Index n = middle.rows();
  // |I - C M| + |C| R, each entry rounded up: n products summed per entry, n ulps of each.
  Eigen::MatrixXd residual = (Eigen::MatrixXd::Identity(n, n) - c * middle).cwiseAbs() + c.cwiseAbs() * radius;
  const double rounding = 4.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon();
  residual = residual.array() + rounding * (c.cwiseAbs() * middle.cwiseAbs()).array();
  const double b = column_sum_bound(residual);
  if (!(b < 1)) return std::nullopt;
  return std::nextafter(column_sum_bound(c.cwiseAbs()) / (1 - b) * (1 + rounding), kInf);
}

std::optional<double> bound_over_box(const TunableBox& box,
                                     const std::function<std::optional<BoxBound>(const TunableBox&)>& bound_in,
                                     std::size_t max_boxes) {
  std::vector<TunableBox> open = {box};
  std::size_t boxes = 1;
  double largest = 0;
  while (!open.empty()) {
    const TunableBox b = open.back();
    open.pop_back();
    std::optional<BoxBound> found;
    try {
      found = bound_in(b);
    } catch (const IntervalError&) {
      found = std::nullopt;
    }
    const bool loose = found && found->upper > 2 * found->at_middle;
    if ((!found || loose) && boxes + 1 <= max_boxes && !b.empty()) {
      std::string widest;
      double width = -1;
      for (const auto& [name, range] : b) {
        const Interval& whole = box.at(name);
        const double relative = whole.hi > whole.lo ? (range.hi - range.lo) / (whole.hi - whole.lo) : 0;
        if (relative > width) {
          width = relative;
          widest = name;
        }
      }
      if (width > 0) {
        TunableBox lower = b, upper = b;
        lower[widest].hi = upper[widest].lo = b.at(widest).middle();
        open.push_back(lower);
        open.push_back(upper);
        ++boxes;
        continue;
      }
    }
    if (!found) return std::nullopt;
    largest = std::max(largest, found->upper);
  }
  return largest;
}

}  // namespace dualrate
