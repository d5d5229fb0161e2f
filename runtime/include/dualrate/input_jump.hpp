// Steps in an input. An input's `jump:` in the model file (docs/model-files.md) is the
// smallest change between two consecutive samples that is a step; the generated Model then
// declares static constexpr std::array<Scalar, kInputs> input_jumps (0: the input is not
// watched). A multistep scheme restarts its history at a step (schemes/mrabm4.hpp): the
// derivatives it kept from before the step are of another input, and an Adams formula that
// mixes them with those after it adds a share of the step to every state that integrates the
// input, for good (a state of charge counted from a current keeps that offset).
#pragma once

#include <cstddef>
#include <type_traits>

namespace dualrate {

// Whether M declares input_jumps.
template <class M, class = void>
struct DetectsJumps : std::false_type {};
template <class M>
struct DetectsJumps<M, std::void_t<decltype(M::input_jumps)>> : std::true_type {};

// Whether an input stepped from sample `before` to the next sample `now`: |now_i - before_i|
// above jump_i, in Scalar, for an input with jump_i > 0 (a non-finite sample is no step:
// the scheme reports the non-finite state it makes).
template <class M>
bool input_jumped(const typename M::Input& before, const typename M::Input& now) noexcept {
  if constexpr (DetectsJumps<M>::value) {
    for (int i = 0; i < M::kInputs; ++i) {
      const typename M::Scalar jump = M::input_jumps[static_cast<std::size_t>(i)];
      const typename M::Scalar change = now(i) - before(i);
      if (jump > 0 && (change > jump || change < -jump)) return true;
    }
  } else {
    static_cast<void>(before);
    static_cast<void>(now);
  }
  return false;
}

// The sample a watching scheme compares the next one with; nothing without input_jumps.
template <class M, bool = DetectsJumps<M>::value>
struct LastSample {
  static bool jumped(const typename M::Input&) noexcept { return false; }
  void took(const typename M::Input&) noexcept {}
};
template <class M>
struct LastSample<M, true> {
  typename M::Input sample = M::default_inputs();
  bool jumped(const typename M::Input& now) const noexcept { return input_jumped<M>(sample, now); }
  void took(const typename M::Input& now) noexcept { sample = now; }
};

}  // namespace dualrate
