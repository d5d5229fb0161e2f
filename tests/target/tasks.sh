#!/usr/bin/env bash
# CTest (label qemu): the planar spacecraft's dual-rate tasks (seed 004's mrabm4_parallel,
# H = 10 h, t_end 2 s: 2000 ticks, 201 slow jobs) run preemptively must equal the sequential
# executive's run bit for bit.
# Usage: tasks.sh CLI MODEL interleavings|overrun|linux|linux_load|budget|system|dual|dual_aircraft
#  interleavings: Cortex-M4F under four -icount shifts with SysTick periods chosen from runs
#    so that the slow job is preempted at different places (at least three distinct counts of
#    preempted ticks: 592, 592, 393, 197 on this build; shift 7 ticks every 15000 cycles: at
#    13000 the fast job overran once hR and hL compute their own sines (4049 instructions at
#    most, ir/straight_line.hpp), and 14000 gives 592 as shifts 5 and 6 do); each run must
#    pass (within tolerance of the reference
#    core, bit for bit equal to the host and to the sequential run, no overrun). Also the
#    serial mrabm4 on Cortex-M7 in double at the board's real tick (h times 25 MHz).
#  overrun: slow job 100 busy-waits on Cortex-M4F. Skip policy, 25 ticks: the overrun is
#    counted (the releases of jobs 101 and 102 are skipped), the fast task keeps its rate (all
#    2001 ticks run, no fast overrun) and verify fails saying why. Defer policy, 12 ticks (the
#    job ends after t_101, before t_102): release 101 is deferred, job 101 runs right after job
#    100 and the fast task waits for job 100's end points; the run passes bit for bit equal to
#    the sequential one. Defer, 25 ticks: the fast task stops waiting at t_102 (2 slow
#    overruns) and verify fails saying why.
#  system: several models on one core (see the mode below).
#  dual: cortex-m33-dual (two Cortex-M33, mps2-an521), the fast task on core 0 and the slow
#    task on core 1: mrabm4_parallel and mrabm4 on the spacecraft (MODEL) and on the aircraft
#    must pass bit for bit equal to the sequential run with the cores and each core's
#    utilization in the JSON; with SysTick every 15000 cycles (5859 instructions: fast job
#    4086, slow job 2738) slow jobs run across ticks (on core 1 while core 0 takes its ticks)
#    and the run stays bit exact; slow job 100 made late on core 1 by 25 ticks is detected as
#    under one core (2 slow overruns, no fast overrun, all 2001 ticks) and verify fails saying
#    why; late by 12 ticks under the defer policy it passes bit exact. --slow-core 0 runs both
#    tasks on core 0 (passes); --slow-core 1 on cortex-m33 is refused (exit 1).
#  dual_aircraft: both multirate schemes on two cores for MODEL (models/aircraft_pitch.yaml),
#    as dual's first runs for the spacecraft.
#  linux: cortex-a53-linux (qemu-aarch64) and the host, threaded executive (run alone: RUN_SERIAL);
#    on the host also the defer policy with slow job 100 late by 12 ticks (as for overrun).
#    The native host run must keep every deadline and be bit for bit equal to the sequential
#    run. Under qemu-user a thread can be held back past a deadline (a 9 ms latency was seen
#    with other tests running): such a run must be reported as failed with its overruns and
#    must still run all ticks; bit-exactness is required whenever it kept every deadline.
#  linux_load: under load (two busy loops beside it, as when the issue's run printed no result
#    once in 13), the cortex-a53-linux run three times: each must print its JSON result and
#    pass, or fail as host scheduling noise (verify repeats such a run up to 3 times and says
#    so), never otherwise.
set -uo pipefail
cli=$1
model=$2
mode=$3
status=0

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2; }

check_pass() {  # JSON, what
  if [ "$(field pass "$1")" != true ] || [ "$(field bit_exact_vs_single "$1")" != true ] ||
     [ "$(field bit_exact_vs_host "$1")" != true ] || [ "$(field overruns "$1")" != 0 ]; then
    echo "FAIL: $2"
    status=1
  fi
}

dual_fields() {  # JSON, what: the cores of a cortex-m33-dual run
  grep -q '"fast_task_core":0,"slow_task_core":1,"shared_overruns":0' <<<"$1" ||
    { echo "FAIL: $2: the cores of the tasks are not reported"; status=1; }
  grep -q '"cores":\[{"core":0,"tasks":\["fast"\],"utilization":[0-9.e-]*},{"core":1,"tasks":\["slow"\],"utilization":[0-9.e-]*}\]' <<<"$1" ||
    { echo "FAIL: $2: no utilization per core"; status=1; }
}

# Both multirate schemes on MODEL's tasks on cortex-m33-dual: pass, bit exact, the cores reported.
both_schemes_on_two_cores() {
  for scheme in mrabm4_parallel mrabm4; do
    json=$("$cli" verify "$model" --scheme "$scheme" --tasks multi --target cortex-m33-dual --t-end 2 --json 2>&1)
    echo "$json"
    check_pass "$json" "cortex-m33-dual $(basename "$model") $scheme"
    dual_fields "$json" "$(basename "$model") $scheme"
  done
}

case $mode in
  interleavings)
    preempted=()
    for run in "5 3600" "6 7000" "7 15000" "8 33000"; do
      set -- $run
      json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m4f --t-end 2 \
             --icount-shift "$1" --tick-cycles "$2" --json 2>&1)
      echo "$json"
      check_pass "$json" "cortex-m4f shift $1 tick $2 cycles"
      p=$(field preempted_ticks "$json")
      [ "${p:-0}" -gt 0 ] || { echo "FAIL: the slow task was never preempted (shift $1)"; status=1; }
      preempted+=("$p")
    done
    distinct=$(printf '%s\n' "${preempted[@]}" | sort -u | wc -l)
    echo "preempted ticks per run: ${preempted[*]} ($distinct distinct)"
    [ "$distinct" -ge 3 ] || { echo "FAIL: the runs did not interleave differently"; status=1; }
    json=$("$cli" verify "$model" --scheme mrabm4 --tasks multi --target cortex-m7 --t-end 2 --json 2>&1)
    echo "$json"
    check_pass "$json" "cortex-m7 mrabm4"
    ;;
  overrun)
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m4f --t-end 2 \
           --slow-task-delay 25 --json 2>/dev/null)
    rc=$?
    echo "$json"
    [ "$rc" -ne 0 ] || { echo "FAIL: verify passed a run with an overrun"; status=1; }
    [ "$(field slow_overruns "$json")" = 2 ] || { echo "FAIL: expected 2 slow overruns"; status=1; }
    [ "$(field fast_overruns "$json")" = 0 ] || { echo "FAIL: the fast task overran"; status=1; }
    [ "$(field ticks "$json")" = 2001 ] || { echo "FAIL: the fast task did not keep its rate"; status=1; }
    grep -q 'overruns (2 slow, 0 fast)' <<<"$json" || { echo "FAIL: verify did not say why it failed"; status=1; }
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m4f --t-end 2 \
           --overrun defer --slow-task-delay 12 --json 2>/dev/null)
    echo "$json"
    check_pass "$json" "defer policy, a job late by less than a macro step"
    [ "$(field deferred_releases "$json")" = 1 ] || { echo "FAIL: expected 1 deferred release"; status=1; }
    [ "$(field longest_wait_ticks "$json")" -ge 1 ] || { echo "FAIL: the fast task did not wait"; status=1; }
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m4f --t-end 2 \
           --overrun defer --slow-task-delay 25 --json 2>/dev/null)
    rc=$?
    echo "$json"
    [ "$rc" -ne 0 ] || { echo "FAIL: verify passed a defer run whose late job outlasted the next macro step"; status=1; }
    [ "$(field slow_overruns "$json")" = 2 ] || { echo "FAIL: defer: expected 2 slow overruns"; status=1; }
    grep -q 'fast task stopped waiting' <<<"$json" || { echo "FAIL: verify did not say why the defer run failed"; status=1; }
    ;;
  dual)
    both_schemes_on_two_cores
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m33-dual --t-end 2 \
           --tick-cycles 15000 --json 2>&1)
    echo "$json"
    check_pass "$json" "cortex-m33-dual with slow jobs across ticks"
    dual_fields "$json" "slow jobs across ticks"
    [ "$(field preempted_ticks "$json")" -gt 100 ] || { echo "FAIL: slow jobs did not run across ticks"; status=1; }
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m33-dual --t-end 2 \
           --slow-task-delay 25 --json 2>/dev/null)
    rc=$?
    echo "$json"
    [ "$rc" -ne 0 ] || { echo "FAIL: verify passed a dual-core run with an overrun"; status=1; }
    [ "$(field slow_overruns "$json")" = 2 ] && [ "$(field fast_overruns "$json")" = 0 ] &&
      [ "$(field ticks "$json")" = 2001 ] || { echo "FAIL: the late slow core was not detected as on one core"; status=1; }
    grep -q 'overruns (2 slow, 0 fast)' <<<"$json" || { echo "FAIL: verify did not say why the dual-core run failed"; status=1; }
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-m33-dual --t-end 2 \
           --overrun defer --slow-task-delay 12 --json 2>/dev/null)
    echo "$json"
    check_pass "$json" "cortex-m33-dual, defer policy, a job late by less than a macro step"
    [ "$(field deferred_releases "$json")" = 1 ] || { echo "FAIL: dual: expected 1 deferred release"; status=1; }
    # --slow-core 0: both tasks on core 0 of the same board (the one-core program), as an oracle
    # of the same flags; --slow-core 1 on a one-core target is a usage error naming the target.
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --target cortex-m33-dual --slow-core 0 --t-end 2 --json 2>&1)
    echo "$json"
    check_pass "$json" "cortex-m33-dual --slow-core 0"
    grep -q '"cores":\[{"core":0,"tasks":\["fast","slow"\]' <<<"$json" || { echo "FAIL: --slow-core 0: cores"; status=1; }
    out=$("$cli" verify "$model" --scheme mrabm4_parallel --target cortex-m33 --slow-core 1 2>&1)
    rc=$?
    echo "$out"
    [ "$rc" = 1 ] && grep -q 'slow-core 1 puts the slow task on a second core: cortex-m33 has one' <<<"$out" ||
      { echo "FAIL: --slow-core 1 on a one-core target not refused (exit $rc)"; status=1; }
    ;;
  dual_aircraft)
    both_schemes_on_two_cores
    ;;
  linux)
    for target in cortex-a53-linux host; do
      json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target "$target" --t-end 2 --json 2>&1)
      echo "$json"
      if [ "$target" != host ]; then  # the jobs' instructions, counted from qemu-aarch64's log
        for f in fast_job_instructions_max slow_job_instructions_max slow_job_cycles_max schedulable; do
          [ -n "$(field $f "$json")" ] || { echo "FAIL: $target: no $f"; status=1; }
        done
      fi
      if [ "$(field slow_overruns "$json")" = 0 ] && [ "$(field fast_overruns "$json")" = 0 ]; then
        [ "$target" = host ] || [ "$(field bit_exact_vs_host "$json")" = true ] || { echo "FAIL: $target vs host"; status=1; }
        [ "$(field bit_exact_vs_single "$json")" = true ] || { echo "FAIL: $target multi vs single"; status=1; }
        [ "$(field pass "$json")" = true ] || { echo "FAIL: $target"; status=1; }
      elif [ "$target" = host ]; then
        echo "FAIL: the native host run overran (latency $(field max_latency_us "$json") us)"
        status=1
      else
        echo "NOTE: $target overran under emulation (latency $(field max_latency_us "$json") us); not compared"
        [ "$(field pass "$json")" = false ] || { echo "FAIL: verify passed a run with an overrun"; status=1; }
        grep -q 'overruns (' <<<"$json" || { echo "FAIL: verify did not say why it failed"; status=1; }
        grep -q '"ticks":2001' <<<"$json" || { echo "FAIL: $target did not run all ticks"; status=1; }
      fi
    done
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --t-end 2 --overrun defer \
           --slow-task-delay 12 --json 2>&1)
    echo "$json"
    [ "$(field pass "$json")" = true ] && [ "$(field bit_exact_vs_single "$json")" = true ] &&
      [ "$(field overruns "$json")" = 0 ] || { echo "FAIL: host, defer policy, a job late by less than a macro step"; status=1; }
    [ "$(field deferred_releases "$json")" -ge 1 ] || { echo "FAIL: host: no deferred release"; status=1; }
    ;;
  linux_load)
    hogs=()
    trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
    for _ in 1 2; do
      (while :; do :; done) &
      hogs+=($!)
    done
    for run in 1 2 3; do
      json=$("$cli" verify "$model" --scheme mrabm4_parallel --tasks multi --target cortex-a53-linux --t-end 2 \
             --json 2>/dev/null)
      echo "under load, run $run: $json"
      if [ "${json:0:1}" != "{" ]; then
        echo "FAIL: under load, run $run printed no JSON result"
        status=1
      elif [ "$(field pass "$json")" != true ] && ! grep -q 'host scheduling noise' <<<"$json"; then
        echo "FAIL: under load, run $run failed other than as host scheduling noise"
        status=1
      fi
    done
    kill "${hogs[@]}"
    ;;
  budget)
    # The real-time budget (MODEL: models/aircraft_pitch.yaml, h = 0.1 ms, H = 1 ms): both
    # multirate schemes pass on cortex-m4f at its default part's clock with per-task cycles and
    # the verdict in the JSON; below the smallest clock verify reports, both from the
    # measured jobs, the task that misses and exits 2 without running the preemptive executive;
    # every Cortex-M target reports the same fields. Over the first 0.5 s of the scenario (its
    # input's step at 0.2 s included), a quarter of its run, for CI's time.
    for scheme in mrabm4 mrabm4_parallel; do
      json=$("$cli" verify "$model" --scheme "$scheme" --target cortex-m4f --t-end 0.5 --json 2>/dev/null)
      echo "$json"
      check_pass "$json" "$scheme on cortex-m4f at the default clock"
      for f in fast_job_instructions_max slow_job_instructions_max fast_job_cycles_max slow_job_cycles_max \
               utilization slow_response_time min_cpu_hz; do
        [ -n "$(field $f "$json")" ] || { echo "FAIL: $scheme: no $f"; status=1; }
      done
      [ "$(field schedulable "$json")" = true ] || { echo "FAIL: $scheme not schedulable at the default clock"; status=1; }
      min=$(field min_cpu_hz "$json")
      below=$(awk -v m="$min" 'BEGIN { printf "%.0f", 0.9 * m }')
      json=$("$cli" verify "$model" --scheme "$scheme" --target cortex-m4f --t-end 0.5 --cpu-hz "$below" --json 2>/dev/null)
      rc=$?
      echo "$json"
      [ "$rc" = 2 ] || { echo "FAIL: $scheme at $below Hz: exit $rc, not 2"; status=1; }
      [ "$(field schedulable "$json")" = false ] || { echo "FAIL: $scheme schedulable below its smallest clock"; status=1; }
      grep -q 'not schedulable on STM32F407.*the \(fast\|slow\) task' <<<"$json" ||
        { echo "FAIL: $scheme: the verdict does not name the task"; status=1; }
    done
    # The issue's case: mrabm4_parallel at 8 MHz, below its smallest clock (12.3 MHz, with the
    # handlers' instructions measured: the SysTick handler's also at the ticks where its job
    # overran, the only ones there are at 8 MHz; it computes the scenario input step(t - 0.2) in
    # double, software on the M4F, 478 cycles), is reported not schedulable with the task named.
    json=$("$cli" verify "$model" --scheme mrabm4_parallel --target cortex-m4f --t-end 0.5 --cpu-hz 8e6 --json 2>/dev/null)
    rc=$?
    echo "$json"
    [ "$rc" = 2 ] && grep -q 'not schedulable on STM32F407 at 8 MHz.*the \(fast\|slow\) task' <<<"$json" ||
      { echo "FAIL: mrabm4_parallel at 8 MHz not reported as unschedulable (exit $rc)"; status=1; }
    for target in cortex-m3 cortex-m7; do
      json=$("$cli" verify "$model" --scheme mrabm4_parallel --target "$target" --t-end 0.5 --json 2>/dev/null)
      echo "$json"
      [ -n "$(field schedulable "$json")" ] && [ -n "$(field slow_job_cycles_max "$json")" ] ||
        { echo "FAIL: $target reports no budget"; status=1; }
    done
    ;;
  system)
    # Several models on one core (MODEL: tests/models/systems/flight_and_chassis.yaml, three
    # models, five rates, cortex-m7): at the part's clock and at 13 MHz, just above the
    # smallest clock (10.9 MHz), where slow jobs are preempted hundreds of times, every model's
    # trace in the rate-monotonic run equals its own sequential run bit for bit, with no
    # overrun; at 10 MHz verify-system reports the task that misses and exits 2 before the run.
    for hz in 216e6 13e6; do
      json=$("$cli" verify-system "$model" --target cortex-m7 --cpu-hz "$hz" --json 2>/dev/null)
      echo "$json"
      [ "$(field pass "$json")" = true ] || { echo "FAIL: system at $hz Hz"; status=1; }
      [ "$(grep -o '"bit_exact_vs_own":true' <<<"$json" | wc -l)" = 3 ] || { echo "FAIL: $hz Hz: not every model bit-exact"; status=1; }
      [ "$(grep -o '"slow_overruns":0,"fast_overruns":0' <<<"$json" | wc -l)" -ge 3 ] || { echo "FAIL: $hz Hz: overruns"; status=1; }
      [ "$(grep -o '"name":"[a-z_]*\.\(fast\|slow\)"' <<<"$json" | wc -l)" = 6 ] || { echo "FAIL: $hz Hz: task set incomplete"; status=1; }
      # Each model's answer against the high-accuracy solution; none of the three has a
      # simulation: tolerance:, so the system's accuracy verdict is not given.
      [ "$(grep -o '"accuracy":{"max_error":[0-9.e+-]*' <<<"$json" | wc -l)" = 3 ] && [ "$(field accurate "$json")" = null ] ||
        { echo "FAIL: $hz Hz: not every model's accuracy measured, or a verdict without a tolerance"; status=1; }
    done
    preempted=$(grep -o '"preempted_ticks":[0-9]*' <<<"$json" | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')
    [ "$preempted" -gt 100 ] || { echo "FAIL: at 13 MHz the slow jobs were preempted only $preempted times"; status=1; }
    json=$("$cli" verify-system "$model" --target cortex-m7 --cpu-hz 10e6 --json 2>/dev/null)
    rc=$?
    echo "$json"
    [ "$rc" = 2 ] && grep -q 'not schedulable on STM32F767 at 10 MHz.*the task [a-z_]*\.\(fast\|slow\)' <<<"$json" ||
      { echo "FAIL: 10 MHz not reported as unschedulable with the task named (exit $rc)"; status=1; }
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
exit $status
