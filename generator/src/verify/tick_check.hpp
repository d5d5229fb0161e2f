// verify's check of the dual-rate tasks at every tick: their state and outputs before each fast
// task (dualrate::DualRate::state(), outputs(); the task program's ticks mode) against the
// reference core's (ReferenceCore::tick_trace), bit for bit.
#pragma once

#include "base/trace.hpp"
#include "verify/result.hpp"

namespace dualrate {

// The most tick rows a check reads: a run of more ticks is checked at every `every`-th one.
inline constexpr long kMostTickRows = 200000;

// Every how many ticks a run of `ticks` ticks with rate ratio `ratio` is checked: 1, or the
// smallest spacing that keeps the rows within kMostTickRows and is coprime with `ratio`, so
// that the rows still fall on every tick position within a macro step.
int tick_every(long ticks, int ratio);

// The generated rows against the reference core's: columns 1 on (states, outputs) equal bit for
// bit. Throws std::runtime_error when their shapes differ.
TickCheck compare_tick_rows(const Trace& generated, const Trace& reference, int every);

}  // namespace dualrate
