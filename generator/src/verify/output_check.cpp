#include "verify/output_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "reference/output_sensitivity.hpp"
#include "schemes/reference_core.hpp"

namespace dualrate {

namespace {

bool same_bits(double a, double b, bool in_float) {
  if (std::isnan(a) && std::isnan(b)) return true;
  if (in_float) return static_cast<float>(a) == static_cast<float>(b) &&
                       std::signbit(static_cast<float>(a)) == std::signbit(static_cast<float>(b));
  return a == b && std::signbit(a) == std::signbit(b);
}

// The rows the tolerances are taken at: at most kSampledRows, evenly spaced, and the last (the
// derivatives of the outputs are interpreted expression trees: too costly at every row of a long run).
constexpr std::size_t kSampledRows = 1000;
std::vector<std::size_t> sampled_rows(std::size_t rows) {
  const std::size_t stride = (rows + kSampledRows - 1) / kSampledRows;
  std::vector<std::size_t> sampled;
  for (std::size_t r = 0; r < rows; r += stride) sampled.push_back(r);
  if (rows > 0 && sampled.back() != rows - 1) sampled.push_back(rows - 1);
  return sampled;
}

// error / tolerance: 0 for no error, infinite for a NaN.
double ratio_of(double error, double tolerance) {
  if (error == 0) return 0;
  const double r = error / tolerance;
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
}

}  // namespace

OutputCheck check_outputs(const Trace& generated, const Trace& reference, const Model& model,
                          const ReferenceCore& core, const RunOptions& run, bool in_float, double state_tolerance,
                          const std::vector<double>& state_scale) {
  const std::size_t n = model.states.size(), m = model.outputs.size();
  if (generated.rows.size() != reference.rows.size() || generated.columns.size() != 1 + n + m ||
      reference.columns.size() != 1 + n + m)
    throw std::runtime_error(fmt::format("output check: {} rows x {} columns against {} rows x {} columns for {} "
                                         "states and {} outputs",
                                         generated.rows.size(), generated.columns.size(), reference.rows.size(),
                                         reference.columns.size(), n, m));
  OutputCheck c;
  c.exact_skipped = output_exact_difference(model);
  if (m == 0) return c;
  const double h = run.step, u = std::ldexp(1.0, in_float ? -24 : -53);
  const int stride = calibration_stride(run, false);
  const ReferenceCores cores(core, model, run.calibration, h, stride);
  const OutputSensitivity base(model);
  const CalibratedCores<OutputSensitivity> sensitivities(base, model, run.calibration, h, stride);
  const auto column = [](const std::vector<double>& row, std::size_t from, std::size_t count) {
    return std::vector<double>(row.begin() + static_cast<long>(from), row.begin() + static_cast<long>(from + count));
  };
  // Per output: its scale, and from the sampled rows its tolerance against the reference run and
  // its rounding rho (both absolute).
  std::vector<double> scale(m, 1.0), rho(m, 0.0), carried(m, 0.0);
  for (const auto& row : reference.rows)
    for (std::size_t k = 0; k < m; ++k) scale[k] = std::max(scale[k], std::fabs(row[1 + n + k]));
  for (const std::size_t r : sampled_rows(reference.rows.size())) {
    const auto& ref = reference.rows[r];
    const long i = std::lround(ref[0] / h);
    const double t = sample_time(i, h, in_float);
    const std::vector<double> inputs = cores.at(i).inputs_at(t, in_float);
    const OutputSensitivity& sensitivity = sensitivities.at(i);
    const OutputSensitivity::At s = sensitivity.at(t, column(generated.rows[r], 1, n), inputs);
    const Eigen::MatrixXd d_dx =
        s.d_dx.cwiseAbs().cwiseMax(sensitivity.at(t, column(ref, 1, n), inputs).d_dx.cwiseAbs());
    for (std::size_t k = 0; k < m; ++k) {
      const auto ks = static_cast<Eigen::Index>(k);
      const double rounding = (sensitivity.operations()[k] + 1) * u * s.terms(ks);
      double through = rounding;
      for (std::size_t j = 0; j < n; ++j)
        through += d_dx(ks, static_cast<Eigen::Index>(j)) * state_tolerance * state_scale[j];
      rho[k] = std::max(rho[k], rounding);
      carried[k] = std::max(carried[k], through);
    }
  }
  for (std::size_t r = 0; r < generated.rows.size(); ++r) {
    const auto& g = generated.rows[r];
    const auto& ref = reference.rows[r];
    const long i = std::lround(ref[0] / h);
    const ReferenceCore& at = cores.at(i);
    const double t = sample_time(i, h, in_float);
    const std::vector<double> inputs = at.inputs_at(t, in_float), x = column(g, 1, n);
    std::vector<double> expected;
    if (in_float) {
      const std::vector<float> y = at.float_outputs(t, std::vector<float>(x.begin(), x.end()), inputs);
      expected.assign(y.begin(), y.end());
    } else {
      expected = at.outputs(t, x, inputs);
    }
    ++c.samples;
    bool differs = false;
    for (std::size_t k = 0; k < m; ++k) {
      const double y = g[1 + n + k];
      const double error = std::fabs(y - ref[1 + n + k]);
      const double ratio = ratio_of(error, carried[k]);
      if (ratio > c.ratio || (r == 0 && k == 0)) {
        c.ratio = ratio;
        c.max_error = error / scale[k];
        c.tolerance = carried[k] / scale[k];
        c.worst_output = model.outputs[k].name;
        c.worst_time = ref[0];
      }
      if (c.exact_skipped.empty()) {
        if (!differs && !same_bits(y, expected[k], in_float)) {
          differs = true;
          if (c.differing == 0) {
            c.differing_time = ref[0];
            c.differing_output = model.outputs[k].name;
            c.generated = y;
            c.expected = expected[k];
          }
        }
        continue;
      }
      const double local = ratio_of(std::fabs(y - expected[k]), rho[k]);
      if (local > c.local_ratio || (r == 0 && k == 0)) {
        c.local_ratio = local;
        c.local_error = std::fabs(y - expected[k]) / scale[k];
        c.local_tolerance = rho[k] / scale[k];
      }
    }
    if (differs) ++c.differing;
  }
  return c;
}

}  // namespace dualrate
