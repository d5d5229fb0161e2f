#include "budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dualrate {

namespace {

struct Responses {
  double fast = 0, slow = -1;  // cycles; slow -1 without a slow task
};

// Response times in cycles at `hz` (the periods in cycles depend on it); `fast` and `slow`
// include their tasks' overheads O. The slow iteration stops at its fixed point or as soon as
// it passes the deadline (the value then only says that it missed).
Responses responses(double fast, double slow, double h, int ratio, double hz) {
  Responses r;
  r.fast = fast;
  if (slow < 0) return r;
  const double tick = h * hz, deadline = tick * ratio;
  double response = slow;
  for (int i = 0; i < 1000; ++i) {
    const double next = slow + std::ceil(response / tick) * r.fast;
    if (next == response) break;
    response = next;
    if (response > deadline) break;
  }
  r.slow = response;
  return r;
}

bool fits(const Responses& r, double h, int ratio, double hz) {
  return r.fast <= h * hz && (r.slow < 0 || r.slow <= h * ratio * hz);
}

}  // namespace

Budget schedule(const JobCost& fast, const JobCost& slow, double h, int ratio, const std::string& part, double cpu_hz,
                double cpi, long overhead_cycles) {
  Budget b;
  b.part = part;
  b.cpu_hz = cpu_hz;
  b.cpi = cpi;
  b.overhead_cycles = overhead_cycles;
  const auto overhead = [&](const JobCost& c) {
    return static_cast<double>(overhead_cycles) + static_cast<double>(std::max(0L, c.handler_instructions_max)) * cpi;
  };
  b.fast_cycles_max = static_cast<double>(fast.instructions_max) * cpi;
  b.fast_overhead = overhead(fast);
  const bool dual = slow.instructions_max >= 0;
  if (dual) {
    b.slow_cycles_max = static_cast<double>(slow.instructions_max) * cpi;
    b.slow_overhead = overhead(slow);
  }
  const double fast_total = b.fast_cycles_max + b.fast_overhead;
  const double slow_total = dual ? b.slow_cycles_max + b.slow_overhead : -1;
  const Responses r = responses(fast_total, slow_total, h, ratio, cpu_hz);
  b.fast_response = r.fast / cpu_hz;
  b.slow_response = dual ? r.slow / cpu_hz : -1;
  b.utilization = fast_total / (h * cpu_hz) + (dual ? slow_total / (h * ratio * cpu_hz) : 0.0);
  b.schedulable = fits(r, h, ratio, cpu_hz);
  b.margin = 1 - b.fast_response / h;
  if (dual) b.margin = std::min(b.margin, 1 - b.slow_response / (h * ratio));
  if (b.fast_response > h)
    b.verdict = fmt::format("the fast task needs {:.0f} cycles per job ({:.0f} of its code at CPI {:.3g}, {:.0f} of "
                            "interrupt entry, exit and handler) but has {:.0f}: its period h = {:.6g} s at {:.6g} MHz",
                            r.fast, b.fast_cycles_max, cpi, b.fast_overhead, h * cpu_hz, h, cpu_hz / 1e6);
  else if (dual && !b.schedulable)
    b.verdict = fmt::format("the slow task's response time is {:.0f} cycles ({:.0f} of its own code at CPI {:.3g}, "
                            "preempted by fast jobs of {:.0f} cycles each) but its budget is {:.0f}: its period H = "
                            "{} h = {:.6g} s at {:.6g} MHz",
                            r.slow, b.slow_cycles_max, cpi, r.fast, h * ratio * cpu_hz, ratio, h * ratio, cpu_hz / 1e6);
  // fits() is monotone in the clock: bisect between a clock that fits and one that does not.
  double lo = 1, hi = cpu_hz;
  while (!fits(responses(fast_total, slow_total, h, ratio, hi), h, ratio, hi)) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-6 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (fits(responses(fast_total, slow_total, h, ratio, mid), h, ratio, mid) ? hi : lo) = mid;
  }
  b.min_cpu_hz = hi;
  return b;
}

std::string Budget::json() const {
  std::string s = fmt::format(
      ",\"part\":\"{}\",\"cpu_hz\":{:.17g},\"cpi\":{:.17g},\"interrupt_entry_exit_cycles\":{},"
      "\"fast_job_cycles_max\":{:.17g},\"fast_overhead_cycles\":{:.17g},\"fast_response_time\":{:.17g}",
      part, cpu_hz, cpi, overhead_cycles, fast_cycles_max, fast_overhead, fast_response);
  if (slow_cycles_max >= 0)
    s += fmt::format(",\"slow_job_cycles_max\":{:.17g},\"slow_overhead_cycles\":{:.17g},\"slow_response_time\":{:.17g}",
                     slow_cycles_max, slow_overhead, slow_response);
  return s + fmt::format(",\"utilization\":{:.6g},\"schedulable\":{},\"margin\":{:.6g},\"min_cpu_hz\":{:.6g}",
                         utilization, schedulable ? "true" : "false", margin, min_cpu_hz);
}

}  // namespace dualrate
