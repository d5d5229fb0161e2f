#include "verify/output_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "reference/output_sensitivity.hpp"
#include "reference_core/reference_core.hpp"
#include "verify/local_check.hpp"
#include "verify/tolerance.hpp"

namespace dualrate {

namespace {

// error / tolerance: 0 for no error, infinite for a NaN.
double ratio_of(double error, double tolerance) {
  if (error == 0) return 0;
  const double r = error / tolerance;
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
}

std::vector<double> columns(const std::vector<double>& row, std::size_t from, std::size_t count) {
  return std::vector<double>(row.begin() + static_cast<long>(from), row.begin() + static_cast<long>(from + count));
}

// What a row is compared against: the cores and output sensitivities in effect at each step.
struct OutputRun {
  const Model& model;
  const ReferenceCores& cores;
  const CalibratedCores<OutputSensitivity>& sensitivities;
  double h = 0;
  bool in_float = false;
  std::size_t n = 0, m = 0;
};

// Per output: its scale, and (absolute, the largest over the sampled rows) its tolerance against
// the reference run and its rounding rho (output_check.hpp).
struct OutputTolerances {
  std::vector<double> scale, rho, carried;
};

OutputTolerances output_tolerances(const OutputRun& o, const Trace& generated, const Trace& reference,
                                   double state_tolerance, const std::vector<double>& state_scale) {
  const double u = std::ldexp(1.0, o.in_float ? -24 : -53);
  OutputTolerances t{std::vector<double>(o.m, 1.0), std::vector<double>(o.m, 0.0), std::vector<double>(o.m, 0.0)};
  for (const auto& row : reference.rows)
    for (std::size_t k = 0; k < o.m; ++k) t.scale[k] = std::max(t.scale[k], std::fabs(row[1 + o.n + k]));
  for (const std::size_t r : sampled_rows(reference.rows.size())) {
    const auto& ref = reference.rows[r];
    const long i = std::lround(ref[0] / o.h);
    const double time = sample_time(i, o.h, o.in_float);
    const std::vector<double> inputs = o.cores.at(i).inputs_at(time, o.in_float);
    const OutputSensitivity& sensitivity = o.sensitivities.at(i);
    const OutputSensitivity::At s = sensitivity.at(time, columns(generated.rows[r], 1, o.n), inputs);
    const Eigen::MatrixXd d_dx =
        s.d_dx.cwiseAbs().cwiseMax(sensitivity.at(time, columns(ref, 1, o.n), inputs).d_dx.cwiseAbs());
    for (std::size_t k = 0; k < o.m; ++k) {
      const auto ks = static_cast<Eigen::Index>(k);
      const double rounding = (sensitivity.operations()[k] + 1) * u * s.terms(ks);
      double through = rounding;
      for (std::size_t j = 0; j < o.n; ++j)
        through += d_dx(ks, static_cast<Eigen::Index>(j)) * state_tolerance * state_scale[j];
      t.rho[k] = std::max(t.rho[k], rounding);
      t.carried[k] = std::max(t.carried[k], through);
    }
  }
  return t;
}

// The model's outputs at row `row`'s own state, time and inputs, in the build's arithmetic.
std::vector<double> model_outputs(const OutputRun& o, const std::vector<double>& row) {
  const long i = std::lround(row[0] / o.h);
  const ReferenceCore& at = o.cores.at(i);
  const double time = sample_time(i, o.h, o.in_float);
  const std::vector<double> inputs = at.inputs_at(time, o.in_float), x = columns(row, 1, o.n);
  if (!o.in_float) return at.outputs(time, x, inputs);
  const std::vector<float> y = at.float_outputs(time, std::vector<float>(x.begin(), x.end()), inputs);
  return {y.begin(), y.end()};
}

// Row r of both traces into c: against the reference run, and from the generated state.
void compare_row(const OutputRun& o, const OutputTolerances& t, const std::vector<double>& g,
                 const std::vector<double>& ref, bool first, OutputCheck& c) {
  const std::vector<double> expected = model_outputs(o, g);
  ++c.samples;
  bool differs = false;
  for (std::size_t k = 0; k < o.m; ++k) {
    const double y = g[1 + o.n + k];
    const double ratio = ratio_of(std::fabs(y - ref[1 + o.n + k]), t.carried[k]);
    if (ratio > c.ratio || (first && k == 0)) {
      c.ratio = ratio;
      c.max_error = std::fabs(y - ref[1 + o.n + k]) / t.scale[k];
      c.tolerance = t.carried[k] / t.scale[k];
      c.worst_output = o.model.outputs[k].name;
      c.worst_time = ref[0];
    }
    if (c.exact_skipped.empty()) {
      if (!differs && !same_bits(y, expected[k], o.in_float)) {
        differs = true;  // the row counts once
        if (c.differing++ == 0) {
          c.differing_time = ref[0];
          c.differing_output = o.model.outputs[k].name;
          c.generated = y;
          c.expected = expected[k];
        }
      }
      continue;
    }
    const double local = ratio_of(std::fabs(y - expected[k]), t.rho[k]);
    if (local > c.local_ratio || (first && k == 0)) {
      c.local_ratio = local;
      c.local_error = std::fabs(y - expected[k]) / t.scale[k];
      c.local_tolerance = t.rho[k] / t.scale[k];
    }
  }
}

}  // namespace

OutputCheck check_outputs(const Trace& generated, const Trace& reference, const Model& model, const ReferenceCore& core,
                          const RunOptions& run, bool in_float, double state_tolerance,
                          const std::vector<double>& state_scale) {
  const std::size_t n = model.states.size(), m = model.outputs.size();
  if (generated.rows.size() != reference.rows.size() || generated.columns.size() != 1 + n + m ||
      reference.columns.size() != 1 + n + m)
    throw std::runtime_error(fmt::format(
        "output check: {} rows x {} columns against {} rows x {} columns for {} "
        "states and {} outputs",
        generated.rows.size(), generated.columns.size(), reference.rows.size(), reference.columns.size(), n, m));
  OutputCheck c;
  c.exact_skipped = output_exact_difference(model);
  if (m == 0) return c;
  const int stride = calibration_stride(run, false);
  const ReferenceCores cores(core, model, run.calibration, run.step, stride);
  const OutputSensitivity base(model);
  const CalibratedCores<OutputSensitivity> sensitivities(base, model, run.calibration, run.step, stride);
  const OutputRun o{model, cores, sensitivities, run.step, in_float, n, m};
  const OutputTolerances t = output_tolerances(o, generated, reference, state_tolerance, state_scale);
  for (std::size_t r = 0; r < generated.rows.size(); ++r)
    compare_row(o, t, generated.rows[r], reference.rows[r], r == 0, c);
  return c;
}

}  // namespace dualrate
