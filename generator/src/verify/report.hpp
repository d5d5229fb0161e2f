// verify --report DIR: one self-contained HTML page (DIR/report.html: inline CSS and SVG, no
// script, nothing fetched) that a reviewer reads: the model and its source, the scheme and
// options, the analysis, each state over time for the generated code, the reference core and
// the high-accuracy solution, the error over time against the tolerance, the target's
// results and the verdict. The plots are gnuplot's SVG.
#pragma once

#include <functional>
#include <string>

#include "analysis/stability.hpp"
#include "model/model.hpp"
#include "base/trace.hpp"
#include "verify/verify.hpp"

namespace dualrate {

struct ReportData {
  const Model* model = nullptr;
  std::string model_source;  // the model file's text
  const VerifyOptions* options = nullptr;
  const VerifyResult* result = nullptr;
  const StabilityReport* stability = nullptr;  // null when the analysis failed
  std::string stability_error;                 // why, then
  // The traces on the compared grid (empty when the run produced none): the generated code's,
  // the reference core's and the high-accuracy solution's.
  Trace generated, reference, accurate;
};

// `text` with & < > " written as HTML entities (for element text and attribute values).
std::string html_escape(const std::string& text);
// `text` as a gnuplot string literal.
std::string gnuplot_string(const std::string& text);
// The reports' style sheet (inline CSS of every page dualrate writes).
extern const char* const kReportStyle;

// Per row of `reference`, the largest over the states of |a - b| / max(1, max_t |b|): the
// quantity whose maximum is verify's max_error (compare_traces).
std::vector<double> error_over_time(const Trace& a, const Trace& b, std::size_t states);

// The page. `plot(script)` renders a gnuplot script (terminal svg, output to stdout) and
// returns the SVG; report_plot below is the one that runs gnuplot.
std::string report_html(const ReportData& data, const std::function<std::string(const std::string&)>& plot);
std::string report_plot(const std::string& script);

// The plotted data as one trace for a MAT-file (report.mat): t, then generated_<state> for
// each state, reference_<state> and, when it has the same rows, accurate_<state>. Empty
// without traces of the same rows.
Trace report_traces(const ReportData& data);

}  // namespace dualrate
