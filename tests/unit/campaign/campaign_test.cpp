// dualrate campaign: every bad file in tests/campaign/errors/ refused at its position (loader and
// CLI), the expansion into points, the project written the same twice, a point's step as a factor
// of the largest stable step and a refusal as the tests run them, and the report's merge
// (missing, refused, failed, stale and repeated results) with its verdicts and exit statuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "campaign/campaign.hpp"
#include "campaign/campaign_json.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  write_file(path, text);
}

class CampaignErrorFile : public ::testing::TestWithParam<std::string> {};

TEST_P(CampaignErrorFile, LoaderReportsPositionAndMessage) {
  const std::string& path = GetParam();
  const test::Expectation e = test::read_expectation(path);
  ASSERT_GT(e.line, 0) << path << ": the first line must be '# expect: LINE:COL: message'";
  init_symbolic();
  try {
    load_campaign(path);
    FAIL() << path << " loaded without error";
  } catch (const ModelError& error) {
    test::expect_error_as_stated(error, path, e);
  }
}

TEST_P(CampaignErrorFile, CliExitsWithStatus1AndWritesNothing) {
  const std::string& path = GetParam();
  const test::Expectation e = test::read_expectation(path);
  ASSERT_GT(e.line, 0);
  const std::string out = make_temp_dir("dualrate-campaign-errors");
  const ProcessResult r = run_process({test::cli(), "campaign", path, "-o", out + "/project"});
  test::expect_cli_error_as_stated(r.exit_code, r.output, path, e);
  EXPECT_FALSE(std::filesystem::exists(out + "/project"));
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Files, CampaignErrorFile, ::testing::ValuesIn(test::yaml_files({"tests/campaign/errors"})),
                         [](const auto& info) { return test::stem(info.param); });

// A grid of 100^8 points is counted from its axes, never built, and refused with its size.
TEST(Campaign, HugeGridIsCountedNotBuilt) {
  std::string values = "[";
  for (int i = 1; i <= 100; ++i) values += std::to_string(i) + (i < 100 ? ", " : "]");
  std::string params;
  for (const char* p : {"ms", "mu", "ks", "cs", "kt", "kerb_height", "kerb_t0", "kerb_ramp"})
    params += std::string("    ") + p + ": " + values + "\n";
  const std::string dir = make_temp_dir("dualrate-campaign-huge");
  write(dir + "/huge.yaml", "campaign: huge\nmodels: [" + test::source_path("models/quarter_car.yaml") +
                                "]\nschemes: [rk4, prk25]\nparams:\n  quarter_car:\n" + params);
  init_symbolic();
  try {
    load_campaign(dir + "/huge.yaml");
    FAIL() << "a campaign of 2e16 points loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 4) << e.format();
    EXPECT_TRUE(contains(e.what(), "the campaign has 2e+16 points")) << e.format();
  }
  std::filesystem::remove_all(dir);
}

TEST(Campaign, ExpandsEveryPointInOrder) {
  init_symbolic();
  const Campaign c = load_campaign(test::source_path("tests/campaign/three_models.yaml"));
  ASSERT_EQ(c.points.size(), 12u);
  EXPECT_EQ(c.name, "three_models");
  EXPECT_EQ(c.t_end, 0.3);
  EXPECT_EQ(c.tolerance, std::nullopt);  // each model's own
  EXPECT_EQ(c.points.front().id, "quarter_car/rk4/h=default/host/double/ms=250,kt=200000");
  EXPECT_EQ(c.points[1].id, "quarter_car/rk4/h=default/host/double/ms=350,kt=200000");
  EXPECT_EQ(c.points[2].id, "quarter_car/rk4/h=default/cortex-m4f/float/ms=250,kt=200000");  // its FPU's scalar
  EXPECT_EQ(c.points.back().id, "aircraft_pitch/sp_ll/h=default/cortex-m4f/float/Ma=-6,tau_act=0.003");
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    EXPECT_EQ(c.points[i].index, i + 1);
    EXPECT_FALSE(c.points[i].dual_rate);
    EXPECT_EQ(c.points[i].params.size(), 2u);
    EXPECT_TRUE(std::filesystem::path(c.points[i].model_file).is_absolute());
  }
}

// A grid over two parameters: every combination, the last parameter varying fastest.
TEST(Campaign, GridVariesTheLastParameterFastest) {
  const std::string dir = make_temp_dir("dualrate-campaign-grid");
  write(dir + "/grid.yaml", "campaign: grid\nmodels: [" + test::source_path("models/quarter_car.yaml") +
                                "]\nschemes: [rk4]\nparams:\n  quarter_car: {ms: [250, 350], kt: [160000, 200000]}\n");
  init_symbolic();
  const Campaign c = load_campaign(dir + "/grid.yaml");
  ASSERT_EQ(c.points.size(), 4u);
  const char* expected[] = {"ms=250,kt=160000", "ms=250,kt=200000", "ms=350,kt=160000", "ms=350,kt=200000"};
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(c.points[i].id, std::string("quarter_car/rk4/h=default/host/double/") + expected[i]);
  std::filesystem::remove_all(dir);
}

TEST(Campaign, ProjectIsTheSameTwiceAndReadsBack) {
  init_symbolic();
  Campaign c = load_campaign(test::source_path("tests/campaign/three_models.yaml"));
  c.version = "test";
  const std::string dir = make_temp_dir("dualrate-campaign-project");
  write_campaign_project(c, dir + "/a", "/opt/dualrate/bin/dualrate");
  write_campaign_project(c, dir + "/b", "/opt/dualrate/bin/dualrate");
  for (const char* file : {"CMakeLists.txt", "campaign.json"})
    EXPECT_EQ(read_file(dir + "/a/" + file), read_file(dir + "/b/" + file)) << file;
  const std::string cmake = read_file(dir + "/a/CMakeLists.txt");
  EXPECT_TRUE(contains(cmake, "set(DUALRATE \"/opt/dualrate/bin/dualrate\" CACHE FILEPATH"));
  EXPECT_TRUE(contains(
      cmake, "LABELS \"campaign=three_models;model=quarter_car;scheme=sp_ll;target=cortex-m4f;scalar=float\""));
  const Campaign back = read_campaign_project(dir + "/a");
  ASSERT_EQ(back.points.size(), c.points.size());
  EXPECT_EQ(back.t_end, c.t_end);
  EXPECT_EQ(back.tolerance, c.tolerance);
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    EXPECT_EQ(back.points[i].id, c.points[i].id);
    EXPECT_EQ(back.points[i].params, c.points[i].params);  // in the file's order
  }
  std::filesystem::remove_all(dir);
}

TEST(Campaign, VerifyArgumentsOfAPoint) {
  Campaign c;
  c.t_end = 0.25;
  c.tolerance = 0.001;
  c.tasks = Tasks::kSingle;
  CampaignPoint p;
  p.model_file = "/m/aircraft_pitch.yaml";
  p.scheme = "mrabm4";
  p.step = "0.5x";
  p.target = "cortex-m7";
  p.scalar = "double";
  p.params = {{"Ma", "-6"}, {"tau_act", "0.003"}};
  p.dual_rate = true;
  const std::vector<std::string> expected = {"verify",      "/m/aircraft_pitch.yaml",
                                             "--scheme",    "mrabm4",
                                             "--target",    "cortex-m7",
                                             "--scalar",    "double",
                                             "--step",      "0.00125",
                                             "--t-end",     "0.25",
                                             "--tolerance", "0.001",
                                             "--tasks",     "single",
                                             "--param",     "Ma=-6",
                                             "--param",     "tau_act=0.003",
                                             "--json"};
  EXPECT_EQ(verify_arguments(c, p, "0.00125"), expected);
}

// Two real points run as their tests run them: a step half the largest stable one (found by
// `dualrate analyze`, rounded down to 3 digits), and sp_ll on aircraft_pitch, refused by the generator.
TEST(CampaignPoint, FactorStepAndRefusal) {
  const std::string dir = make_temp_dir("dualrate-campaign-point");
  write(dir + "/c.yaml", "campaign: point\nmodels: [" + test::source_path("models/quarter_car.yaml") + ", " +
                             test::source_path("models/aircraft_pitch.yaml") +
                             "]\nschemes: [sp_ll]\nsteps: [0.5x]\nt_end: 0.05\n");
  ASSERT_EQ(run_process({test::cli(), "campaign", dir + "/c.yaml", "-o", dir + "/p"}).exit_code, 0);

  const ProcessResult ok = run_process(
      {test::cli(), "campaign", "point", dir + "/p", "quarter_car/sp_ll/h=0.5x/host/double", "--results", dir + "/r"});
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  const auto pass = nlohmann::json::parse(read_file(dir + "/r/000001.json"));
  EXPECT_EQ(pass.at("status"), "pass") << pass.dump(1);
  const ProcessResult analysis = run_process(
      {test::cli(), "analyze", test::source_path("models/quarter_car.yaml"), "--scheme", "sp_ll", "--json"});
  const double largest = nlohmann::json::parse(analysis.output).at("max_stable_step").get<double>();
  const double h = std::stod(pass.at("step_seconds").get<std::string>());
  EXPECT_LE(h, 0.5 * largest);
  EXPECT_GT(h, 0.5 * largest * (1 - 1e-2));  // 3 significant digits
  EXPECT_EQ(pass.at("verify").at("steps").get<double>(), std::ceil(0.05 / h - 1e-9)) << pass.dump(1);

  const ProcessResult refused = run_process({test::cli(), "campaign", "point", dir + "/p",
                                             "aircraft_pitch/sp_ll/h=0.5x/host/double", "--results", dir + "/r"});
  EXPECT_EQ(refused.exit_code, kPointRefused) << refused.output;
  const auto r = nlohmann::json::parse(read_file(dir + "/r/000002.json"));
  EXPECT_EQ(r.at("status"), "refused");
  EXPECT_TRUE(contains(r.at("reason").get<std::string>(), "aircraft_pitch.yaml:")) << r.dump(1);
  std::filesystem::remove_all(dir);
}

// The report over hand-made results: one of each status, a result of a point since changed, a
// repeated point (the later run counts) and unreadable files.
class CampaignReport : public ::testing::Test {
 protected:
  void SetUp() override {
    init_symbolic();
    dir_ = make_temp_dir("dualrate-campaign-report");
    write(dir_ + "/c.yaml", "campaign: merge\nmodels: [" + test::source_path("models/quarter_car.yaml") +
                                "]\nschemes: [rk4]\nparams:\n  quarter_car: {ms: [250, 300, 350, 400]}\n");
    campaign_ = load_campaign(dir_ + "/c.yaml");
    campaign_.version = "test";
    write_campaign_project(campaign_, dir_ + "/p", "dualrate");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A result for point i (0-based) in folder `shard`.
  void result(const std::string& shard, std::size_t i, const std::string& status, double finished,
              double max_error = 1e-6, const std::string& model_file = {}) {
    nlohmann::ordered_json point = point_json(campaign_.points[i]);
    if (!model_file.empty()) point["model_file"] = model_file;
    const nlohmann::ordered_json r = {
        {"campaign", campaign_.name},
        {"point", point},
        {"status", status},
        {"reason", status == "pass" ? "" : "why"},
        {"step_seconds", nullptr},
        {"command", nlohmann::ordered_json::array()},
        {"exit_code", 0},
        {"seconds", 1.5},
        {"finished_unix", finished},
        {"verify", {{"max_error", max_error}, {"tolerance", 1e-5}, {"pass", status == "pass"}}}};
    write(std::filesystem::path(dir_) / shard / "results" / (std::to_string(finished) + ".json"), r.dump());
  }

  // The report's exit status and its JSON.
  std::pair<int, nlohmann::json> report(const std::vector<std::string>& shards) {
    CampaignReportOptions o;
    o.dir = dir_ + "/p";
    for (const auto& s : shards) o.shards.push_back(dir_ + "/" + s);
    o.json = true;
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int status = campaign_report(o);
    const std::string out = ::testing::internal::GetCapturedStdout();
    ::testing::internal::GetCapturedStderr();
    return {status, nlohmann::json::parse(out)};
  }

  std::string dir_;
  Campaign campaign_;
};

TEST_F(CampaignReport, EveryStatusAndVerdict) {
  result("s1", 0, "pass", 1);
  result("s1", 1, "refused", 2);
  result("s2", 2, "pass", 3);
  auto [status, j] = report({"s1", "s2"});
  EXPECT_EQ(status, 3);  // point 4 ran nowhere
  EXPECT_EQ(j.at("verdict"), "incomplete");
  EXPECT_EQ(j.at("points")[3].at("status"), "missing");
  EXPECT_EQ(j.at("points")[0].at("max_error"), 1e-6);
  EXPECT_EQ(j.at("points")[1].at("reason"), "why");
  EXPECT_EQ(j.at("summary"),
            nlohmann::json({{"pass", 2}, {"fail", 0}, {"refused", 1}, {"missing", 1}, {"seconds", 4.5}}));

  result("s2", 3, "fail", 4, 2e-5);
  std::tie(status, j) = report({"s1", "s2"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(j.at("verdict"), "fail");

  result("s3", 3, "pass", 5);  // point 4 again, later: it counts
  std::tie(status, j) = report({"s1", "s2", "s3"});
  EXPECT_EQ(status, 0);
  EXPECT_EQ(j.at("verdict"), "pass");
  const std::string junit = read_file(dir_ + "/p/junit.xml");
  EXPECT_TRUE(contains(junit, "tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"1\"")) << junit;
  const std::string html = read_file(dir_ + "/p/report.html");
  EXPECT_TRUE(contains(html, "PASS: 3 pass, 0 fail, 1 refused, 0 missing of 4 points")) << html.substr(0, 2000);
}

TEST_F(CampaignReport, StaleAndUnreadableResultsDoNotCount) {
  result("s1", 0, "pass", 1);
  result("s1", 1, "pass", 2);
  result("s1", 2, "pass", 3);
  result("s1", 3, "pass", 4);
  result("s1", 3, "passed", 5);  // later, but no status a point's run writes: point 3's stays its run at 4
  write(dir_ + "/s1/results/garbage.json", "{\"campaign\": \"merge\", \"point\": ");
  // The campaign changed since: point 2's mass is now 325, so its result is not its result.
  write(dir_ + "/c.yaml", "campaign: merge\nmodels: [" + test::source_path("models/quarter_car.yaml") +
                              "]\nschemes: [rk4]\nparams:\n  quarter_car: {ms: [250, 325, 350, 400]}\n");
  campaign_ = load_campaign(dir_ + "/c.yaml");
  campaign_.version = "test";
  write_campaign_project(campaign_, dir_ + "/p", "dualrate");
  const auto [status, j] = report({"s1"});
  EXPECT_EQ(status, 3);
  EXPECT_EQ(j.at("points")[1].at("status"), "missing");
  EXPECT_EQ(j.at("points")[3].at("status"), "pass");
  EXPECT_EQ(j.at("summary").at("pass"), 3);
  EXPECT_EQ(j.at("summary").at("fail"), 0);
}

// A shard that had the models checked out elsewhere ran the same text (the digest): it counts.
TEST_F(CampaignReport, ResultFromAnotherCheckoutCounts) {
  result("s1", 0, "pass", 1, 1e-6, "/elsewhere/models/quarter_car.yaml");
  const auto [status, j] = report({"s1"});
  EXPECT_EQ(j.at("points")[0].at("status"), "pass");
  EXPECT_EQ(j.at("summary").at("missing"), 3);
}

// CTest's JUnit file: a test killed at CTest's TIMEOUT wrote no result but failed; a test JUnit
// says passed, without a result, is no evidence and stays missing.
TEST_F(CampaignReport, JUnitFailureWithoutAResultIsAFailure) {
  result("s1", 0, "pass", 1);
  write(dir_ + "/s1/junit.xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite tests=\"3\">\n"
        "<testcase name=\"" +
            campaign_.points[1].id +
            "\" status=\"fail\"><failure message=\"Timeout\"/></testcase>\n"
            "<testcase name=\"" +
            campaign_.points[2].id +
            "\" status=\"run\"/>\n"
            "<testcase name=\"" +
            campaign_.points[0].id +
            "\" status=\"fail\"><failure message=\"Failed\"/></testcase>\n"
            "</testsuite>\n");
  const auto [status, j] = report({"s1"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(j.at("points")[0].at("status"), "pass");  // its result counts, not an earlier run's JUnit line
  EXPECT_EQ(j.at("points")[1].at("status"), "fail");
  EXPECT_TRUE(contains(j.at("points")[1].at("reason").get<std::string>(), "(Timeout)"));
  EXPECT_EQ(j.at("points")[2].at("status"), "missing");
}

TEST_F(CampaignReport, NoResultsAtAllIsIncomplete) {
  const auto [status, j] = report({"nowhere"});
  EXPECT_EQ(status, 3);
  EXPECT_EQ(j.at("summary").at("missing"), 4);
}

}  // namespace
}  // namespace dualrate
