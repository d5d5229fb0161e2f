#include "verify/tick_check.hpp"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

namespace dualrate {

int tick_every(long ticks, int ratio) {
  long every = std::max(1L, (ticks + kMostTickRows - 1) / kMostTickRows);
  while (every > 1 && std::gcd(every, static_cast<long>(ratio)) != 1) ++every;
  return static_cast<int>(every);
}

TickCheck compare_tick_rows(const Trace& generated, const Trace& reference, int every) {
  if (generated.rows.size() != reference.rows.size() || generated.columns.size() != reference.columns.size())
    throw std::runtime_error(
        fmt::format("the tasks' tick rows ({} rows of {} columns) do not match the reference "
                    "core's ({} of {})",
                    generated.rows.size(), generated.columns.size(), reference.rows.size(), reference.columns.size()));
  TickCheck c;
  c.every = every;
  c.samples = static_cast<long>(generated.rows.size());
  for (std::size_t i = 0; i < generated.rows.size(); ++i) {
    const auto& a = generated.rows[i];
    const auto& b = reference.rows[i];
    bool equal = a.size() == b.size();
    for (std::size_t j = 1; equal && j < a.size(); ++j) equal = a[j] == b[j];
    if (equal) continue;
    if (c.differing++ == 0) c.first_differing_time = b.front();
  }
  return c;
}

}  // namespace dualrate
