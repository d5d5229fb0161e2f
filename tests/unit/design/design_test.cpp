// dualrate design (design/): models without a partition, the partition proposed from
// participation factors, the model file rewritten with a design, the step search against an
// exhaustive sweep, and the CLI.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <map>
#include <optional>
#include <set>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "design/design.hpp"
#include "design/step_search.hpp"
#include "design/model_text.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "verify/accuracy.hpp"
#include "verify/verify.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// The model file's text with its states: written as one plain mapping (no partition).
std::string without_partition(const std::string& path) {
  const std::string split = with_partition(read_file(path), test::load(path), {});  // every state under slow:
  std::smatch block;
  EXPECT_TRUE(std::regex_search(split, block, std::regex("states:\n  slow:\n((    .*\n)*)  fast:\n")));
  const std::string plain = "states:\n" + std::regex_replace(block[1].str(), std::regex("(^|\n)    "), "$1  ");
  return split.substr(0, static_cast<std::size_t>(block.position(0))) + plain +
         split.substr(static_cast<std::size_t>(block.position(0) + block.length(0)));
}

std::vector<std::string> fast_names(const Model& m) {
  std::vector<std::string> names;
  for (std::size_t i = m.slow_count; i < m.states.size(); ++i) names.push_back(m.states[i].name);
  return names;
}

TEST(Unpartitioned, PlainStatesLoadAsOneSlowBlock) {
  init_symbolic();
  const std::string text = without_partition(test::source_path("models/dc_motor.yaml"));
  EXPECT_NE(text.find("states:\n  theta: 0\n  omega: 0\n  I: 0\n"), std::string::npos) << text;
  const Model m = load_model_text(text, "dc_motor.yaml");
  EXPECT_FALSE(m.partitioned);
  EXPECT_EQ(m.slow_count, 3U);
  EXPECT_EQ(m.fast_count(), 0U);
  EXPECT_TRUE(test::load(test::source_path("models/dc_motor.yaml")).partitioned);
}

TEST(Unpartitioned, SchemesThatNeedThePartitionPointToDesign) {
  const std::string dir = make_temp_dir("dualrate-design-test");
  const std::string file = dir + "/dc_motor.yaml";
  write_file(file, without_partition(test::source_path("models/dc_motor.yaml")));
  for (const char* scheme : {"sp_ll", "mrabm4", "quasistatic", "smfe", "prk25"}) {
    const ProcessResult r = run_process({test::cli(), "generate", file, "--scheme", scheme, "-o", dir});
    EXPECT_EQ(r.exit_code, 1) << scheme << r.output;
    // Positioned at the first state (line of theta under states:).
    EXPECT_TRUE(std::regex_search(r.output,
                                  std::regex(file + ":[0-9]+:3: error: " + scheme + " needs the slow/fast partition")))
        << r.output;
    EXPECT_NE(r.output.find("dualrate design " + file + " --tolerance TOL"), std::string::npos) << r.output;
  }
  const ProcessResult rk4 = run_process({test::cli(), "verify", file, "--scheme", "rk4"});
  EXPECT_EQ(rk4.exit_code, 0) << rk4.output;
  std::filesystem::remove_all(dir);
}

// Every model of models/ with fast states declares the partition design proposes, except
// those the README explains: three time scales, where the largest gap (the proposal) is below
// the file's split, so that the file's fast states are among the proposal's; no gap of
// kMinGap all along (quarter cars: 9.3 to 9.7; f16: its elevator saturates; the relaxed-stability
// pitch loop: 7.9, its actuator at 20 1/s against a closed loop whose pitch rate is fast too).
TEST(Partition, ProposesTheDeclaredPartition) {
  const std::set<std::string> three_scales{"jet_acceleration", "planar_spacecraft", "planar_vehicle",
                                           "tire_lag_vehicle"};
  const std::set<std::string> no_gap{"f16_longitudinal", "quarter_car", "quarter_car_c", "quarter_car_relative",
                                     "relaxed_stability_pitch"};
  for (const std::string& path : test::yaml_files({"models"})) {
    const Model m = test::load(path);
    if (m.fast_count() == 0) continue;
    const std::string name = test::stem(path);
    const PartitionProposal p = propose_partition(m, m.simulation.t_end);
    SCOPED_TRACE(name + "\n" + p.text());
    EXPECT_EQ(p.samples, kPartitionSamples);
    if (no_gap.count(name)) {
      EXPECT_FALSE(p.found);
      EXPECT_GT(p.gap, 5);
      EXPECT_LT(p.gap, kMinGap);
      continue;
    }
    EXPECT_TRUE(p.found);
    EXPECT_GE(p.gap, kMinGap);
    if (three_scales.count(name)) {
      EXPECT_FALSE(p.agrees);
      for (const std::string& f : fast_names(m)) EXPECT_EQ(std::count(p.fast.begin(), p.fast.end(), f), 1) << f;
      EXPECT_GT(p.fast.size(), m.fast_count());
      continue;
    }
    EXPECT_EQ(p.fast, fast_names(m));
    EXPECT_TRUE(p.agrees);
  }
}

// planar_spacecraft's file splits at the second gap (the panels, 19.9), below the proposal's
// (free translation against everything that moves, 50), and design lists it.
TEST(Partition, ListsTheOtherSplits) {
  const Model m = test::load(test::source_path("models/planar_spacecraft.yaml"));
  const PartitionProposal p = propose_partition(m, m.simulation.t_end);
  ASSERT_EQ(p.alternatives.size(), 1U) << p.text();
  EXPECT_EQ(p.alternatives[0].fast, fast_names(m));
  EXPECT_GE(p.alternatives[0].gap, kMinGap);
  EXPECT_LT(p.alternatives[0].gap, p.gap);
}

TEST(Partition, NoGapNoPartition) {
  init_symbolic();
  // Two modes at -1 and -3: a gap of 3, below kMinGap.
  const Model m = load_model_text(
      "name: close\nstates:\n  x: 1\n  y: 1\nequations:\n  x: -x\n  y: -3*y + x\nsimulation:\n  t_end: 5\n",
      "close.yaml");
  const PartitionProposal p = propose_partition(m, 5);
  EXPECT_FALSE(p.found);
  EXPECT_NEAR(p.gap, 3, 1e-6);
  EXPECT_NE(p.note.find("no two time scales"), std::string::npos) << p.note;
}

// design -o writes a chosen hold into the inputs block: a plain input becomes a mapping, a
// mapping keeps its unit and description; the model read back holds them so, with the defaults
// as written.
TEST(ModelText, DesignWritesTheHold) {
  init_symbolic();
  const std::string text =
      "name: m\ninputs:\n  V: 12*2   # volts\n  T: {value: 0.5, hold: zero, unit: N*m, description: load torque}\n"
      "states:\n  x: 0\nequations:\n  x: V - T - x\n";
  Model held = load_model_text(text, "m.yaml");
  for (Input& u : held.inputs) u.hold = InputHold::kQuadratic;
  const Model back = load_model_text(with_input_holds(text, held), "m.yaml");
  ASSERT_EQ(back.inputs.size(), 2U);
  for (const Input& u : back.inputs) EXPECT_EQ(u.hold, InputHold::kQuadratic) << u.name;
  EXPECT_EQ(back.inputs[0].default_value, 24);
  EXPECT_EQ(back.inputs[1].unit, "N*m");
  EXPECT_EQ(back.inputs[1].description, "load torque");
  EXPECT_EQ(back.states.size(), 1U);
  // Zero holds write a plain input back as it was.
  Model zero = held;
  for (Input& u : zero.inputs) u.hold = InputHold::kZero;
  EXPECT_NE(with_input_holds(text, zero).find("  V: 12*2\n"), std::string::npos);
}

TEST(ModelText, DesignRewritesStatesAndSimulationOnly) {
  init_symbolic();
  const std::string path = test::source_path("models/dc_motor.yaml");
  const Model m = test::load(path);
  const std::string text = without_partition(path);
  const Model plain = load_model_text(text, path);
  const std::string out = with_simulation(with_partition(text, plain, {"I"}), {"mrabm4", 2e-4, 8, ""});
  const Model back = load_model_text(out, path);
  EXPECT_TRUE(back.partitioned);
  EXPECT_EQ(fast_names(back), std::vector<std::string>{"I"});
  EXPECT_EQ(back.simulation.scheme, "mrabm4");
  EXPECT_EQ(*back.simulation.step, 2e-4);
  EXPECT_EQ(back.simulation.ratio, 8);
  EXPECT_EQ(back.simulation.t_end, m.simulation.t_end);
  EXPECT_EQ(back.simulation.inputs.size(), m.simulation.inputs.size());
  EXPECT_EQ(back.description, m.description);
  // Everything but the states block and the three simulation keys as it was.
  const auto without = [](std::string s) {
    s = std::regex_replace(s, std::regex("states:\n(  .*\n)*"), "");
    return std::regex_replace(s, std::regex("  (scheme|step|ratio): .*\n"), "");
  };
  EXPECT_EQ(without(out), without(read_file(path)));
}

// The file's scheme options are its scheme's: a design that proposes a scheme without them
// leaves the block out (the file would be refused with it), and keeps it otherwise.
TEST(ModelText, DesignLeavesOutSchemeOptionsTheSchemeDoesNotTake) {
  init_symbolic();
  const std::string text = read_file(test::source_path("tests/models/schemes/smfe_gap.yaml")) +
                           "  scheme_options:\n    inner_step: c/200   # h_s\n\n    # comment\n  tolerance: 0.01\n";
  DesignedSimulation rk4{"rk4", 1e-3, 1, ""};
  rk4.without_scheme_options = true;
  const Model back = load_model_text(with_simulation(text, rk4), "gap.yaml");
  check_model_scheme(back);
  EXPECT_TRUE(back.simulation.scheme_options.empty());
  EXPECT_EQ(back.simulation.scheme, "rk4");
  EXPECT_EQ(back.simulation.tolerance.relative, 0.01);  // the key after the block stays
  const Model kept = load_model_text(with_simulation(text, {"smfe", 0.2, 1, ""}), "gap.yaml");
  ASSERT_EQ(kept.simulation.scheme_options.size(), 1U);
  EXPECT_DOUBLE_EQ(kept.simulation.scheme_options[0].value, 0.1 / 200);
}

// The cheapest (scheme, step) of a sweep over every step of the same grid, from the largest
// down to the first within the tolerance and two beyond it (an error not monotone in the
// step would show as a cheaper step the search skipped), every dual-rate ratio of kRatios.
struct Swept {
  std::string scheme;
  double step = 0;
  int ratio = 1;
  double ops_per_second = 0;
};

class DesignSweep : public ::testing::TestWithParam<const char*> {};

TEST_P(DesignSweep, ChoiceCostsWithinTenPercentOfAnExhaustiveSweep) {
  {
    const std::string path = test::source_path(std::string("models/") + GetParam() + ".yaml");
    const Model m = test::load(path);
    DesignRequest request;
    request.tolerance.relative = 1e-2;
    const Design d = design(m, read_file(path), request);
    ASSERT_GE(d.choice, 0) << d.text();
    const Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
    std::optional<Swept> best;
    std::map<std::pair<double, int>, Trace> accurate;
    for (const Candidate& c : d.candidates) {
      if (c.status == CandidateStatus::kRefused || c.max_stable_step <= 0) continue;
      const SchemeInfo* info = find_scheme(c.scheme);
      for (int ratio : info->traits.dual_rate ? kRatios : std::vector<int>{1}) {
        // As the search: a dual-rate scheme's steps are not capped by its stability scan.
        const std::vector<double> grid =
            design_steps(request, m.simulation.t_end, info->traits.dual_rate ? 0 : c.max_stable_step, c.stable_bounded,
                         info->traits.dual_rate ? ratio : 1);
        int beyond = -1;
        for (double h : grid) {
          if (beyond >= 2) break;
          GenerateRequest g{c.scheme, h, ratio, ScalarType::kDouble, "test"};
          g.t_end = m.simulation.t_end;
          Model lm = m;
          if (c.linearization) lm.simulation.linearization = *c.linearization;
          SchemeDesign design;
          try {
            design = precompute_scheme(lm, g);
          } catch (const std::exception&) {  // no design at this step (smfe: D below its inner step)
            continue;
          }
          // A step that costs no less than the cheapest found cannot be the sweep's answer.
          const double ops = static_cast<double>(step_cost(lm, g, design).ops.total()) / (h * ratio);
          if (best && ops >= best->ops_per_second) continue;
          const long steps = step_count(m.simulation.t_end, h);
          // The rows the search compares (design.hpp): every k-th step, at most kErrorRows.
          const int every = ratio * static_cast<int>(std::max(1L, steps / (ratio * kErrorRows)));
          RunOptions run{c.scheme, h, static_cast<double>(steps) * h, every};
          run.ratio = ratio;
          run.schedule = design.schedule;
          const ReferenceCore core(lm);
          const auto accurate_at = [&](int rows) -> const Trace& {
            const auto key = std::make_pair(h, rows);
            if (!accurate.count(key)) {
              // As the search's high-accuracy runs: output steps of at most t_end / 1000.
              const long sub = std::max(1L, static_cast<long>(std::ceil(h / (m.simulation.t_end / 1000) - 1e-9)));
              accurate[key] = ReferenceCore(m).simulate(
                  {kHighAccuracy, h / static_cast<double>(sub), run.t_end, rows * static_cast<int>(sub)});
            }
            return accurate[key];
          };
          // As the search: the states and outputs at the sampled rows, and where that is within
          // the tolerance at every (macro) step.
          const std::size_t compared = m.states.size() + m.outputs.size();
          double error = INFINITY;
          try {
            error = compare_traces(core.simulate(run), accurate_at(every), compared).max_error;
            if (error <= 1e-2 && every > ratio) {
              run.every = ratio;
              error = compare_traces(core.simulate(run), accurate_at(ratio), compared).max_error;
            }
          } catch (const SimulationError&) {
          }
          if (!(error <= 1e-2)) continue;
          if (beyond < 0) beyond = 0;
          ++beyond;
          best = Swept{c.scheme, h, ratio, ops};
        }
      }
    }
    ASSERT_TRUE(best.has_value());
    EXPECT_LE(chosen.ops_per_second, 1.10 * best->ops_per_second)
        << d.text() << "\nsweep: " << best->scheme << " step " << best->step << " ratio " << best->ratio;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, DesignSweep,
                         ::testing::Values("adaptive_parasitic", "aircraft_pitch", "flexible_joint",
                                           "jet_acceleration"));

// A design of `scheme` alone, for a relative tolerance (or none).
DesignRequest scheme_request(const std::string& scheme, std::optional<double> relative) {
  DesignRequest request;
  request.tolerance.relative = relative;
  request.schemes = {scheme};
  return request;
}

// rk4 alone, its steps dividing 1 ms.
DesignRequest rk4_request_at_1ms(std::optional<double> relative) {
  DesignRequest request = scheme_request("rk4", relative);
  request.period = 1e-3;
  return request;
}

// On a model whose inputs vary (models/fan_drive.yaml), rk4 is searched with each hold. The zero
// hold's error falls only linearly with the step (1e-4 needs 1e-5); a held one meets 1e-4 at a
// step ten times that, where the first steps' start-up error (measured from t = 0, as design
// does) sets it, at 1.25 times the operations per step (the hold's arithmetic): the choice is
// held and costs at most a fifth of the zero hold's (10 / 1.25 = 8, less one R10 step of margin,
// 1.25 in step, for a change in either; measured 8.0).
TEST(Design, ChoosesTheHoldWithTheStep) {
  const std::string path = test::source_path("models/fan_drive.yaml");
  const Model m = test::load(path);
  DesignRequest request = scheme_request("rk4", 1e-4);
  request.exhaustive = true;  // the zero hold searched to its own cheapest step, to cost it
  const Design d = design(m, read_file(path), request);
  ASSERT_GE(d.choice, 0) << d.text();
  const Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
  EXPECT_NE(chosen.hold, "zero") << d.text();
  const Candidate* zero = nullptr;
  for (const Candidate& c : d.candidates)
    if (c.hold == "zero") zero = &c;
  ASSERT_NE(zero, nullptr) << d.text();
  ASSERT_TRUE(zero->meets()) << d.text();
  EXPECT_LE(chosen.ops_per_second, zero->ops_per_second / 5) << d.text();
  // The choice's error split: |x - a| <= |x - b| + |b - a| with b the solution with held inputs,
  // whose scale differs from a's by at most the hold's part of it.
  ASSERT_GE(chosen.hold_error, 0) << d.text();
  ASSERT_GE(chosen.integration_error, 0) << d.text();
  EXPECT_LE(chosen.error, chosen.hold_error + chosen.integration_error * (1 + chosen.hold_error)) << d.text();
  EXPECT_NE(d.text().find("of which the inputs' hold between samples accounts for"), std::string::npos);
  EXPECT_NE(d.text().find("rk4, hold " + chosen.hold), std::string::npos) << d.text();
  const Model written = load_model_text(designed_text(d, chosen, m, read_file(path)), path);
  for (const Input& u : written.inputs) EXPECT_EQ(to_string(u.hold), chosen.hold) << u.name;
}

// Branch and bound: a step that costs more than a candidate already within the tolerance is not
// run. It makes the same choice as the exhaustive search, runs fewer steps, and every candidate it
// calls dearer costs at least the choice at its own cheapest step within the tolerance.
TEST(Design, BoundSkipsOnlyDearerSteps) {
  const std::string path = test::source_path("models/fan_drive.yaml");
  const Model m = test::load(path);
  DesignRequest request;
  request.tolerance.relative = 1e-4;
  request.schemes = {"rk2", "rk4"};
  const Design bounded = design(m, read_file(path), request);
  request.exhaustive = true;
  const Design exhaustive = design(m, read_file(path), request);
  ASSERT_GE(bounded.choice, 0) << bounded.text();
  ASSERT_GE(exhaustive.choice, 0) << exhaustive.text();
  const Candidate& chosen = bounded.candidates[static_cast<std::size_t>(bounded.choice)];
  const Candidate& best = exhaustive.candidates[static_cast<std::size_t>(exhaustive.choice)];
  EXPECT_EQ(chosen.scheme, best.scheme);
  EXPECT_EQ(chosen.hold, best.hold);
  EXPECT_EQ(chosen.step, best.step);
  std::size_t runs = 0, all_runs = 0, dearer = 0;
  for (const Candidate& c : bounded.candidates) {
    runs += c.trials.size();
    if (c.status != CandidateStatus::kDearer) continue;
    ++dearer;
    for (const Candidate& e : exhaustive.candidates) {
      if (e.scheme == c.scheme && e.hold == c.hold && e.meets()) {
        EXPECT_GE(e.ops_per_second, chosen.ops_per_second) << c.scheme << ", hold " << c.hold;
      }
    }
  }
  for (const Candidate& c : exhaustive.candidates) all_runs += c.trials.size();
  EXPECT_GT(dearer, 0U) << bounded.text();
  EXPECT_LT(runs, all_runs);
}

// The error between the samples the search compares (every 20 ms here): a stiff lag
// (lambda = -3000 1/s) that follows an input's jump at t = 3.001 s, between two samples. RK4's one-step factor R(h
// lambda) differs from exp(h lambda) by 0.05 at h = 5e-4 (h lambda = -1.5), 1.7e-3 at 2.5e-4 and 5.9e-4 at 2e-4, in the
// step after the jump; by the next sample it has decayed by R^20 below 1e-11.
constexpr const char* kJump =
    "name: jump\ninputs:\n  u: 0\nstates:\n  slow:\n    x: 0\n  fast:\n    z: 0\n"
    "equations:\n  x: z - x\n  z: 3000*(u - z)\nsimulation:\n  t_end: 20\n  inputs:\n    u: step(t - 3.001)\n";

// The largest error of rk4 at h with rows every `every` steps, on the states and outputs.
double rk4_error_at_rows(const Model& m, double h, int every) {
  const ReferenceCore core(m);
  RunOptions run{"rk4", h, 20, every};
  const Trace trace = core.simulate(run);
  return check_accuracy(trace, accurate_on_grid(core, run, trace), m, {}).max_error;
}

// design checks a step within the tolerance at its samples again at every step: its choice is
// within the tolerance at every step, where a larger step within it at the samples (a search by
// samples only would choose it) is not.
TEST(Design, ChecksTheChoiceAtEveryStep) {
  const Model m = test::load_text(kJump);
  const Design d = design(m, kJump, rk4_request_at_1ms(1e-3));
  ASSERT_GE(d.choice, 0) << d.text();
  const Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
  EXPECT_LE(rk4_error_at_rows(m, chosen.step, 1), 1e-3) << d.text();
  EXPECT_EQ(chosen.error_where, "z");
  EXPECT_GT(chosen.error_time, 3.001) << d.text();  // in the steps after the jump
  EXPECT_LT(chosen.error_time, 3.002);
  EXPECT_GT(rk4_error_at_rows(m, 5e-4, 1), 1e-3);
  EXPECT_LE(rk4_error_at_rows(m, 5e-4, 20), 1e-3);
}

// A dual-rate choice is checked at every fast tick too: the tasks' state and outputs between
// releases (the slow states interpolated, ReferenceCore::tick_trace) against the high-accuracy
// solution there are within the tolerance, and no worse than design says.
TEST(Design, ChecksADualRateChoiceAtEveryFastTick) {
  const std::string path = test::source_path("models/flexible_joint.yaml");
  const Model m = test::load(path);
  const DesignRequest request = scheme_request("mrabm4", 1e-3);
  const Design d = design(m, read_file(path), request);
  ASSERT_GE(d.choice, 0) << d.text();
  const Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
  EXPECT_NE(d.text().find("checked at every macro step and fast tick"), std::string::npos) << d.text();
  const ReferenceCore core(m);
  const double t_end = m.simulation.t_end;
  RunOptions run{"mrabm4", chosen.step, static_cast<double>(step_count(t_end, chosen.step)) * chosen.step, 1};
  run.ratio = chosen.ratio;
  const Trace ticks = core.tick_trace(run, 1);
  const AccuracyCheck a = check_accuracy(ticks, accurate_on_grid(core, run, ticks), m, request.tolerance);
  EXPECT_LE(a.max_error, 1e-3) << d.text();
  EXPECT_LE(a.max_error, chosen.error * (1 + 1e-3)) << d.text() << accuracy_text(a, "");
}

// An absolute tolerance judges its state alone, in its own unit: on the jump model with only
// x's error asked (|x - x_accurate| <= 1e-2; the fast z's overshoot after the jump, 0.05 at 5e-4,
// not judged) design chooses a step at least as large as for 1e-3 on every state, its error in
// x, absolute, within 1e-2 at every step of its run.
TEST(Design, AnAbsoluteToleranceJudgesItsStateInItsUnit) {
  const Model m = test::load_text(kJump);
  const Design every_state = design(m, kJump, rk4_request_at_1ms(1e-3));
  ASSERT_GE(every_state.choice, 0) << every_state.text();
  DesignRequest request = rk4_request_at_1ms(std::nullopt);
  request.tolerance.absolute = {{"x", 1e-2}};
  const Design d = design(m, kJump, request);
  ASSERT_GE(d.choice, 0) << d.text();
  const Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
  EXPECT_EQ(chosen.error_where, "x") << d.text();
  EXPECT_TRUE(chosen.error_absolute);
  EXPECT_GE(chosen.step, every_state.candidates[static_cast<std::size_t>(every_state.choice)].step) << d.text();
  const ReferenceCore core(m);
  RunOptions run{"rk4", chosen.step, 20, 1};
  const Trace trace = core.simulate(run);
  const AccuracyCheck a = check_accuracy(trace, accurate_on_grid(core, run, trace), m, request.tolerance);
  EXPECT_EQ(a.worst_state, "x");
  EXPECT_LE(a.max_error, 1e-2) << d.text();
  EXPECT_NEAR(a.max_error, chosen.error, 1e-3 * chosen.error) << d.text();
  EXPECT_NE(d.text().find("for an error of at most absolute x 0.01"), std::string::npos) << d.text();
  EXPECT_NE(d.json().find(R"("tolerance": null, "absolute_tolerance": {"x": 0.01})"), std::string::npos) << d.json();
}

// --period P: every candidate's step is P / k for a whole k; the JSON names the choice.
TEST(DesignCli, PeriodFixesTheSteps) {
  const ProcessResult r = run_process({test::cli(), "design", test::source_path("models/flexible_joint.yaml"),
                                       "--tolerance", "1e-2", "--period", "0.01", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch step;
  ASSERT_TRUE(std::regex_search(
      r.output, step,
      std::regex(R"("choice": \{"scheme": "\w+", "linearization": "\w*", "hold": "\w*", "step": ([0-9.e-]+))")))
      << r.output;
  const double k = 0.01 / std::stod(step[1].str());
  EXPECT_NEAR(k, std::round(k), 1e-9 * k) << r.output;
  const std::regex candidate_step(R"("step": ([0-9.e-]+), "ratio")");
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), candidate_step); it != std::sregex_iterator();
       ++it) {
    const double j = 0.01 / std::stod((*it)[1].str());
    EXPECT_NEAR(j, std::round(j), 1e-9 * j) << (*it)[0];
  }
}

// --schemes: the candidates are those asked for, in the JSON and the table; an unknown name
// is a usage error that lists the known ones.
TEST(DesignCli, SchemesLimitTheCandidates) {
  const std::string joint = test::source_path("models/flexible_joint.yaml");
  const ProcessResult r =
      run_process({test::cli(), "design", joint, "--tolerance", "1e-2", "--schemes", "rk4,euler", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(R"("schemes": ["rk4", "euler"])"), std::string::npos) << r.output;
  std::set<std::string> seen;
  const std::regex candidate(R"re(\{"scheme": "(\w+)")re");
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), candidate); it != std::sregex_iterator(); ++it)
    seen.insert((*it)[1].str());
  EXPECT_EQ(seen, (std::set<std::string>{"rk4", "euler"})) << r.output;
  const ProcessResult text = run_process({test::cli(), "design", joint, "--tolerance", "1e-2", "--schemes", "rk4"});
  EXPECT_NE(text.output.find("candidates (only rk4, as asked), cheapest first"), std::string::npos) << text.output;
  const ProcessResult bad = run_process({test::cli(), "design", joint, "--tolerance", "1e-2", "--schemes", "rk4,rk5"});
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_NE(bad.output.find("--schemes: unknown scheme 'rk5' (known: euler rk2 rk4"), std::string::npos) << bad.output;
}

TEST(DesignCli, BadRequestsAndNothingToChoose) {
  const std::string motor = test::source_path("models/dc_motor.yaml");
  for (const char* tol : {"-1", "0", "nan"}) {
    const ProcessResult r = run_process({test::cli(), "design", motor, "--tolerance", tol});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("--tolerance must be a positive number"), std::string::npos) << r.output;
  }
  const ProcessResult unasked = run_process({test::cli(), "design", motor});
  EXPECT_EQ(unasked.exit_code, 1) << unasked.output;
  EXPECT_NE(unasked.output.find("--tolerance TOL (as in --tolerance 1e-3), or simulation: tolerance:"),
            std::string::npos)
      << unasked.output;
  const ProcessResult tiny = run_process({test::cli(), "design", motor, "--tolerance", "1e-15"});
  EXPECT_EQ(tiny.exit_code, 1) << tiny.output;
  EXPECT_NE(tiny.output.find("below what the high-accuracy solution resolves"), std::string::npos) << tiny.output;
  const ProcessResult target = run_process({test::cli(), "design", motor, "--tolerance", "1e-2", "--target", "m4"});
  EXPECT_EQ(target.exit_code, 1) << target.output;
  EXPECT_NE(target.output.find("unknown target 'm4'"), std::string::npos) << target.output;
  // A lag of 1e-7 s: every scheme that takes a model without a partition needs more than
  // kMaxSteps steps to be stable; the table is still printed with the closest, exit 2, no file.
  const std::string dir = make_temp_dir("dualrate-design-cli");
  write_file(dir + "/stiff_lag.yaml",
             "name: stiff_lag\ninputs:\n  u: 1\nstates:\n  x: 0\nequations:\n  x: -1e7*(x - u)\nsimulation:\n  "
             "t_end: 1\n");
  const ProcessResult none =
      run_process({test::cli(), "design", dir + "/stiff_lag.yaml", "--tolerance", "1e-3", "-o", dir + "/out.yaml"});
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("no scheme meets the request; the closest: "), std::string::npos) << none.output;
  EXPECT_NE(none.output.find("takes more than 200000 steps"), std::string::npos) << none.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.yaml"));
  // An input that switches between the high-accuracy solution's output times: its own error
  // (about 1e-10 between Odeint's 1e-11 and 1e-12) bounds what a design can be checked to.
  write_file(dir + "/late_switch.yaml",
             "name: late_switch\ninputs:\n  u: 0\nstates:\n  x: 0\n  y: 0\nequations:\n  x: -x + u\n  y: -100*y + x\n"
             "simulation:\n  t_end: 1\n  inputs:\n    u: step(t - pi/10)\n");
  const ProcessResult floor = run_process({test::cli(), "design", dir + "/late_switch.yaml", "--tolerance", "1e-10"});
  EXPECT_EQ(floor.exit_code, 1) << floor.output;
  EXPECT_NE(floor.output.find("below what the high-accuracy solution resolves"), std::string::npos) << floor.output;
  // x' = x^2 from 1 reaches infinity at t = 1: no scenario to design against.
  write_file(dir + "/blow_up.yaml", "name: blow_up\nstates:\n  x: 1\nequations:\n  x: x^2\nsimulation:\n  t_end: 2\n");
  const ProcessResult blow = run_process({test::cli(), "design", dir + "/blow_up.yaml", "--tolerance", "1e-3"});
  EXPECT_EQ(blow.exit_code, 1) << blow.output;
  EXPECT_NE(blow.output.find("cannot be integrated, so there is nothing to design against"), std::string::npos)
      << blow.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dualrate
