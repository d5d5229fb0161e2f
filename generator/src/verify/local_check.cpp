#include "verify/local_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dualrate {

namespace {

constexpr const char* kNextPrefix = "next:";
constexpr const char* kKeptPrefix = "kept:";
constexpr const char* kCarryPrefix = "carry:";
constexpr const char* kNextCarryPrefix = "next_carry:";

bool starts_with(const std::string& column, const char* prefix) { return column.rfind(prefix, 0) == 0; }

bool is_local(const std::string& column) {
  return starts_with(column, kNextPrefix) || starts_with(column, kKeptPrefix) || starts_with(column, kCarryPrefix) ||
         starts_with(column, kNextCarryPrefix);
}

Trace take_columns(Trace& trace, const char* prefix) {
  Trace taken_part;
  std::vector<std::size_t> kept, taken;
  for (std::size_t c = 0; c < trace.columns.size(); ++c)
    (starts_with(trace.columns[c], prefix) ? taken : kept).push_back(c);
  if (taken.empty()) return taken_part;
  for (const std::size_t c : taken) taken_part.columns.push_back(trace.columns[c].substr(std::string(prefix).size()));
  Trace rest;
  for (const std::size_t c : kept) rest.columns.push_back(trace.columns[c]);
  for (const auto& row : trace.rows) {
    if (row.size() != trace.columns.size()) throw std::runtime_error("a trace row is not as wide as its header");
    std::vector<double> a, b;
    for (const std::size_t c : kept) a.push_back(row[c]);
    for (const std::size_t c : taken) b.push_back(row[c]);
    rest.rows.push_back(std::move(a));
    taken_part.rows.push_back(std::move(b));
  }
  trace = std::move(rest);
  return taken_part;
}

// Zeros of either sign differ, any NaN equals another.
template <class T>
bool same_value(T a, T b) {
  return (a == b && std::signbit(a) == std::signbit(b)) || (std::isnan(a) && std::isnan(b));
}

}  // namespace

Trace take_next_states(Trace& trace) { return take_columns(trace, kNextPrefix); }

Trace take_kept_values(Trace& trace) { return take_columns(trace, kKeptPrefix); }

TraceCarries take_carries(Trace& trace) {
  TraceCarries c;
  c.at_row = take_columns(trace, kCarryPrefix);
  c.next = take_columns(trace, kNextCarryPrefix);
  return c;
}

Trace compensated_values(Trace states, const Trace& carries) {
  if (carries.rows.size() != states.rows.size())
    throw std::runtime_error(fmt::format("{} rows of carries for {} rows", carries.rows.size(), states.rows.size()));
  for (std::size_t k = 0; k < carries.columns.size(); ++k) {
    const auto column = std::find(states.columns.begin(), states.columns.end(), carries.columns[k]);
    if (column == states.columns.end())
      throw std::runtime_error("a carry of '" + carries.columns[k] + "', which is not a state of the trace");
    const auto c = static_cast<std::size_t>(column - states.columns.begin());
    // Both are floats printed to the digits that round-trip to them (9): the floats themselves,
    // exactly converted, differ from those decimals by more than a carry.
    for (std::size_t r = 0; r < states.rows.size(); ++r) {
      double& x = states.rows[r].at(c);
      x = static_cast<double>(static_cast<float>(x)) - static_cast<double>(static_cast<float>(carries.rows[r].at(k)));
    }
  }
  return states;
}

Trace with_carries(const Trace& generated, const Trace& carries, std::size_t states) {
  if (carries.rows.size() != generated.rows.size() || generated.columns.size() < states + 1)
    throw std::runtime_error(fmt::format("{} rows of carries for {} rows", carries.rows.size(), generated.rows.size()));
  Trace kept;
  kept.columns.assign(generated.columns.begin() + 1, generated.columns.begin() + 1 + static_cast<long>(states));
  kept.columns.insert(kept.columns.end(), carries.columns.begin(), carries.columns.end());
  for (std::size_t r = 0; r < generated.rows.size(); ++r) {
    std::vector<double> row(generated.rows[r].begin() + 1, generated.rows[r].begin() + 1 + static_cast<long>(states));
    row.insert(row.end(), carries.rows[r].begin(), carries.rows[r].end());
    kept.rows.push_back(std::move(row));
  }
  return kept;
}

Trace without_local_columns(Trace trace) {
  take_next_states(trace);
  take_kept_values(trace);
  take_carries(trace);
  return trace;
}

std::string trace_text_without_local_columns(const std::string& text) {
  std::istringstream in(text);
  std::string line, result;
  std::size_t fields = 0;  // the columns before the first local one
  for (bool header = true; std::getline(in, line); header = false) {
    if (header) {
      std::istringstream columns(line);
      for (std::string c; std::getline(columns, c, ',') && !is_local(c);) ++fields;
    }
    std::size_t cut = std::string::npos, from = 0;
    for (std::size_t f = 0; f < fields; ++f) {
      cut = line.find(',', from);
      if (cut == std::string::npos) break;
      from = cut + 1;
    }
    result += line.substr(0, cut) + '\n';
  }
  return result;
}

std::vector<long> sample_steps(long steps, long every) {
  std::vector<long> result;
  for (long n = 0; n < steps; n += every) result.push_back(n);
  result.push_back(steps);
  return result;
}

ReferenceSteps reference_steps(const Trace& generated, const Trace& next, const std::vector<long>& samples,
                               const SingleStep& step, const Trace* kept) {
  const std::size_t n = next.columns.size();
  if (generated.rows.size() != next.rows.size() || generated.rows.size() != samples.size() ||
      generated.columns.size() < n + 1 || (kept && kept->rows.size() != samples.size()))
    throw std::runtime_error(fmt::format("local check: {} rows with {} next states for {} samples",
                                         generated.rows.size(), n, samples.size()));
  for (std::size_t i = 0; i < n; ++i)
    if (next.columns[i] != generated.columns[i + 1])
      throw std::runtime_error("local check: next:" + next.columns[i] + " where next:" + generated.columns[i + 1] +
                               " was expected");
  ReferenceSteps expected;
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const auto& row = generated.rows[r];
    if (row.size() < n + 1 || next.rows[r].size() != n)
      throw std::runtime_error("local check: a trace row is shorter than its header");
    expected.rows.push_back(
        step(samples[r],
             kept ? kept->rows[r] : std::vector<double>(row.begin() + 1, row.begin() + 1 + static_cast<long>(n))));
    if (expected.rows.back().size() != n)
      throw std::runtime_error(
          fmt::format("local check: the reference step gives {} states of {}", expected.rows.back().size(), n));
  }
  return expected;
}

LocalCheck local_check(const Trace& generated, const Trace& next, const ReferenceSteps& expected,
                       const LocalTolerance& tolerance, const Eigen::VectorXd& scale) {
  const std::size_t n = next.columns.size();
  if (static_cast<std::size_t>(tolerance.operations.size()) != n || static_cast<std::size_t>(scale.size()) != n ||
      static_cast<std::size_t>(tolerance.constants.size()) != n || expected.rows.size() != next.rows.size() ||
      generated.rows.size() != next.rows.size())
    throw std::runtime_error(
        fmt::format("local check: tolerances for {} states, {} reference steps for {} states "
                    "in {} rows",
                    tolerance.operations.size(), expected.rows.size(), n, next.rows.size()));
  LocalCheck c;
  const Eigen::VectorXd step_tolerance = tolerance.operations + tolerance.constants;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  for (std::size_t r = 0; r < expected.rows.size(); ++r) {
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto k = static_cast<Eigen::Index>(i);
      const double signed_error = (next.rows[r][i] - expected.rows[r][i]) / scale[k];
      sum[k] += signed_error;
      double error = std::fabs(signed_error);
      if (std::isnan(error)) error = std::numeric_limits<double>::infinity();
      // No error is within any bound, a zero one too (a state the scenario holds at exactly 0).
      const double ratio = error == 0 ? 0.0 : error / step_tolerance[k];
      worst = std::max(worst, ratio);
      if (ratio > c.ratio || (r == 0 && i == 0)) {
        c.ratio = ratio;
        c.max_error = error;
        c.tolerance = step_tolerance[k];
        c.worst_state = generated.columns[i + 1];
        c.worst_time = generated.rows[r][0];
      }
    }
    c.times.push_back(generated.rows[r][0]);
    c.ratios.push_back(worst);
  }
  const auto samples_taken = static_cast<double>(expected.rows.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    const double bound =
        kRoundingLambda * std::sqrt(samples_taken) * tolerance.operations[k] + samples_taken * tolerance.constants[k];
    double ratio = sum[k] == 0 ? 0.0 : std::fabs(sum[k]) / bound;
    if (std::isnan(ratio)) ratio = std::numeric_limits<double>::infinity();
    if (ratio > c.bias_ratio || i == 0) {
      c.bias_ratio = ratio;
      c.bias_sum = sum[k];
      c.bias_bound = bound;
      c.bias_state = generated.columns[i + 1];
    }
  }
  return c;
}

ExactStepCheck exact_step_check(const Trace& generated, const Trace& next, const ReferenceSteps& expected,
                                bool in_float) {
  const std::size_t n = next.columns.size();
  if (expected.rows.size() != next.rows.size() || generated.rows.size() != next.rows.size())
    throw std::runtime_error(
        fmt::format("exact step check: {} reference steps for {} rows", expected.rows.size(), next.rows.size()));
  ExactStepCheck c;
  for (std::size_t r = 0; r < expected.rows.size(); ++r) {
    ++c.samples;
    for (std::size_t i = 0; i < n; ++i) {
      const double a = in_float ? static_cast<float>(next.rows[r][i]) : next.rows[r][i];
      const double b = in_float ? static_cast<float>(expected.rows[r][i]) : expected.rows[r][i];
      if (same_bits(a, b, in_float)) continue;
      if (c.differing++ == 0) {
        c.time = generated.rows[r][0];
        c.state = generated.columns[i + 1];
        c.generated = a;
        c.expected = b;
      }
      break;
    }
  }
  return c;
}

bool same_bits(double a, double b, bool in_float) {
  return in_float ? same_value(static_cast<float>(a), static_cast<float>(b)) : same_value(a, b);
}

}  // namespace dualrate
