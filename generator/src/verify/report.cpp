#include "verify/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "base/process.hpp"

namespace dualrate {

namespace {

std::string number(double v) { return fmt::format("{:.6g}", v); }

std::string complex_list(const Eigen::VectorXcd& values) {
  std::vector<std::string> parts;
  parts.reserve(static_cast<std::size_t>(values.size()));
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    const std::complex<double> z = values[i];
    parts.push_back(z.imag() == 0 ? number(z.real())
                                  : fmt::format("{} {} {}i", number(z.real()), z.imag() < 0 ? "-" : "+",
                                                number(std::fabs(z.imag()))));
  }
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
  return joined.empty() ? "(none)" : joined;
}

struct Row {
  std::string key, value;
};

std::string table(const std::vector<Row>& rows) {
  std::string html = "<table>\n";
  for (const Row& r : rows) html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(r.key), r.value);
  return html + "</table>\n";
}

// One curve of a plot: (t, y) pairs, at most about kPlotPoints of them.
struct Series {
  std::string title;
  std::vector<double> t, y;
  std::string style;  // gnuplot's "with ..." clause
};

constexpr std::size_t kPlotPoints = 1500;

Series series(const std::string& title, const Trace& trace, std::size_t column, const std::string& style) {
  Series s{title, {}, {}, style};
  const std::size_t stride = std::max<std::size_t>(1, (trace.rows.size() + kPlotPoints - 1) / kPlotPoints);
  for (std::size_t i = 0; i < trace.rows.size(); i += stride) {
    s.t.push_back(trace.rows[i][0]);
    s.y.push_back(trace.rows[i][column]);
  }
  return s;
}

std::string plot_script(const std::string& title, const std::string& ylabel, const std::vector<Series>& curves,
                        bool log_y) {
  std::string script =
      "set terminal svg size 720,300 font 'sans,11' background rgb 'white'\nset output\n"
      "set key below\nset grid\nset xlabel 't [s]'\n";
  script += "set title " + gnuplot_string(title) + "\nset ylabel " + gnuplot_string(ylabel) + "\n";
  if (log_y) {
    // The range of every curve, the tolerance's dashed line included (autoscaling to the tics
    // can leave a constant line just outside the axis).
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const auto& c : curves)
      for (const double y : c.y)
        if (y > 0 && std::isfinite(y)) {
          low = std::min(low, y);
          high = std::max(high, y);
        }
    script += "set logscale y\nset format y '%.0e'\n";
    if (high > 0) script += fmt::format("set yrange [{:.6e}:{:.6e}]\n", low / 3, high * 3);
  }
  for (std::size_t c = 0; c < curves.size(); ++c) {
    script += fmt::format("$d{} << EOD\n", c);
    for (std::size_t i = 0; i < curves[c].t.size(); ++i)
      script += fmt::format("{:.17g} {:.17g}\n", curves[c].t[i], curves[c].y[i]);
    script += "EOD\n";
  }
  script += "plot ";
  for (std::size_t c = 0; c < curves.size(); ++c)
    script +=
        fmt::format("{}$d{} using 1:2 title {} {}", c ? ", " : "", c, gnuplot_string(curves[c].title), curves[c].style);
  return script + "\n";
}

// The second verdict (verify/accuracy.hpp): the answer against the high-accuracy solution.
std::string accuracy_html(const VerifyResult& r) {
  if (!r.accuracy || !r.error.empty()) return "";
  const AccuracyCheck& a = *r.accuracy;
  if (!a.error.empty()) return "<p>Accuracy: not measured, " + html_escape(a.error) + "</p>\n";
  const std::string error =
      fmt::format("max error {:.3e} against the high-accuracy solution at {}, t = {:.6g}, {}", a.max_error,
                  html_escape(a.worst_state), a.worst_time,
                  a.worst_absolute() ? std::string("absolute") : fmt::format("relative to {:.4g}", a.worst_scale));
  if (!a.judged()) return "<p>Accuracy: " + error + " (not judged: no tolerance given)</p>\n";
  return fmt::format("<p class=\"verdict {}\">{}: {} {} its tolerance {:.3e} ({})</p>\n", a.pass() ? "pass" : "fail",
                     a.pass() ? "ACCURATE" : "NOT ACCURATE", error, a.pass() ? "&le;" : "&gt;", a.worst_tolerance(),
                     html_escape(a.tolerance_source));
}

std::string verdict_html(const VerifyResult& r) {
  if (!r.error.empty()) return fmt::format("<p class=\"verdict fail\">FAIL: {}</p>\n", html_escape(r.error));
  std::string local;
  if (r.local)
    local = fmt::format(
        "; local check: one step's error {:.3e} {} its tolerance {:.3e} ({}), summed over the samples {:.3e} {} its "
        "bound {:.3e}",
        r.local->max_error, r.local->ratio <= 1 ? "&le;" : "&gt;", r.local->tolerance,
        to_string(r.local->tolerance_basis), std::fabs(r.local->bias_sum), r.local->bias_ratio <= 1 ? "&le;" : "&gt;",
        r.local->bias_bound);
  if (r.exact_step)
    local += r.exact_step->differing == 0
                 ? fmt::format("; exact step check: {} samples equal bit for bit", r.exact_step->samples)
                 : fmt::format("; exact step check: {} of {} samples differ, the first at t = {:.6g} ({})",
                               r.exact_step->differing, r.exact_step->samples, r.exact_step->time,
                               html_escape(r.exact_step->state));
  if (r.outputs) {
    const OutputCheck& o = *r.outputs;
    local += fmt::format("; outputs: {} at {:.3e} {} its tolerance {:.3e}", html_escape(o.worst_output), o.max_error,
                         o.ratio <= 1 ? "&le;" : "&gt;", o.tolerance);
    if (!o.exact_skipped.empty())
      local += fmt::format(", from the generated state {:.3g} of the rounding bound", o.local_ratio);
    else if (o.differing == 0)
      local += fmt::format(", from the generated state {} rows equal bit for bit", o.samples);
    else
      local += fmt::format(", from the generated state {} of {} rows differ, the first at t = {:.6g} ({})", o.differing,
                           o.samples, o.differing_time, html_escape(o.differing_output));
  }
  return fmt::format("<p class=\"verdict {}\">{}: max_error {:.3e} {} tolerance {:.3e} ({}){}</p>\n",
                     r.pass ? "pass" : "fail", r.pass ? "PASS" : "FAIL", r.max_error,
                     r.max_error <= r.tolerance ? "&le;" : "&gt;", r.tolerance, to_string(r.tolerance_basis), local);
}

std::vector<Row> model_rows(const Model& m) {
  std::vector<Row> rows = {{"name", html_escape(m.name)}, {"file", html_escape(m.file)}};
  if (!m.description.empty()) rows.push_back({"description", html_escape(m.description)});
  std::string states;
  for (std::size_t i = 0; i < m.states.size(); ++i)
    states +=
        fmt::format("{}{} ({}, x0 = {}, line {})", i ? ", " : "", html_escape(m.states[i].name),
                    i < m.slow_count ? "slow" : "fast", number(m.states[i].initial_value), m.states[i].rhs_loc.line);
  rows.push_back({"states", states});
  std::string inputs;
  for (std::size_t i = 0; i < m.inputs.size(); ++i) inputs += (i ? ", " : "") + html_escape(m.inputs[i].name);
  if (!inputs.empty()) rows.push_back({"inputs", inputs});
  std::string parameters;
  for (std::size_t i = 0; i < m.parameters.size(); ++i)
    parameters += fmt::format("{}{} = {}{}", i ? ", " : "", html_escape(m.parameters[i].name),
                              number(m.parameters[i].value), m.parameters[i].overridden ? " (--param)" : "");
  if (!parameters.empty()) rows.push_back({"parameters", parameters});
  return rows;
}

std::vector<Row> option_rows(const VerifyOptions& o, const VerifyResult& r) {
  std::vector<Row> rows = {
      {"scheme", html_escape(r.scheme)},
      {"step h", number(o.generate.step)},
      {"scalar", html_escape(r.scalar)},
      {"target", html_escape(r.target)},
      {"end time", fmt::format("{} ({} steps; --t-end {})", number(r.t_end), r.steps, number(o.t_end))},
      {"compared", o.every == 1 ? std::string("every step") : fmt::format("every {} steps", o.every)}};
  if (o.generate.ratio > 1) rows.push_back({"ratio H / h", std::to_string(o.generate.ratio)});
  for (const auto& [name, value] : o.generate.scheme_options) rows.push_back({"scheme option " + name, number(value)});
  if (r.task_run && r.task_run->tasks == Tasks::kPeriodic)
    rows.push_back({"tasks", "one periodic task"});
  else if (r.task_run)
    rows.push_back({"tasks", std::string(to_string(r.task_run->tasks)) + ", overrun policy " +
                                 (r.task_run->overrun_handling ? to_string(*r.task_run->overrun_handling) : "")});
  if (!o.header_file.empty()) rows.push_back({"header", "given: " + html_escape(o.header_file)});
  return rows;
}

std::vector<Row> analysis_rows(const StabilityReport& s) {
  std::vector<Row> rows = {{"eigenvalues of the Jacobian", complex_list(s.jacobian_eigenvalues)},
                           {"fast (g_z)", complex_list(s.fast_eigenvalues)},
                           {"reduced slow", complex_list(s.slow_eigenvalues)},
                           {"time-scale separation", number(s.separation)},
                           {s.ratio > 1 ? "spectral radius of the macro-step map" : "spectral radius of the step map",
                            number(s.spectral_radius)},
                           {"stability", s.stable ? "stable at this step" : "<b>unstable at this step</b>"}};
  if (s.searched)
    rows.push_back({"largest stable step", s.max_stable_step_bounded
                                               ? number(s.max_stable_step)
                                               : "stable over the whole scan (" + number(s.max_stable_step) + ")"});
  return rows;
}

// The target's cost of a step (TargetCost): its instructions, stack and sections.
void cost_rows(const TargetCost& c, std::vector<Row>& rows) {
  if (c.instructions) {
    const StepInstructions& i = *c.instructions;
    rows.push_back({"instructions per step", i.min ? fmt::format("{:.1f} (min {}, max {})", i.mean, *i.min, i.max)
                                                   : fmt::format("{:.1f} (max {})", i.mean, i.max)});
  }
  if (c.stack_bytes) rows.push_back({"stack", fmt::format("{} bytes", *c.stack_bytes)});
  if (c.sections)
    rows.push_back({"program", fmt::format("text {} B, data {} B, bss {} B", c.sections->text, c.sections->data,
                                           c.sections->bss)});
}

std::vector<Row> target_rows(const VerifyResult& r) {
  std::vector<Row> rows;
  if (r.ops_per_step > 0)
    rows.push_back({"arithmetic per step", fmt::format("{} operations (lower bound {})", r.ops_per_step, r.ops_bound)});
  if (r.bit_exact_vs_host)
    rows.push_back({"vs the host build", *r.bit_exact_vs_host ? "bit for bit equal" : "<b>differs</b>"});
  if (r.target_cost) cost_rows(*r.target_cost, rows);
  const TaskRun tasks = r.task_run.value_or(TaskRun());
  if (tasks.bit_exact_vs_single)
    rows.push_back({"preemptive vs sequential", *tasks.bit_exact_vs_single ? "bit for bit equal" : "<b>differs</b>"});
  if (r.tick_check)
    rows.push_back(
        {"every tick",
         r.tick_check->pass()
             ? fmt::format("state and outputs at {} ticks bit for bit the reference core's", r.tick_check->samples)
             : fmt::format("<b>{} of {} ticks differ</b>, the first at t = {}", r.tick_check->differing,
                           r.tick_check->samples, number(r.tick_check->first_differing_time))});
  const auto count = [](const std::optional<long>& n) { return n ? std::to_string(*n) : "?"; };
  if (tasks.overruns && tasks.tasks == Tasks::kPeriodic)
    rows.push_back({"overruns", fmt::format("{} in {} steps", *tasks.overruns, count(tasks.ticks))});
  else if (tasks.overruns)
    rows.push_back(
        {"overruns", fmt::format("{} (slow {}, fast {}) in {} ticks", *tasks.overruns, count(tasks.slow_overruns),
                                 count(tasks.fast_overruns), count(tasks.ticks))});
  if (r.fast_job && r.slow_job)
    rows.push_back({"instructions per job", fmt::format("fast {} max, slow {} max", r.fast_job->instructions_max,
                                                        r.slow_job->instructions_max)});
  if (r.budget) {
    const Budget& b = *r.budget;
    rows.push_back(
        {"part", fmt::format("{} at {} MHz, CPI {}", html_escape(b.part), number(b.cpu_hz / 1e6), number(b.cpi))});
    rows.push_back({"schedulability",
                    fmt::format("{}: utilization {:.3f}, margin {:.3f}, smallest clock {} MHz{}",
                                b.schedulable ? "schedulable" : "<b>not schedulable</b>", b.utilization, b.margin,
                                number(b.min_cpu_hz / 1e6), b.verdict.empty() ? "" : "; " + html_escape(b.verdict))});
  }
  if (tasks.late_ticks && tasks.max_latency_ns)
    rows.push_back({"Linux wake-ups", fmt::format("{} late ticks, worst latency {} us", *tasks.late_ticks,
                                                  number(static_cast<double>(*tasks.max_latency_ns) / 1e3))});
  if (rows.empty()) rows.push_back({"measurements", "none for this target (the host measures no cost)"});
  return rows;
}

std::string source_html(const std::string& source) {
  std::string html = "<pre class=\"source\">";
  std::istringstream lines(source);
  int n = 0;
  for (std::string line; std::getline(lines, line);)
    html += fmt::format("<span class=\"line\">{:>4}</span> {}\n", ++n, html_escape(line));
  return html + "</pre>\n";
}

// The sections of the page plotted from the traces (error over time, local check, states):
// `plot` renders a gnuplot script as SVG.
using PlotFunction = std::function<std::string(const std::string&)>;

std::string error_plots_html(const ReportData& d, const PlotFunction& plot) {
  const std::size_t n = d.model->states.size();
  std::string html =
      "<h2>Error over time</h2>\n<p class=\"note\">Per compared sample, the largest over the states of "
      "|generated - reference| / max(1, max<sub>t</sub> |reference|) (its maximum is max_error), with the "
      "tolerance; errors below 1e-18 (equal bits) are drawn at 1e-18.</p>\n";
  const std::vector<double> error = error_over_time(d.generated, d.reference, n);
  Trace errors{{"t", "error"}, {}};
  Trace tolerance{{"t", "tolerance"}, {}};
  errors.rows.reserve(error.size());
  tolerance.rows.reserve(error.size());
  for (std::size_t i = 0; i < error.size(); ++i) {
    errors.rows.push_back({d.reference.rows[i][0], std::max(error[i], 1e-18)});
    tolerance.rows.push_back({d.reference.rows[i][0], d.result->tolerance});
  }
  std::vector<Series> curves = {series("generated vs reference core", errors, 1, "with lines lw 1.5 lc rgb '#c0392b'"),
                                series("tolerance", tolerance, 1, "with lines dt 2 lw 1.5 lc rgb '#555555'")};
  if (d.accurate.rows.size() == d.reference.rows.size()) {
    Trace scheme_error{{"t", "error"}, {}};
    const std::vector<double> e = error_over_time(d.reference, d.accurate, n);
    scheme_error.rows.reserve(e.size());
    for (std::size_t i = 0; i < e.size(); ++i)
      scheme_error.rows.push_back({d.reference.rows[i][0], std::max(e[i], 1e-18)});
    curves.push_back(series("reference core vs high accuracy", scheme_error, 1, "with lines lw 1 lc rgb '#2471a3'"));
  }
  return html + "<figure>" + plot(plot_script("error", "relative error", curves, true)) + "</figure>\n";
}

// Empty without local check ratios.
std::string local_check_html(const VerifyResult& r, const PlotFunction& plot) {
  if (!r.local || r.local->ratios.empty()) return {};
  std::string html = fmt::format(
      "<h2>Local check over time</h2>\n<p class=\"note\">Per compared sample, one step of the reference core "
      "from the generated code's state there against the generated code's next state: the largest over the "
      "states of that error divided by its tolerance, the rounding of one step ({}); a run passes only below "
      "1. Ratios below 1e-18 (equal bits) are drawn at 1e-18.</p>\n",
      to_string(r.local->tolerance_basis));
  Trace ratios{{"t", "ratio"}, {}}, one{{"t", "tolerance"}, {}};
  for (std::size_t i = 0; i < r.local->ratios.size(); ++i) {
    ratios.rows.push_back({r.local->times[i], std::max(r.local->ratios[i], 1e-18)});
    one.rows.push_back({r.local->times[i], 1.0});
  }
  return html + "<figure>" +
         plot(plot_script(
             "local check", "error / tolerance",
             {series("one step: generated vs reference core", ratios, 1, "with lines lw 1.5 lc rgb '#8e44ad'"),
              series("tolerance", one, 1, "with lines dt 2 lw 1.5 lc rgb '#555555'")},
             true)) +
         "</figure>\n";
}

std::string state_plots_html(const ReportData& d, const PlotFunction& plot) {
  const Model& m = *d.model;
  std::string html =
      "<h2>States over time</h2>\n<p class=\"note\">Generated code, reference core (the scheme in double, "
      "from the parsed model) and the high-accuracy solution (Dormand-Prince 5(4), tolerance 1e-12).</p>\n";
  for (std::size_t j = 0; j < m.states.size(); ++j) {
    std::vector<Series> states = {
        series("generated", d.generated, 1 + j, "with lines lw 2.5 lc rgb '#c0392b'"),
        series("reference core", d.reference, 1 + j, "with lines lw 1.2 dt 2 lc rgb '#222222'")};
    if (d.accurate.rows.size() == d.reference.rows.size())
      states.push_back(series("high accuracy", d.accurate, 1 + j, "with lines lw 1 dt 3 lc rgb '#2471a3'"));
    html += "<figure>" +
            plot(plot_script(fmt::format("{} ({})", m.states[j].name, j < m.slow_count ? "slow" : "fast"),
                             m.states[j].name, states, false)) +
            "</figure>\n";
  }
  return html;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string gnuplot_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* const kReportStyle = R"(body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4;font-weight:600;white-space:nowrap}.verdict{font-size:1.3em;font-weight:700;padding:.5em .8em}
.pass{background:#e3f4e3;color:#185c18}.fail{background:#fbe3e3;color:#8a1414}
pre{background:#f8f8f8;border:1px solid #e4e4e4;padding:.6em;overflow-x:auto;font-size:.85em}.line{color:#999}
figure{margin:.8em 0}svg{max-width:100%;height:auto}.note{color:#555;font-size:.9em})";

std::vector<double> error_over_time(const Trace& a, const Trace& b, std::size_t states) {
  std::vector<double> scale(states, 1.0);
  for (const auto& row : b.rows)
    for (std::size_t j = 0; j < states; ++j) scale[j] = std::max(scale[j], std::fabs(row[1 + j]));
  std::vector<double> error;
  error.reserve(b.rows.size());
  for (std::size_t i = 0; i < b.rows.size() && i < a.rows.size(); ++i) {
    double e = 0;
    for (std::size_t j = 0; j < states; ++j) e = std::max(e, std::fabs(a.rows[i][1 + j] - b.rows[i][1 + j]) / scale[j]);
    error.push_back(e);
  }
  return error;
}

Trace report_traces(const ReportData& d) {
  Trace all;
  if (d.generated.rows.empty() || d.generated.rows.size() != d.reference.rows.size()) return all;
  const bool accurate = d.accurate.rows.size() == d.reference.rows.size();
  const std::size_t n = d.model->states.size();
  all.columns.push_back("t");
  for (const char* prefix : {"generated_", "reference_", "accurate_"}) {
    if (prefix == std::string("accurate_") && !accurate) continue;
    for (const auto& x : d.model->states) all.columns.push_back(prefix + x.name);
  }
  all.rows.reserve(d.reference.rows.size());
  for (std::size_t i = 0; i < d.reference.rows.size(); ++i) {
    std::vector<double> row = {d.reference.rows[i][0]};
    for (const Trace* t : {&d.generated, &d.reference, &d.accurate}) {
      if (t == &d.accurate && !accurate) continue;
      row.insert(row.end(), t->rows[i].begin() + 1, t->rows[i].begin() + 1 + static_cast<long>(n));
    }
    all.rows.push_back(std::move(row));
  }
  return all;
}

std::string report_html(const ReportData& d, const std::function<std::string(const std::string&)>& plot) {
  const Model& m = *d.model;
  const VerifyResult& r = *d.result;
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dualrate verify: {} {} on "
      "{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n<h1>Verification of {}: {} on {} ({})</h1>\n",
      html_escape(m.name), html_escape(r.scheme), html_escape(r.target), kReportStyle, html_escape(m.name),
      html_escape(r.scheme), html_escape(r.target), html_escape(r.scalar));
  html += verdict_html(r) + accuracy_html(r);
  html += "<h2>Model</h2>\n" + table(model_rows(m));
  html += "<h2>Scheme and options</h2>\n" + table(option_rows(*d.options, r));
  html += "<h2>Analysis at the initial state</h2>\n";
  html += d.stability ? table(analysis_rows(*d.stability))
                      : fmt::format("<p>The analysis failed: {}</p>\n", html_escape(d.stability_error));
  html += fmt::format("<h2>Results on {}</h2>\n", html_escape(r.target)) + table(target_rows(r));
  if (!d.generated.rows.empty() && d.generated.rows.size() == d.reference.rows.size()) {
    html += error_plots_html(d, plot);
    html += local_check_html(r, plot);
    html += state_plots_html(d, plot);
  } else {
    html += "<p>No trace to plot: the run produced none.</p>\n";
  }
  if (!report_traces(d).rows.empty())
    html +=
        "<p class=\"note\">The plotted data: report.mat next to this page (MAT-file version 5: t, "
        "generated_&lt;state&gt;, reference_&lt;state&gt;, accurate_&lt;state&gt;).</p>\n";
  html += "<h2>Model source</h2>\n" + source_html(d.model_source);
  html += "<h2>Result as JSON</h2>\n<details><summary>verify --json</summary><pre>" + html_escape(r.json()) +
          "</pre></details>\n";
  html += fmt::format("<p class=\"note\">dualrate {}</p>\n</body>\n</html>\n",
                      html_escape(d.options->generate.generator_version));
  return html;
}

std::string report_plot(const std::string& script) {
  const std::string dir = make_temp_dir("dualrate-plot");
  const std::string path = dir + "/plot.gp";
  {
    std::ofstream out(path);
    out << script;
  }
  const ProcessResult r = run_process({"gnuplot", path});
  std::filesystem::remove_all(dir);
  const std::size_t begin = r.output.find("<svg"), end = r.output.rfind("</svg>");
  if (r.exit_code != 0 || begin == std::string::npos || end == std::string::npos)
    throw std::runtime_error("gnuplot failed: " + r.output.substr(0, 400));
  return r.output.substr(begin, end + 6 - begin);
}

}  // namespace dualrate
