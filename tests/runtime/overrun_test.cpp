// dualrate::DualRate's overrun policies (runtime/include/dualrate/dual_rate.hpp) under
// scripted interleavings of the aircraft pitch model's mrabm4_parallel tasks (H = 10 h): a job
// "runs" when slow() is called, so calling it d ticks after its release is a run in which
// that job ended d ticks late; jobs run in release order, as on one low-priority task.
// The sequential executive (every job right after its release) is the oracle.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "aircraft_pitch.hpp"

namespace {

namespace sc = aircraft_pitch;
constexpr int kRatio = sc::kRatio;
constexpr long kMacroSteps = 60;
constexpr std::uint32_t kLateJob = 30;

struct Row {
  std::uint64_t macro;
  sc::Model::State x;
  sc::Model::Input u;
};

struct TaskRun {
  std::vector<Row> rows;  // one per job, in completion order
  std::uint32_t slow_overruns = 0, deferred = 0;
  int longest_wait = 0;
  bool faulted = false;
  long at_release_calls = 0, at_release_beside_a_job = 0;  // ReleaseProbe's counts
};

// DualRate's third argument for the calibration hand-over: counts its calls, and those made
// while a released job had not run (`pending`: the scripted run's count of them).
struct ReleaseProbe {
  static inline long calls = 0, beside_a_job = 0;
  static inline int pending = 0;
  static void at_release() noexcept {
    ++calls;
    if (pending > 0) ++beside_a_job;
  }
};

// Job kLateJob ends `delay` ticks after its release tick (delay 0: the sequential executive).
template <dualrate::OverrunPolicy Policy, class AtRelease = ReleaseProbe>
TaskRun run(long delay) {
  using Tasks = dualrate::DualRate<sc::Scheme, Policy, AtRelease>;
  const auto owned = std::make_unique<Tasks>(sc::kStep);
  Tasks& tasks = *owned;
  TaskRun r;
  r.rows.reserve(kMacroSteps + 1);
  long late_job_end = -1;                // tick after whose fast task job kLateJob runs
  int& pending = ReleaseProbe::pending;  // released jobs not yet run
  pending = 0;
  bool front_late = false;  // the oldest of them is the late one
  ReleaseProbe::calls = ReleaseProbe::beside_a_job = 0;
  Eigen::internal::set_is_malloc_allowed(false);
  for (long n = 0; n <= kMacroSteps * kRatio; ++n) {
    bool release = false;
    const dualrate::Status s = tasks.fast(sc::Model::scenario_inputs(static_cast<double>(n) * sc::kStep), release);
    r.faulted = r.faulted || s == dualrate::Status::kNonFiniteState;
    if (release) {
      if (pending == 0 && tasks.next_job() == kLateJob && delay > 0) {
        front_late = true;
        late_job_end = n + delay;
      }
      ++pending;
    }
    for (; pending > 0 && (!front_late || n >= late_job_end); --pending, front_late = false) {
      r.faulted = r.faulted || tasks.slow() != dualrate::Status::kOk;
      r.rows.push_back({tasks.row().macro, tasks.row().x, tasks.row().u});
    }
  }
  Eigen::internal::set_is_malloc_allowed(true);
  r.slow_overruns = tasks.slow_overruns();
  r.deferred = tasks.deferred_releases();
  r.longest_wait = tasks.longest_wait();
  r.at_release_calls = ReleaseProbe::calls;
  r.at_release_beside_a_job = ReleaseProbe::beside_a_job;
  return r;
}

bool same_bits(const std::vector<Row>& a, const std::vector<Row>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].macro != b[i].macro || std::memcmp(a[i].x.data(), b[i].x.data(), sizeof(a[i].x)) != 0 ||
        std::memcmp(a[i].u.data(), b[i].u.data(), sizeof(a[i].u)) != 0)
      return false;
  return true;
}

// Both policies give the sequential run when no job is late, and skip equals defer then.
TEST(OverrunPolicy, WithoutLateJobsBothAreTheSequentialRun) {
  const TaskRun skip = run<dualrate::OverrunPolicy::kSkip>(0), defer = run<dualrate::OverrunPolicy::kDefer>(0);
  ASSERT_FALSE(skip.faulted);
  EXPECT_EQ(skip.rows.size(), static_cast<std::size_t>(kMacroSteps + 1));
  EXPECT_TRUE(same_bits(skip.rows, defer.rows));
  EXPECT_EQ(skip.slow_overruns + defer.slow_overruns + defer.deferred, 0u);
}

// A job ending before the next release is not late for either policy: same bits.
TEST(OverrunPolicy, AJobEndingWithinItsMacroStepIsNotLate) {
  const TaskRun oracle = run<dualrate::OverrunPolicy::kSkip>(0);
  for (long d = 1; d < kRatio; ++d) {
    EXPECT_TRUE(same_bits(run<dualrate::OverrunPolicy::kSkip>(d).rows, oracle.rows)) << d;
    EXPECT_TRUE(same_bits(run<dualrate::OverrunPolicy::kDefer>(d).rows, oracle.rows)) << d;
  }
}

// Job 30 ends after the release of job 31 (t_31) but before t_32: deferred, job 31 runs right
// after it and the fast task waits for job 30's end points; every row equals the oracle's bit
// for bit. Skipping instead loses release 31 and the rows differ from then on.
TEST(OverrunPolicy, DeferStaysExactWhileTheLateJobEndsWithinTheNextMacroStep) {
  const TaskRun oracle = run<dualrate::OverrunPolicy::kSkip>(0);
  for (long d = kRatio; d < 2 * kRatio; ++d) {
    const TaskRun defer = run<dualrate::OverrunPolicy::kDefer>(d);
    EXPECT_FALSE(defer.faulted);
    EXPECT_TRUE(same_bits(defer.rows, oracle.rows)) << "delay " << d;
    EXPECT_EQ(defer.deferred, 1u) << d;
    EXPECT_EQ(defer.slow_overruns, 0u) << d;
    EXPECT_EQ(defer.longest_wait, d - kRatio + 1) << d;  // ticks t_31 ... the one job 30 ended after

    const TaskRun skip = run<dualrate::OverrunPolicy::kSkip>(d);
    EXPECT_EQ(skip.slow_overruns, 1u) << d;
    EXPECT_EQ(skip.rows.size(), oracle.rows.size() - 1) << d;
    EXPECT_FALSE(same_bits(skip.rows, oracle.rows)) << d;
  }
}

// Job 30 still running at t_32: the fast task stops waiting (an overrun, the held-back steps
// run on held end points) and release 32 is skipped behind the queued job 31; counted as
// two slow overruns, and the rows are no longer the oracle's.
TEST(OverrunPolicy, DeferGivesUpWhenTheLateJobOutlastsTheNextMacroStep) {
  const TaskRun oracle = run<dualrate::OverrunPolicy::kSkip>(0);
  const TaskRun defer = run<dualrate::OverrunPolicy::kDefer>(2 * kRatio + 3);
  EXPECT_FALSE(defer.faulted);
  EXPECT_EQ(defer.deferred, 1u);
  EXPECT_EQ(defer.slow_overruns, 2u);
  EXPECT_EQ(defer.longest_wait, kRatio);
  EXPECT_EQ(defer.rows.size(), oracle.rows.size() - 1);
  EXPECT_FALSE(same_bits(defer.rows, oracle.rows));
}

// The calibration hand-over (AtRelease) runs at every release at which no job runs, and only
// there: at each of the sequential run's, and under kDefer not at the release deferred behind
// the late job 30 (the constants then change one release later, for both tasks at once).
TEST(OverrunPolicy, TheHandOverAtAReleaseNeverRunsBesideASlowJob) {
  const TaskRun oracle = run<dualrate::OverrunPolicy::kSkip>(0);
  EXPECT_EQ(oracle.at_release_calls, kMacroSteps + 1);
  EXPECT_EQ(oracle.at_release_beside_a_job, 0);
  for (long d : {kRatio - 1, kRatio + 2}) {
    for (const TaskRun& r : {run<dualrate::OverrunPolicy::kSkip>(d), run<dualrate::OverrunPolicy::kDefer>(d)}) {
      EXPECT_EQ(r.at_release_beside_a_job, 0) << d;
      EXPECT_EQ(r.at_release_calls, d < kRatio ? kMacroSteps + 1 : kMacroSteps) << d;
    }
  }
}

// The 64-bit job numbers past 2^32 macro steps: consecutive, across the wrap, with a release
// skipped across it, and far beyond.
TEST(DualRateJobNumbers, UnwrapPastTwoToThe32) {
  EXPECT_EQ(dualrate::unwrap_job(0, 0), 0u);
  EXPECT_EQ(dualrate::unwrap_job(5, 6), 6u);
  EXPECT_EQ(dualrate::unwrap_job(0xFFFFFFFFull, 0), 0x100000000ull);
  EXPECT_EQ(dualrate::unwrap_job(0xFFFFFFFEull, 1), 0x100000001ull);
  EXPECT_EQ(dualrate::unwrap_job(0x700000003ull, 4), 0x700000004ull);
  EXPECT_EQ(dualrate::unwrap_job(0x7FFFFFFFFull, 0), 0x800000000ull);
}

}  // namespace
