// dualrate campaign: writes a campaign's CTest project, runs one of its points (the tests'
// command) and merges the results of its shards (report).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "campaign/campaign.hpp"
#include "cli/commands.hpp"

namespace dualrate::cli {

namespace {

// This program, for the project's tests to run (they run it by its absolute path).
std::string this_program() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace

CampaignCommand::CampaignCommand(CLI::App& app) {
  cmd_ =
      app.add_subcommand("campaign",
                         "Write a verification campaign (models x schemes x steps x targets x scalars x parameter "
                         "points) as a CMake project of one CTest test per point; 'report' merges its shards' results");
  cmd_->require_subcommand(0, 1);
  cmd_->add_option("file", file_, "Campaign file (YAML)");
  cmd_->add_option("-o,--out", out_dir_, "The project's folder (CMakeLists.txt and campaign.json)");

  report_ = cmd_->add_subcommand(
      "report",
      "Merge the results of a campaign's shards into one summary, an HTML page and a JUnit file; exit "
      "status 0 when every point passed or was refused, 2 when one failed, 3 when one is missing");
  report_->add_option("dir", report_options_.dir, "The campaign's project folder")->required();
  report_->add_option("shards", report_options_.shards,
                      "Build trees of the shards, or folders of results (default: DIR/build)");
  report_->add_flag("--json", report_options_.json, "Print the summary as one JSON object");
  report_->add_option("--html", report_options_.html, "Where to write the page (default: DIR/report.html)");
  report_->add_option("--junit", report_options_.junit, "Where to write the JUnit file (default: DIR/junit.xml)");

  point_ = cmd_->add_subcommand("point", "Run one point of a campaign project (the command of its CTest tests)");
  point_->add_option("dir", point_dir_, "The campaign's project folder")->required();
  point_->add_option("id", point_id_, "The point's id (its test name)")->required();
  point_->add_option("--results", results_dir_, "Folder of the results")->required();
}

bool CampaignCommand::parsed() const { return cmd_->parsed(); }

int CampaignCommand::run() {
  if (report_->parsed()) return campaign_report(report_options_);
  if (point_->parsed())
    return run_campaign_point(point_dir_, point_id_, results_dir_, this_program(), DUALRATE_VERSION);
  if (file_.empty() || out_dir_.empty())
    throw UsageError(
        "dualrate campaign FILE.yaml -o DIR writes the project; dualrate campaign report DIR [SHARDS...] "
        "merges its results");
  Campaign c = load_campaign(file_);
  c.version = DUALRATE_VERSION;
  write_campaign_project(c, out_dir_, this_program());
  std::cout << "campaign " << c.name << ": " << c.points.size() << " points, one CTest test each, in " << out_dir_
            << "\n  run:    cmake -S " << out_dir_ << " -B " << out_dir_ << "/build && ctest --test-dir " << out_dir_
            << "/build -j N\n  report: dualrate campaign report " << out_dir_ << "\n";
  return 0;
}

}  // namespace dualrate::cli
