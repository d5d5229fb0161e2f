// dualrate campaign: a verification campaign, every model x scheme x step x target x scalar x
// parameter point of a campaign file, as a CMake project of one CTest test per point; the run
// of one point (`dualrate verify` as a program, its JSON kept); and the report that merges the
// results of every shard of the project into one summary, JSON, HTML page and JUnit file.
// docs/campaigns.md describes the file, the project and the report.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "verify/tasks.hpp"

namespace dualrate {

// A campaign grows as a product; past this many points it is refused before anything is written.
constexpr std::size_t kMaxCampaignPoints = 100000;

// One parameter of a point as the campaign file writes it (the text is passed to --param).
using ParameterSetting = std::pair<std::string, std::string>;

struct CampaignPoint {
  std::size_t index = 0;  // 1-based: the CTest test number in the generated project
  std::string id;         // model/scheme/h=STEP/target/scalar/params, unique in the campaign
  std::string model, model_file, scheme;
  std::string model_digest;  // of the model file's bytes (model_digest()): what the point verifies
  std::string step;          // "default", a factor of the largest stable step ("0.5x"), or seconds
  std::string target, scalar;
  std::vector<ParameterSetting> params;
  bool dual_rate = false;  // the scheme runs as two tasks (`tasks` applies)
};

struct Campaign {
  std::string name;
  std::string file;     // the campaign file, absolute
  std::string version;  // of the dualrate that wrote the project; a point refuses another's
  std::optional<double> t_end;
  std::optional<double> tolerance;  // verify --tolerance for every point (else each model's own)
  Tasks tasks = Tasks::kMulti;      // verify --tasks for the dual-rate schemes (kSingle or kMulti)
  double timeout_seconds = 1800;    // per point
  std::vector<CampaignPoint> points;
};

// The campaign file at `path`, every point expanded. Throws ModelError at the place of the
// first problem (unknown model, scheme, target or parameter, empty grid, too many points).
Campaign load_campaign(const std::string& path);
// The same for `text`, read as if from `path` (model paths are relative to its folder).
Campaign load_campaign_text(const std::string& text, const std::string& path);

// A digest of a file's bytes (64-bit FNV-1a, 16 hex digits): a result names the model text it
// verified, wherever the file was checked out. Empty when the file cannot be read.
std::string model_digest(const std::string& path);

// Writes DIR/CMakeLists.txt (a test per point: labels, COST, TIMEOUT, resources) and
// DIR/campaign.json (the campaign as run), byte for byte the same for the same campaign.
// `dualrate` is the program the tests run.
void write_campaign_project(const Campaign& campaign, const std::string& dir, const std::string& dualrate);

// The campaign of a project written by write_campaign_project (its campaign.json).
Campaign read_campaign_project(const std::string& dir);

// The command line of `dualrate verify` for a point; `step` the seconds when the point's step is
// a factor (resolved at run time), empty otherwise.
std::vector<std::string> verify_arguments(const Campaign& campaign, const CampaignPoint& point,
                                          const std::string& step_seconds);

// What came of a point: verify passed, failed, the generator refused the point, or (the report)
// no shard's results hold it. Text only in its result file and the reports (to_string).
enum class PointStatus { kPass, kFail, kRefused, kMissing };
// Those a point's run writes into its result file (missing is the report's own).
inline constexpr std::array<PointStatus, 3> kRunStatuses = {PointStatus::kPass, PointStatus::kFail,
                                                            PointStatus::kRefused};
constexpr const char* to_string(PointStatus s) {
  switch (s) {
    case PointStatus::kPass:
      return "pass";
    case PointStatus::kFail:
      return "fail";
    case PointStatus::kRefused:
      return "refused";
    case PointStatus::kMissing:
      return "missing";
  }
  return "";
}

// `dualrate campaign point DIR ID`: runs the point, writes RESULTS/NNNNN.json (atomically: a
// killed run leaves no partial file) and prints a line on it. Exit status 0 pass, 2 fail,
// kPointRefused when the generator refused it.
constexpr int kPointRefused = 4;
// `dualrate` is the program to run, `version` its version (a project written by another is refused).
int run_campaign_point(const std::string& dir, const std::string& id, const std::string& results_dir,
                       const std::string& dualrate, const std::string& version);

struct CampaignReportOptions {
  std::string dir;                  // the project
  std::vector<std::string> shards;  // build trees or results folders (none: DIR/build)
  std::string html, junit;          // where to write them (empty: DIR/report.html, DIR/junit.xml)
  bool json = false;                // print JSON instead of the text summary
};

// `dualrate campaign report`: exit status 0 (pass), 2 (a point failed), 3 (a point missing).
int campaign_report(const CampaignReportOptions& options);

}  // namespace dualrate
