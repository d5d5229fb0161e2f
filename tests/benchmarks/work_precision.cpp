// Work-precision program (work_precision.hpp says what is measured and how). For every
// registered model (one translation unit each, work_precision_model.cpp.in), it sweeps each
// fixed-step family over h = t_end / (kSamples m), m = 1, 2, 4, ... (dual-rate: multiples of
// the ratio) until the error falls below kFinest or a run would take kMaxSteps, runs each
// adaptive peer at tolerances 1e-1, 1e-2, ... likewise, and runs the
// generated headers made for one step each; then times every point with an error at most
// kCoarsest under Google Benchmark, in one run. Writes (with --out=DIR) results.csv, one
// work-precision diagram per model (gnuplot SVG) and summary.md: per model, at 1e-3 and
// 1e-5, our fastest method reaching that error and the fastest peer, each also with its error
// against the inputs taken continuously, and the ratio of their CPU times.
//
//   work_precision [--models=a,b] [--out=DIR] [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "model/functions.hpp"
#include "model/model.hpp"
#include "ratio_reporter.hpp"
#include "verify/verify.hpp"
#include "work_precision.hpp"
#include "source_tree.hpp"

namespace work_precision {

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}

bool add_case(Case c) {
  cases().push_back(std::move(c));
  return true;
}

namespace {

constexpr double kCoarsest = 1e-1;     // points less accurate than this are not timed
constexpr double kFinest = 1e-8;       // a sweep stops below this error
constexpr long kMaxSteps = 1'000'000;  // a sweep stops at this many steps per run
const double kTargets[] = {1e-3, 1e-5};

struct Point {
  std::string model, method;
  bool ours = false;
  double step = 0, tolerance = 0;
  double error = std::numeric_limits<double>::infinity();             // infinity: the run faulted
  double continuous_error = std::numeric_limits<double>::infinity();  // against the continuous inputs' solution
  std::string benchmark;                                              // empty: not timed
  std::function<bool()> run;
};

Point point(const std::string& model, const std::string& method, bool ours) {
  Point p;
  p.model = model;
  p.method = method;
  p.ours = ours;
  return p;
}

// Samples as a trace of sample index and states, for compare_traces.
dualrate::Trace trace(const Samples& samples) {
  dualrate::Trace t;
  t.columns.resize(samples.front().size() + 1);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    t.rows.push_back({static_cast<double>(i + 1)});
    t.rows.back().insert(t.rows.back().end(), samples[i].begin(), samples[i].end());
  }
  return t;
}

// Max normalized error of `s` against the reference samples: verify's compare_traces.
double error(const Samples& s, const Samples& reference) {
  if (s.size() != reference.size()) return std::numeric_limits<double>::infinity();
  return dualrate::compare_traces(trace(s), trace(reference), reference.front().size()).max_error;
}

std::vector<Point> sweep(const Case& c, const std::string& source_dir) {
  const dualrate::Model model = dualrate::load_model_file(source_dir + "/models/" + c.model + ".yaml");
  const double t_end = model.simulation.t_end;
  Samples reference, continuous;
  if (!c.reference(t_end, &reference)) throw std::runtime_error(c.model + ": the high-accuracy solution failed");
  if (!c.continuous_reference(t_end, &continuous))
    throw std::runtime_error(c.model + ": the high-accuracy solution with continuous inputs failed");
  const auto measure = [&](const Samples& s, Point& p) {
    p.error = error(s, reference);
    p.continuous_error = error(s, continuous);
  };
  std::vector<Point> points;
  const auto fixed = [&](const std::string& name, bool ours, long m, const FixedStep& run) {
    Samples s;
    Point p = point(c.model, name, ours);
    p.step = step_of(t_end, m);
    if (run(t_end, m, &s)) measure(s, p);
    p.run = [run, t_end, m] { return run(t_end, m, nullptr); };
    points.push_back(p);
    return p.error;
  };
  for (const auto& f : c.families)
    for (long m = f.first_m; m * kSamples <= kMaxSteps; m *= 2)
      if (fixed(f.name, f.ours, m, f.run) < kFinest) break;
  for (const auto& a : c.at_step) fixed(a.name, true, a.m, a.run);
  for (const auto& a : c.adaptive)
    for (int k = 1; k <= 12; ++k) {
      const double tolerance = std::pow(10.0, -k);
      Samples s;
      Point p = point(c.model, a.name, false);
      p.tolerance = tolerance;
      if (a.run(t_end, tolerance, &s)) measure(s, p);
      p.run = [run = a.run, t_end, tolerance] { return run(t_end, tolerance, nullptr); };
      points.push_back(p);
      if (p.error < kFinest) break;
    }
  return points;
}

std::string parameter(const Point& p) {
  return p.step > 0 ? fmt::format("h={:.6g}", p.step) : fmt::format("tol={:.0e}", p.tolerance);
}

std::string csv_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }

struct Best {
  const Point* point = nullptr;
  double cpu_ns = 0;
};

Best fastest(const std::vector<Point>& points, const std::map<std::string, double>& cpu, const std::string& model,
             bool ours, double target) {
  Best b;
  for (const Point& p : points) {
    if (p.model != model || p.ours != ours || !(p.error <= target)) continue;
    const auto t = cpu.find(p.benchmark);
    if (t == cpu.end()) continue;
    if (!b.point || t->second < b.cpu_ns) b = {&p, t->second};
  }
  return b;
}

std::string describe(const Best& b) {
  if (!b.point) return "not reached";
  return fmt::format("{} {} ({:.3g} us, error {:.2g}; {:.2g} against continuous inputs)", b.point->method,
                     parameter(*b.point), b.cpu_ns / 1e3, b.point->error, b.point->continuous_error);
}

void write_plots(const std::filesystem::path& dir, const std::vector<Point>& points,
                 const std::map<std::string, double>& cpu) {
  std::map<std::string, std::map<std::string, std::vector<const Point*>>> by_model;
  for (const Point& p : points)
    if (cpu.count(p.benchmark)) by_model[p.model][p.method].push_back(&p);
  std::ofstream gp(dir / "plots.gp");
  gp << "# Written by work_precision: one work-precision diagram per model.\n"
        "set terminal svg size 720,480 dynamic font 'sans,12'\n"
        "set logscale xy\nset format x '10^{%L}'\nset format y '10^{%L}'\n"
        "set xlabel 'max normalized error'\nset ylabel 'CPU time per run (us)'\nset key outside right\n"
        "set grid\nset termoption noenhanced\n";
  for (const auto& [model, methods] : by_model) {
    std::ofstream data(dir / (model + ".dat"));
    std::vector<std::string> plots;
    int index = 0;
    for (const auto& [method, list] : methods) {
      data << "# " << method << "\n";
      for (const Point* p : list) data << fmt::format("{:.6g} {:.6g}\n", p->error, cpu.at(p->benchmark) / 1e3);
      data << "\n\n";
      const bool ours = list.front()->ours;
      plots.push_back(fmt::format("'{}.dat' index {} with linespoints title '{}{}' lw {} dt {}", model, index++, method,
                                  ours ? " (ours)" : "", ours ? 2 : 1, ours ? 1 : 2));
    }
    gp << fmt::format("set output '{}.svg'\nset title '{}'\nplot ", model, model);
    for (std::size_t i = 0; i < plots.size(); ++i) gp << (i ? ", \\\n     " : "") << plots[i];
    gp << "\n";
  }
}

}  // namespace
}  // namespace work_precision

int main(int argc, char** argv) {
  using namespace work_precision;
  benchmark::Initialize(&argc, argv);
  std::set<std::string> only;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--models=", 0) == 0) {
      std::stringstream list(a.substr(9));
      for (std::string m; std::getline(list, m, ',');) only.insert(m);
    } else if (a.rfind("--out=", 0) == 0) {
      out = a.substr(6);
    } else {
      std::fprintf(stderr, "work_precision: unknown argument %s\n", a.c_str());
      return 1;
    }
  }
  dualrate::init_symbolic();
  std::vector<Point> points;
  std::vector<std::string> models;
  std::sort(cases().begin(), cases().end(), [](const Case& a, const Case& b) { return a.model < b.model; });
  for (const Case& c : cases()) {
    if (!only.empty() && !only.count(c.model)) continue;
    models.push_back(c.model);
    std::fprintf(stderr, "work_precision: sweeping %s\n", c.model.c_str());
    for (Point& p : sweep(c, dualrate::test::source_dir())) points.push_back(std::move(p));
  }
  if (models.empty()) {
    std::fprintf(stderr, "work_precision: no model matches --models\n");
    return 1;
  }
  for (Point& p : points) {
    if (!(p.error <= kCoarsest)) continue;
    p.benchmark = p.model + "/" + p.method + "/" + parameter(p);
    benchmark::RegisterBenchmark(p.benchmark.c_str(), [run = p.run](benchmark::State& state) {
      bool ok = true;
      for (auto _ : state) ok &= run();
      if (!ok) state.SkipWithError("a run faulted");
    })->Unit(benchmark::kMicrosecond);
  }
  dualrate::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::map<std::string, double> cpu_ns;  // the reporter's times are in microseconds
  for (const auto& [name, t] : reporter.cpu) cpu_ns[name] = t * 1e3;

  std::ostringstream summary;
  if (!DUALRATE_WITH_SUNDIALS) summary << "SUNDIALS was not found at build time: no CVODE or MRIStep peers.\n\n";
  summary << "Errors against the high-accuracy solution with the inputs sampled every t_end / " << kSamples
          << " and held, as every method takes them (the integrator's own), and against the one with the inputs "
             "taken continuously (what a user meets: the sampling's error added).\n\n";
  summary << "| model | error | ours: fastest | peers: fastest | time ratio ours / peer |\n"
             "|---|---|---|---|---|\n";
  for (const std::string& m : models)
    for (const double target : kTargets) {
      const Best ours = fastest(points, cpu_ns, m, true, target), peer = fastest(points, cpu_ns, m, false, target);
      summary << fmt::format("| {} | {:.0e} | {} | {} | {} |\n", m, target, describe(ours), describe(peer),
                             ours.point && peer.point ? fmt::format("{:.3f}", ours.cpu_ns / peer.cpu_ns) : "-");
    }
  std::printf("\n%s", summary.str().c_str());
  if (out.empty()) return 0;

  const std::filesystem::path dir(out);
  std::filesystem::create_directories(dir);
  std::ofstream csv(dir / "results.csv");
  csv << "model,method,ours,step,tolerance,error,continuous_error,cpu_us\n";
  for (const Point& p : points) {
    const auto t = cpu_ns.find(p.benchmark);
    const bool ran = std::isfinite(p.error);
    csv << fmt::format("{},{},{},{},{},{},{},{}\n", p.model, p.method, p.ours ? 1 : 0,
                       p.step > 0 ? fmt::format("{:.17g}", p.step) : "", p.tolerance > 0 ? csv_number(p.tolerance) : "",
                       ran ? csv_number(p.error) : "fault", ran ? csv_number(p.continuous_error) : "fault",
                       t == cpu_ns.end() ? "" : csv_number(t->second / 1e3));
  }
  std::ofstream(dir / "summary.md") << summary.str();
  write_plots(dir, points, cpu_ns);
  const std::string gnuplot = "cd '" + dir.string() + "' && gnuplot plots.gp";
  if (std::system(gnuplot.c_str()) != 0) {
    std::fprintf(stderr, "work_precision: gnuplot failed on %s/plots.gp\n", dir.string().c_str());
    return 1;
  }
  return 0;
}
