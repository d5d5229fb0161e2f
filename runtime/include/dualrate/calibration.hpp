// Calibration of generated code (docs/calibration.md): the tunable values of a model live in a
// plain struct that a calibration tool writes in RAM (the generated `Calibration`, the working
// values); everything computed from them (derived parameters, tables' values, a scheme's
// precomputed matrices) is a set of constants (the generated `Constants`, which hold the values
// they were computed from: the active values) that the step reads. The tool's writes commit
// whole: it writes the values of a set, then another number into `Requests::commit`; only then does
// the background check them and compute another set, into a spare set, which it hands to the
// step, which takes it whole at its start (Handoff): no step mixes two sets, and no set mixes
// two commits.
//
//   tool:        write values ...; requests.commit = n;  wait for handled.commit == n; read status
//   background:  on another commit: status = recalibrate(values, *handoff.spare()); if applied: publish()
//   step:        handoff.take(active); then the step reads `active` only
//
// A refused set of values (not finite, outside its limits, a derived value or constant that is
// not finite in the scalar type, or beyond what the constants' fixed algorithm covers) changes
// nothing; its Status names the value by its index among the header's `status_value_names`: the
// Calibration's values (its members in order, a table's values one by one), then what
// recalibrate() recomputes. Another number in `Requests::reset` sets the working values back to the
// last applied ones.
#pragma once

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <Eigen/Core>

#include "expm.hpp"

// Version of this header's interface that generated calibration code is written for.
#define DUALRATE_CALIBRATION_API 3

namespace dualrate {
namespace calibration {

enum class Result : std::int32_t {
  kApplied = 0,              // the constants follow the values (or will, from the next step)
  kPending = 1,              // a computed set waits for the step to take it; nothing was computed
  kNotFinite = 2,            // a value is NaN or infinite
  kBelowMin = 3,             // a value is below its declared min
  kAboveMax = 4,             // a value is above its declared max
  kNotComputable = 5,        // a constant's algorithm refused (a singular matrix, a norm beyond its plan)
  kChanged = 6,              // the values changed while the constants were computed; computed again later
  kRecomputedNotFinite = 7,  // a derived parameter or recomputed constant is not finite in the scalar type
};

inline const char* to_string(Result r) noexcept {
  switch (r) {
    case Result::kApplied:
      return "applied";
    case Result::kPending:
      return "a computed set waits for the step";
    case Result::kNotFinite:
      return "not finite";
    case Result::kBelowMin:
      return "below its min";
    case Result::kAboveMax:
      return "above its max";
    case Result::kNotComputable:
      return "constants not computable";
    case Result::kChanged:
      return "changed while computed";
    case Result::kRecomputedNotFinite:
      return "a recomputed value is not finite";
  }
  return "unknown";
}

// What the last calibration did. `value`: the refused value's index among the header's
// `status_value_names` (a Calibration's value for kNotFinite, kBelowMin and kAboveMax, a
// recomputed one for kNotComputable and kRecomputedNotFinite); else -1.
struct Status {
  Result result;
  std::int32_t value;
  constexpr bool applied() const noexcept { return result == Result::kApplied; }
};

// The calibration tool's requests (written by the tool, read by calibrate()), and the requests
// calibrate() has handled (written by it after the status, read by the tool): each a number that
// the tool changes to ask again. `commit`: the values written so far form a set, to check and take
// whole. `reset`: set the working values back to those of the last set applied.
struct Requests {
  std::uint32_t commit;
  std::uint32_t reset;
};

// The value at `index` checked against its limits in its own type: the declared [min, max]
// rounded inward to Scalar by the generator, so that a value of Scalar lies within these exactly
// when it lies within the declared ones, and a write of a limit as the A2L file states it is
// applied.
template <class Scalar>
constexpr Status check(Scalar value, Scalar min, Scalar max, std::int32_t index) noexcept {
  if (!std::isfinite(value)) return {Result::kNotFinite, index};
  if (value < min) return {Result::kBelowMin, index};
  if (value > max) return {Result::kAboveMax, index};
  return {Result::kApplied, -1};
}

// Whether x, computed in double, is finite once stored as Scalar (float or double): in float,
// below the magnitude from which the conversion rounds to infinity, FLT_MAX plus half its unit
// in the last place (0x1.fffffep127 + 0x1p103).
template <class Scalar>
bool finite_in(double x) noexcept {
  static_assert(std::is_same<Scalar, float>::value || std::is_same<Scalar, double>::value, "float or double");
  if (!std::isfinite(x)) return false;
  if constexpr (std::is_same<Scalar, float>::value) return std::fabs(x) < 0x1.ffffffp127;
  return true;
}

// finite_in for every entry of a matrix.
template <class Scalar, class Matrix>
bool all_finite_in(const Matrix& m) noexcept {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (!finite_in<Scalar>(static_cast<double>(m(r, c)))) return false;
  return true;
}

// Whether two sets of values are the same bits (a Calibration has no padding: scalars only).
// Bits, not values: a write of -0 over 0, or of one NaN over another, is a change to check.
template <class Values>
bool same(const Values& a, const Values& b) noexcept {
  static_assert(std::is_trivially_copyable<Values>::value, "calibration values are plain data");
  const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
  for (std::size_t i = 0; i < sizeof(Values); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

// A copy of values that another agent (a calibration tool, through the debug port) may write at
// any time: read byte by byte through volatile, so the compiler neither caches nor elides it.
template <class Values>
Values snapshot(const Values& live) noexcept {
  static_assert(std::is_trivially_copyable<Values>::value, "calibration values are plain data");
  Values copy;
  const volatile unsigned char* from = reinterpret_cast<const volatile unsigned char*>(&live);
  unsigned char* to = reinterpret_cast<unsigned char*>(&copy);
  for (std::size_t i = 0; i < sizeof(Values); ++i) to[i] = from[i];
  return copy;
}

// Stores `value` into `word` where another agent (a calibration tool reading RAM) sees it after
// every store before it: the status before the handled request that announces it.
inline void store_after(volatile std::uint32_t& word, std::uint32_t value) noexcept {
  std::atomic_thread_fence(std::memory_order_release);
  word = value;
}

// Keeps `object` in a program linked with --gc-sections although nothing reads it (the EPK,
// which only the calibration tool reads): its address is taken by an empty asm statement.
template <class T>
void keep(const T& object) noexcept {
  __asm__ volatile("" : : "r"(&object));
}

// out = a^-1 by elimination with partial pivoting (expm's, no heap); false, out untouched,
// when a pivot is zero or the result is not finite.
template <class Matrix>
[[nodiscard]] bool invert(const Matrix& a, Matrix& out) noexcept {
  Matrix q = a;
  Matrix x = Matrix::Identity();
  expm::detail::solve_in_place(q, x);
  if (!x.allFinite()) return false;
  out = x;
  return true;
}

// The spare constants set and the hand-over to the step. One producer (the background that
// computes a set) and one consumer (the step, the only writer of the active set): the
// producer writes the spare set only while no set waits, the consumer reads it only while
// one does.
template <class Constants>
class Handoff {
 public:
  // The set to compute into, or null while a computed set waits for the step.
  Constants* spare() noexcept { return ready_.load(std::memory_order_acquire) ? nullptr : &spare_; }
  // The spare set is complete: the next take() copies it.
  void publish() noexcept { ready_.store(true, std::memory_order_release); }
  // At a step's start: copies a waiting set into `active`; whether it did.
  bool take(Constants& active) noexcept {
    if (!ready_.load(std::memory_order_acquire)) return false;
    active = spare_;
    ready_.store(false, std::memory_order_release);
    return true;
  }

 private:
  Constants spare_{};
  std::atomic<bool> ready_{false};
};

}  // namespace calibration
}  // namespace dualrate
