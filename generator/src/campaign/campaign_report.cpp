// dualrate campaign report: the results of every shard merged against the campaign's points.
// A point counts as run only by a result written for it as the project now stands (same
// campaign, same point); one that no folder holds is missing, never passed.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <set>

#include "base/enum_text.hpp"
#include "base/text_io.hpp"
#include "campaign/campaign.hpp"
#include "campaign/campaign_json.hpp"
#include "verify/report.hpp"

namespace dualrate {

namespace {

struct ReportedPoint {
  const CampaignPoint* point = nullptr;
  PointStatus status = PointStatus::kMissing;
  std::string reason;
  nlohmann::ordered_json result = nullptr;  // the point's result file, when one was found
  double finished = 0;

  const nlohmann::ordered_json& verify() const {
    static const nlohmann::ordered_json none = nullptr;
    return result.is_object() && result.contains("verify") ? result.at("verify") : none;
  }
  std::optional<double> number(const char* key) const {
    const auto& v = verify();
    if (!v.is_object() || !v.contains(key) || !v.at(key).is_number()) return std::nullopt;
    return v.at(key).get<double>();
  }
  std::optional<bool> flag(const char* key) const {
    const auto& v = verify();
    if (!v.is_object() || !v.contains(key) || !v.at(key).is_boolean()) return std::nullopt;
    return v.at(key).get<bool>();
  }
  std::optional<double> ratio() const {
    const auto e = number("max_error"), t = number("tolerance");
    if (!e || !t || *t <= 0) return std::nullopt;
    return *e / *t;
  }
  std::string step() const {
    if (result.is_object() && result.at("step_seconds").is_string())
      return point->step + " (" + result.at("step_seconds").get<std::string>() + " s)";
    return point->step;
  }
  double seconds() const { return result.is_object() ? result.value("seconds", 0.0) : 0.0; }
  // Per step (single-rate), or the largest fast and slow jobs (dual-rate tasks).
  std::string instructions() const {
    if (const auto n = number("instructions_per_step")) return fmt::format("{:.1f}", *n);
    const auto fast = number("fast_job_instructions_max"), slow = number("slow_job_instructions_max");
    return fast && slow ? fmt::format("{:.0f} f, {:.0f} s", *fast, *slow) : "-";
  }
};

std::string params_text(const CampaignPoint& p, const char* separator) {
  std::string s;
  for (const auto& [name, value] : p.params) s += (s.empty() ? "" : separator) + name + "=" + value;
  return s.empty() ? "(file values)" : s;
}

std::string configuration(const CampaignPoint& p) {
  return fmt::format("{} h={} {} {}", p.scheme, p.step, p.target, p.scalar);
}

// A result is the point's when all but the model's path agree: a shard may have had the
// models checked out elsewhere; the digest says they were the same text.
bool same_point(nlohmann::ordered_json a, nlohmann::ordered_json b) {
  a.erase("model_file");
  b.erase("model_file");
  return a == b;
}

// The tests that CTest's JUnit files (ctest --output-junit, in each folder) report failed: id
// and CTest's message.
std::vector<std::pair<std::string, std::string>> junit_failures(const std::vector<std::string>& folders) {
  std::vector<std::pair<std::string, std::string>> failed;
  for (const std::string& folder : folders) {
    if (!std::filesystem::is_directory(folder)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(folder))
      if (e.path().extension() == ".xml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      pugi::xml_document doc;
      if (!doc.load_file(file.c_str())) {
        std::cerr << fmt::format("warning: {} is not XML; left out\n", file.string());
        continue;
      }
      for (const pugi::xpath_node& node : doc.select_nodes("//testcase[failure or @status='fail']")) {
        const pugi::xml_node test = node.node();
        const std::string message = test.child("failure").attribute("message").as_string("failed");
        failed.emplace_back(test.attribute("name").as_string(), message);
      }
    }
  }
  return failed;
}

// Every result file of the folders, matched to the campaign's points.
std::vector<ReportedPoint> collect(const Campaign& c, const std::vector<std::string>& folders) {
  std::vector<ReportedPoint> points(c.points.size());
  std::map<std::string, std::size_t> by_id;
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    points[i].point = &c.points[i];
    by_id[c.points[i].id] = i;
  }
  for (const std::string& folder : folders) {
    std::filesystem::path results = std::filesystem::path(folder) / "results";
    if (!std::filesystem::is_directory(results)) results = folder;
    if (!std::filesystem::is_directory(results)) {
      std::cerr << fmt::format("warning: {} is not a folder: no results read from it\n", folder);
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(results))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::size_t used = 0;
    for (const auto& file : files) {
      nlohmann::ordered_json r;
      try {
        std::ifstream in(file, std::ios::binary);
        r = nlohmann::ordered_json::parse(in);
        const auto found = by_id.find(r.at("point").at("id").get<std::string>());
        // A result of another campaign, or of a point since changed, does not count.
        if (r.at("campaign") != c.name || found == by_id.end() ||
            !same_point(r.at("point"), point_json(c.points[found->second]))) {
          std::cerr << fmt::format("warning: {} is not a result of this campaign's points as they now are; left out\n",
                                   file.string());
          continue;
        }
        ReportedPoint& p = points[found->second];
        const double finished = r.value("finished_unix", 0.0);
        if (p.result.is_object() && p.finished >= finished) continue;  // the later run of a point counts
        const std::optional<PointStatus> status = named(kRunStatuses, r.at("status").get<std::string>());
        if (!status) {
          std::cerr << fmt::format("warning: {} has no status a point's run writes; left out\n", file.string());
          continue;
        }
        p.result = r;
        p.finished = finished;
        p.status = *status;
        p.reason = r.value("reason", "");
        ++used;
      } catch (const nlohmann::json::exception& e) {
        std::cerr << fmt::format("warning: {} is not a point's result ({}); left out\n", file.string(), e.what());
      }
    }
    std::cerr << fmt::format("{}: {} results\n", results.string(), used);
  }
  // A test CTest ran and saw fail but that wrote no result (killed at CTest's TIMEOUT, or
  // crashed) failed; its JUnit file says so. A test JUnit reports passed without a result stays missing.
  for (const auto& [id, message] : junit_failures(folders)) {
    const auto found = by_id.find(id);
    if (found == by_id.end() || points[found->second].status != PointStatus::kMissing) continue;
    ReportedPoint& p = points[found->second];
    p.status = PointStatus::kFail;
    p.reason = fmt::format(
        "CTest ran the point and it failed ({}) without writing a result: killed (CTest's "
        "TIMEOUT) or crashed",
        message);
  }
  return points;
}

// The campaign's verdict: every point passed or was refused; one failed; none failed and one
// is missing.
enum class CampaignVerdict { kPass, kFail, kIncomplete };
constexpr const char* to_string(CampaignVerdict v) {
  switch (v) {
    case CampaignVerdict::kPass:
      return "pass";
    case CampaignVerdict::kFail:
      return "fail";
    case CampaignVerdict::kIncomplete:
      return "incomplete";
  }
  return "";
}

// The statuses the reports list point by point, grouped by reason.
constexpr std::array<PointStatus, 3> kUnpassed = {PointStatus::kFail, PointStatus::kRefused, PointStatus::kMissing};

struct Totals {
  std::size_t pass = 0, fail = 0, refused = 0, missing = 0;
  double seconds = 0;
  std::size_t& of(PointStatus s) {
    switch (s) {
      case PointStatus::kPass:
        return pass;
      case PointStatus::kRefused:
        return refused;
      case PointStatus::kMissing:
        return missing;
      case PointStatus::kFail:
        break;
    }
    return fail;
  }
  CampaignVerdict verdict() const {
    return fail ? CampaignVerdict::kFail : missing ? CampaignVerdict::kIncomplete : CampaignVerdict::kPass;
  }
};

Totals count(const std::vector<ReportedPoint>& points) {
  Totals t;
  for (const auto& p : points) {
    ++t.of(p.status);
    t.seconds += p.seconds();
  }
  return t;
}

std::vector<std::string> model_names(const Campaign& c) {
  std::vector<std::string> names;
  for (const auto& p : c.points)
    if (std::find(names.begin(), names.end(), p.model) == names.end()) names.push_back(p.model);
  return names;
}

// The points of a status, grouped by their reason in the order each reason first appears.
std::vector<std::pair<std::string, std::vector<std::string>>> by_reason(const std::vector<ReportedPoint>& points,
                                                                        PointStatus status) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& p : points) {
    if (p.status != status) continue;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == p.reason; });
    if (g == groups.end()) g = groups.insert(groups.end(), {p.reason, {}});
    g->second.push_back(p.point->id);
  }
  return groups;
}

std::string cell(const std::optional<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : "-";
}
std::string cell(const std::optional<bool>& v) { return v ? (*v ? "yes" : "no") : "-"; }

std::string text_summary(const Campaign& c, const std::vector<ReportedPoint>& points, const Totals& t) {
  std::string s = fmt::format("campaign {}: {} points\n", c.name, points.size());
  for (const std::string& model : model_names(c)) {
    s += fmt::format("\n{}\n  {:>5}  {:<16} {:<16} {:<16} {:<6} {:<28} {:<8} {:>10} {:>9} {:>13} {:>11}\n", model, "#",
                     "scheme", "step", "target", "scalar", "params", "status", "error/tol", "bit exact", "instr/step",
                     "schedulable");
    for (const auto& p : points)
      if (p.point->model == model)
        s += fmt::format("  {:>5}  {:<16} {:<16} {:<16} {:<6} {:<28} {:<8} {:>10} {:>9} {:>13} {:>11}\n",
                         p.point->index, p.point->scheme, p.step(), p.point->target, p.point->scalar,
                         params_text(*p.point, ","), to_string(p.status), cell(p.ratio(), "{:.3g}"),
                         cell(p.flag("bit_exact_vs_host")), p.instructions(), cell(p.flag("schedulable")));
  }
  for (const PointStatus status : kUnpassed)
    for (const auto& [reason, ids] : by_reason(points, status)) {
      s += fmt::format("\n{} ({}){}\n", to_string(status), ids.size(), reason.empty() ? "" : ": " + reason);
      for (const auto& id : ids) s += "  " + id + "\n";
    }
  s += fmt::format("\n{} pass, {} fail, {} refused, {} missing of {} points\nverdict: {}\n", t.pass, t.fail, t.refused,
                   t.missing, points.size(), to_string(t.verdict()));
  return s;
}

nlohmann::ordered_json json_summary(const Campaign& c, const std::vector<ReportedPoint>& points, const Totals& t) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const auto optional = [](const auto& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr); };
  for (const auto& p : points) {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [name, value] : p.point->params) params[name] = value;
    list.push_back({{"id", p.point->id},
                    {"index", p.point->index},
                    {"model", p.point->model},
                    {"scheme", p.point->scheme},
                    {"step", p.point->step},
                    {"step_seconds", p.result.is_object() ? p.result.at("step_seconds") : nullptr},
                    {"target", p.point->target},
                    {"scalar", p.point->scalar},
                    {"params", params},
                    {"status", to_string(p.status)},
                    {"reason", p.reason},
                    {"max_error", optional(p.number("max_error"))},
                    {"tolerance", optional(p.number("tolerance"))},
                    {"bit_exact", optional(p.flag("bit_exact_vs_host"))},
                    {"instructions_per_step", optional(p.number("instructions_per_step"))},
                    {"fast_job_instructions_max", optional(p.number("fast_job_instructions_max"))},
                    {"slow_job_instructions_max", optional(p.number("slow_job_instructions_max"))},
                    {"schedulable", optional(p.flag("schedulable"))},
                    {"seconds", p.seconds()}});
  }
  return {
      {"campaign", c.name},
      {"points", list},
      {"summary",
       {{"pass", t.pass}, {"fail", t.fail}, {"refused", t.refused}, {"missing", t.missing}, {"seconds", t.seconds}}},
      {"verdict", to_string(t.verdict())}};
}

// error/tolerance over the model's parameter points, a curve per configuration (scheme, step,
// target, scalar). Ratios below kFloor (equal bits among them) are drawn at kFloor.
constexpr double kFloor = 1e-9;

std::string ratio_plot_script(const std::string& model, const std::vector<ReportedPoint>& points) {
  std::vector<std::string> grid, configurations;
  for (const auto& p : points) {
    if (p.point->model != model) continue;
    const std::string g = params_text(*p.point, " ");
    if (std::find(grid.begin(), grid.end(), g) == grid.end()) grid.push_back(g);
    const std::string k = configuration(*p.point);
    if (std::find(configurations.begin(), configurations.end(), k) == configurations.end()) configurations.push_back(k);
  }
  std::string data, plot = "plot 1 title 'tolerance' with lines dt 2 lw 1.5 lc rgb '#555555'";
  std::size_t curves = 0;
  for (std::size_t k = 0; k < configurations.size(); ++k) {
    std::string rows;
    for (const auto& p : points)
      if (p.point->model == model && configuration(*p.point) == configurations[k] && p.ratio()) {
        const auto x = std::find(grid.begin(), grid.end(), params_text(*p.point, " ")) - grid.begin();
        rows += fmt::format("{} {:.17g}\n", x, std::max(*p.ratio(), kFloor));
      }
    if (rows.empty()) continue;
    data += fmt::format("$d{} << EOD\n{}EOD\n", k, rows);
    plot += fmt::format(", $d{} using 1:2 title {} with linespoints pt 7 ps 0.7", k, gnuplot_string(configurations[k]));
    ++curves;
  }
  if (curves == 0) return "";
  // The plot keeps its height; the key below grows by a line per two curves, the tics' labels
  // with the grid's.
  const int height = 300 + 17 * static_cast<int>((curves + 2) / 2) + (grid.size() > 6 ? 80 : 0);
  std::string script = fmt::format(
      "set terminal svg size 900,{} font 'sans,11' background rgb 'white' noenhanced\nset output\n"
      "set key below\nset grid\n"
      "set logscale y\nset format y '%.0e'\nset ylabel 'max error / tolerance'\nset title {}\nset xrange [-0.5:{}]\n"
      "set xtics rotate by -35 (",
      height, gnuplot_string(model + ": error over tolerance at each parameter point"),
      static_cast<double>(grid.size()) - 0.5);
  for (std::size_t i = 0; i < grid.size(); ++i)
    script += fmt::format("{}{} {}", i ? ", " : "", gnuplot_string(grid[i]), i);
  return script + ")\n" + data + plot + "\n";
}

std::string html_page(const Campaign& c, const std::vector<ReportedPoint>& points, const Totals& t) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Campaign {}</title>\n"
      "<style>{}\nbody{{max-width:1400px}}td{{white-space:nowrap;font-size:.9em}}td.pass{{background:#e3f4e3}}"
      "td.fail,td.missing{{background:#fbe3e3}}td.refused{{background:#f4f0dc}}"
      "</style>\n</head>\n<body>\n<h1>Verification campaign {}</h1>\n",
      html_escape(c.name), kReportStyle, html_escape(c.name));
  html += fmt::format("<p class=\"verdict {}\">{}: {} pass, {} fail, {} refused, {} missing of {} points</p>\n",
                      t.verdict() == CampaignVerdict::kPass ? "pass" : "fail", upper(to_string(t.verdict())), t.pass,
                      t.fail, t.refused, t.missing, points.size());
  html += fmt::format("<p class=\"note\">From {} (dualrate {}); {:.1f} s over the points run.</p>\n",
                      html_escape(c.file), html_escape(c.version), t.seconds);
  for (const std::string& model : model_names(c)) {
    html += fmt::format("<h2>{}</h2>\n", html_escape(model));
    const std::string script = ratio_plot_script(model, points);
    if (!script.empty()) {
      try {
        html += "<figure>" + report_plot(script) + "</figure>\n";
        html += fmt::format(
            "<p class=\"note\">Each point's max_error over its tolerance (verify's); below {:g} "
            "(equal bits among them) drawn at {:g}; points without a result are not drawn.</p>\n",
            kFloor, kFloor);
      } catch (const std::exception& e) {
        html += fmt::format("<p class=\"note\">No plot: {}</p>\n", html_escape(e.what()));
      }
    }
    html +=
        "<table>\n<tr><th>#</th><th>scheme</th><th>step</th><th>target</th><th>scalar</th><th>params</th>"
        "<th>status</th><th>error / tolerance</th><th>bit exact</th>"
        "<th title=\"dual-rate tasks: the largest fast and slow jobs\">instructions per step</th>"
        "<th>schedulable</th><th>seconds</th></tr>\n";
    for (const auto& p : points)
      if (p.point->model == model)
        html += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td class=\"{}\" title=\"{}\">{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td></tr>\n",
            p.point->index, html_escape(p.point->scheme), html_escape(p.step()), html_escape(p.point->target),
            html_escape(p.point->scalar), html_escape(params_text(*p.point, ", ")), to_string(p.status),
            html_escape(p.reason), to_string(p.status), cell(p.ratio(), "{:.3g}"), cell(p.flag("bit_exact_vs_host")),
            p.instructions(), cell(p.flag("schedulable")), p.seconds());
    html += "</table>\n";
  }
  for (const PointStatus status : kUnpassed)
    for (const auto& [reason, ids] : by_reason(points, status)) {
      html += fmt::format("<h2>{} ({})</h2>\n", to_string(status), ids.size());
      if (!reason.empty()) html += "<pre>" + html_escape(reason) + "</pre>\n";
      html += "<ul>\n";
      for (const auto& id : ids) html += "<li><code>" + html_escape(id) + "</code></li>\n";
      html += "</ul>\n";
    }
  return html + "</body>\n</html>\n";
}

// One JUnit file for a CI system: a refused point is skipped, a missing one an error.
std::string junit(const Campaign& c, const std::vector<ReportedPoint>& points, const Totals& t) {
  std::string cases;
  for (const auto& p : points) {
    cases += fmt::format("  <testcase classname=\"{}.{}\" name=\"{}\" time=\"{:.3f}\"", html_escape(c.name),
                         html_escape(p.point->model), html_escape(p.point->id), p.seconds());
    switch (p.status) {
      case PointStatus::kPass:
        cases += "/>\n";
        break;
      case PointStatus::kRefused:
        cases += fmt::format(">\n    <skipped message=\"refused: {}\"/>\n  </testcase>\n", html_escape(p.reason));
        break;
      case PointStatus::kMissing:
        cases += ">\n    <error message=\"missing: no shard's results hold this point\"/>\n  </testcase>\n";
        break;
      case PointStatus::kFail:
        cases += fmt::format(">\n    <failure message=\"{}\"/>\n  </testcase>\n", html_escape(p.reason));
        break;
    }
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" "
      "skipped=\"{4}\" time=\"{5:.3f}\">\n<testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" "
      "skipped=\"{4}\" time=\"{5:.3f}\">\n{6}</testsuite>\n</testsuites>\n",
      html_escape(c.name), points.size(), t.fail, t.missing, t.refused, t.seconds, cases);
}

}  // namespace

int campaign_report(const CampaignReportOptions& o) {
  const Campaign c = read_campaign_project(o.dir);
  const std::vector<std::string> folders =
      o.shards.empty() ? std::vector<std::string>{(std::filesystem::path(o.dir) / "build").string()} : o.shards;
  const std::vector<ReportedPoint> points = collect(c, folders);
  const Totals t = count(points);
  const std::string html = o.html.empty() ? (std::filesystem::path(o.dir) / "report.html").string() : o.html;
  const std::string junit_file = o.junit.empty() ? (std::filesystem::path(o.dir) / "junit.xml").string() : o.junit;
  write_file(html, html_page(c, points, t));
  write_file(junit_file, junit(c, points, t));
  if (o.json)
    std::cout << json_summary(c, points, t).dump() << "\n";
  else
    std::cout << text_summary(c, points, t) << "report: " << html << "\njunit: " << junit_file << "\n";
  switch (t.verdict()) {
    case CampaignVerdict::kPass:
      return 0;
    case CampaignVerdict::kFail:
      return 2;
    case CampaignVerdict::kIncomplete:
      return 3;
  }
  return 2;
}

}  // namespace dualrate
