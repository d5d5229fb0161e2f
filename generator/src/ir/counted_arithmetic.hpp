// Scalars and vectors that hold no values, only a vector's size, and count the arithmetic done
// on them into an OpCount: a step formula written over an arithmetic (schemes/sp_ll/
// step_formula.hpp) run on them gives its operation count as written.
#pragma once

#include <Eigen/Core>

#include "ir/op_count.hpp"

namespace dualrate {

// A scalar of the counted arithmetic. A literal (CountedScalar(2)) counts nowhere; an operation
// counts into the OpCount of the operand that has one.
class CountedScalar {
 public:
  CountedScalar(double /*literal*/ = 0) {}  // NOLINT(google-explicit-constructor): literals convert as for T
  explicit CountedScalar(OpCount& ops) : ops_(&ops) {}

  OpCount* ops() const { return ops_; }

  friend CountedScalar operator+(const CountedScalar& a, const CountedScalar& b) { return counted(a, b, 1, 0, 0); }
  friend CountedScalar operator-(const CountedScalar& a, const CountedScalar& b) { return counted(a, b, 1, 0, 0); }
  friend CountedScalar operator*(const CountedScalar& a, const CountedScalar& b) { return counted(a, b, 0, 1, 0); }
  friend CountedScalar operator/(const CountedScalar& a, const CountedScalar& b) { return counted(a, b, 0, 0, 1); }
  CountedScalar& operator+=(const CountedScalar& b) { return *this = *this + b; }

 private:
  static CountedScalar counted(const CountedScalar& a, const CountedScalar& b, long add, long mul, long div) {
    OpCount* ops = a.ops_ ? a.ops_ : b.ops_;
    if (ops) *ops += arithmetic(add, mul, div);
    CountedScalar r;
    r.ops_ = ops;
    return r;
  }
  OpCount* ops_ = nullptr;
};

// Scalar(i) of an integer i known only at run time (the runtime's Scalar(j) / Scalar(R), j the
// tick in its macro step): in T, i's value; on counted sizes a scalar that counts where `like`
// does, for a literal would count nowhere.
template <class T>
T run_time_value(long i, const T& /*like*/) {
  return static_cast<T>(i);
}
inline CountedScalar run_time_value(long /*i*/, const CountedScalar& like) {
  return like.ops() ? CountedScalar(*like.ops()) : CountedScalar();
}

// A vector of `rows` entries of the counted arithmetic: each elementwise operation counts one
// operation per entry into `ops`.
class CountedVector {
 public:
  CountedVector(Eigen::Index rows, OpCount& ops) : rows_(rows), ops_(&ops) {}

  Eigen::Index rows() const { return rows_; }
  OpCount& ops() const { return *ops_; }

  CountedVector& operator+=(const CountedVector& v) { return *this = *this + v; }
  CountedVector& operator-=(const CountedVector& v) { return *this = *this - v; }

  friend CountedVector operator+(const CountedVector& a, const CountedVector&) { return a.counted(1, 0, 0); }
  friend CountedVector operator-(const CountedVector& a, const CountedVector&) { return a.counted(1, 0, 0); }
  friend CountedVector operator*(const CountedScalar&, const CountedVector& v) { return v.counted(0, 1, 0); }
  friend CountedVector operator/(const CountedVector& v, const CountedScalar&) { return v.counted(0, 0, 1); }

 private:
  CountedVector counted(long add, long mul, long div) const {
    *ops_ += arithmetic(add * rows_, mul * rows_, div * rows_);
    return *this;
  }
  Eigen::Index rows_;
  OpCount* ops_;
};

}  // namespace dualrate
