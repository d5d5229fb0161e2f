// What the runtime expects of a model. Generated headers define one such struct per model;
// the struct is immutable (static functions and constants only): mutable data lives in
// dualrate::Data.
//
//   struct Model {
//     using Scalar = float | double;
//     using Time = Scalar | double;   // of t: double where the model's equations or scenario use t
//     static constexpr int kSlow, kFast, kInputs, kOutputs;   // sizes, fixed here only
//     static constexpr int kStates = kSlow + kFast;           // x = [slow; fast]
//     using State  = Eigen::Matrix<Scalar, kStates, 1>;
//     using Input  = Eigen::Matrix<Scalar, kInputs, 1>;
//     using Output = Eigen::Matrix<Scalar, kOutputs, 1>;
//     using SlowState = Eigen::Matrix<Scalar, kSlow, 1>;
//     using FastState = Eigen::Matrix<Scalar, kFast, 1>;
//     static State  initial_state() noexcept;
//     static Input  default_inputs() noexcept;
//     static void derivatives(Time t, const State& x, const Input& u, State& dxdt) noexcept;
//     static void slow_derivatives(Time t, const State& x, const Input& u, SlowState& dxdt) noexcept;
//                                  // the first kSlow rows of derivatives() alone
//     static void fast_derivatives(Time t, const State& x, const Input& u, FastState& dxdt) noexcept;
//                                  // the last kFast rows of derivatives() alone
//     static void outputs(Time t, const State& x, const Input& u, Output& y) noexcept;
//   };
#pragma once

#include <type_traits>

#include <Eigen/Core>

namespace dualrate {

template <class M>
struct ModelChecks {
  static_assert(std::is_same<typename M::Scalar, float>::value || std::is_same<typename M::Scalar, double>::value,
                "dualrate: Model::Scalar must be float or double");
  static_assert(std::is_same<typename M::Time, typename M::Scalar>::value ||
                    std::is_same<typename M::Time, double>::value,
                "dualrate: Model::Time must be Scalar or double");
  static_assert(M::kSlow >= 0 && M::kFast >= 0 && M::kInputs >= 0 && M::kOutputs >= 0,
                "dualrate: model sizes must be non-negative");
  static_assert(M::kStates == M::kSlow + M::kFast && M::kStates > 0,
                "dualrate: a model needs at least one state, and kStates = kSlow + kFast");
  static_assert(std::is_same<typename M::State, Eigen::Matrix<typename M::Scalar, M::kStates, 1>>::value,
                "dualrate: Model::State must be a fixed-size column vector of kStates");
  static constexpr bool value = true;
};

}  // namespace dualrate
