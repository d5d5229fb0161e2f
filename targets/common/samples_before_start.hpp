// The samples a scenario's task took before its first step (the model file's
// simulation: inputs_before_start: sampled, which the generated header declares as
// Model::scenario_sampled_before_start): Model::scenario_inputs at t_0 - 2h and t_0 - h, at
// the times the reference core samples them (-2h and -h, in Time), handed to the samples a
// held model's Data or dual-rate Tasks keep. Nothing for any other model.
#pragma once

#include <type_traits>

namespace dualrate_trace {

template <class M, class = void>
struct SampledBeforeStart : std::false_type {};
template <class M>
struct SampledBeforeStart<M, std::void_t<decltype(M::scenario_sampled_before_start)>> : std::true_type {};

template <class M, class Samples>
void take_scenario_samples(Samples& samples, typename M::Time t0, typename M::Scalar h) {
  using Time = typename M::Time;
  samples.took(M::scenario_inputs(t0 - Time(2) * static_cast<Time>(h)));
  samples.took(M::scenario_inputs(t0 - static_cast<Time>(h)));
}

// A single-rate model's Data d before its first step of size h.
template <class M, class Data>
void take_samples_before_start(Data& d, typename M::Scalar h) {
  if constexpr (SampledBeforeStart<M>::value) take_scenario_samples<M>(d.samples, d.time(h), h);
}

// A dual-rate model's Tasks before its first tick.
template <class Tasks>
void take_samples_before_start(Tasks& tasks) {
  using M = typename Tasks::Model;
  if constexpr (SampledBeforeStart<M>::value)
    take_scenario_samples<M>(tasks.input_samples(), static_cast<typename M::Time>(0), tasks.step());
}

}  // namespace dualrate_trace
