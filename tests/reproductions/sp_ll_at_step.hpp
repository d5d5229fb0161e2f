// sp_ll's constants for a step chosen at run time, for tests that step runtime's SpLl on
// matrices they vary: the generated SchemeConstants' interface (a function v -> M v per
// matrix, runtime/include/dualrate/schemes/sp_ll.hpp) over dense column-major storage.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <map>
#include <string>

#include "dualrate/schedule.hpp"

#include "schemes/sp_ll/sp_ll.hpp"

namespace dualrate_test {

template <class M>
struct SpLlAtStep {
  using Scalar = typename M::Scalar;
  static constexpr int ns = M::kSlow, nf = M::kFast;
  using Slow = Eigen::Matrix<Scalar, ns, 1>;
  using Fast = Eigen::Matrix<Scalar, nf, 1>;

  static void set(const dualrate::SpLlBlocks& blocks, double h) {
    const std::map<std::string, Scalar*> slots = {{"gz_inv", gz_inv_}, {"k", k_},   {"fz", fz_}, {"a", a_},
                                                  {"p1", p1_},         {"p2", p2_}, {"q1", q1_}, {"q2", q2_}};
    for (const dualrate::NamedMatrix& c : dualrate::sp_ll_constants(blocks, h))
      std::copy_n(c.value.data(), c.value.size(), slots.at(c.name));
  }

  using Schedule = dualrate::Unscheduled;
  static Schedule schedule(Scalar, const typename M::State&, const typename M::Input&) noexcept { return {}; }

  static Fast gz_inv(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(gz_inv_, v); }
  static Fast k(const Schedule&, const Slow& v) noexcept { return apply<nf, ns>(k_, v); }
  static Slow fz(const Schedule&, const Fast& v) noexcept { return apply<ns, nf>(fz_, v); }
  static Fast a(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(a_, v); }
  static Fast p1(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(p1_, v); }
  static Fast p2(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(p2_, v); }
  static Fast q1(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(q1_, v); }
  static Fast q2(const Schedule&, const Fast& v) noexcept { return apply<nf, nf>(q2_, v); }

 private:
  template <int R, int K>
  static Eigen::Matrix<Scalar, R, 1> apply(const Scalar* m, const Eigen::Matrix<Scalar, K, 1>& v) noexcept {
    return Eigen::Map<const Eigen::Matrix<Scalar, R, K>>(m) * v;
  }
  static inline Scalar gz_inv_[nf * nf], k_[nf * ns], fz_[ns * nf], a_[nf * nf];
  static inline Scalar p1_[nf * nf], p2_[nf * nf], q1_[nf * nf], q2_[nf * nf];
};

}  // namespace dualrate_test
