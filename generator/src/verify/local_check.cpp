#include "verify/local_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dualrate {

namespace {

constexpr const char* kNextPrefix = "next:";

bool is_next(const std::string& column) { return column.rfind(kNextPrefix, 0) == 0; }

}  // namespace

Trace take_next_states(Trace& trace) {
  Trace next;
  std::vector<std::size_t> kept, taken;
  for (std::size_t c = 0; c < trace.columns.size(); ++c) (is_next(trace.columns[c]) ? taken : kept).push_back(c);
  if (taken.empty()) return next;
  for (const std::size_t c : taken) next.columns.push_back(trace.columns[c].substr(std::string(kNextPrefix).size()));
  Trace rest;
  for (const std::size_t c : kept) rest.columns.push_back(trace.columns[c]);
  for (const auto& row : trace.rows) {
    if (row.size() != trace.columns.size()) throw std::runtime_error("a trace row is not as wide as its header");
    std::vector<double> a, b;
    for (const std::size_t c : kept) a.push_back(row[c]);
    for (const std::size_t c : taken) b.push_back(row[c]);
    rest.rows.push_back(std::move(a));
    next.rows.push_back(std::move(b));
  }
  trace = std::move(rest);
  return next;
}

Trace without_next_states(Trace trace) {
  take_next_states(trace);
  return trace;
}

std::vector<long> sample_steps(long steps, long every) {
  std::vector<long> result;
  for (long n = 0; n < steps; n += every) result.push_back(n);
  result.push_back(steps);
  return result;
}

LocalCheck local_check(const Trace& generated, const Trace& next, const std::vector<long>& samples,
                       const SingleStep& step, const Eigen::VectorXd& tolerance, const Eigen::VectorXd& scale) {
  const auto n = static_cast<std::size_t>(tolerance.size());
  if (next.columns.size() != n || generated.rows.size() != next.rows.size() || generated.rows.size() != samples.size() ||
      generated.columns.size() < n + 1 || static_cast<std::size_t>(scale.size()) != n)
    throw std::runtime_error(fmt::format("local check: {} rows with {} next states for {} samples of {} states",
                                         generated.rows.size(), next.columns.size(), samples.size(), n));
  for (std::size_t i = 0; i < n; ++i)
    if (next.columns[i] != generated.columns[i + 1])
      throw std::runtime_error("local check: next:" + next.columns[i] + " where next:" + generated.columns[i + 1] +
                               " was expected");
  LocalCheck c;
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const std::vector<double> x(generated.rows[r].begin() + 1, generated.rows[r].begin() + 1 + static_cast<long>(n));
    const std::vector<double> expected = step(samples[r], x);
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto k = static_cast<Eigen::Index>(i);
      double error = std::fabs(next.rows[r][i] - expected[i]) / scale[k];
      if (std::isnan(error)) error = std::numeric_limits<double>::infinity();
      const double ratio = error / tolerance[k];
      worst = std::max(worst, ratio);
      if (ratio > c.ratio || (r == 0 && i == 0)) {
        c.ratio = ratio;
        c.max_error = error;
        c.tolerance = tolerance[k];
        c.worst_state = generated.columns[i + 1];
        c.worst_time = generated.rows[r][0];
      }
    }
    c.times.push_back(generated.rows[r][0]);
    c.ratios.push_back(worst);
  }
  return c;
}

}  // namespace dualrate
