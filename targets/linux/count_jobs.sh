#!/usr/bin/env bash
# Instructions of each job of a Linux task program's sequential run under qemu-aarch64, which
# counts none itself: with -singlestep -d exec every executed instruction is logged with its
# address, and tasks_main.cpp brackets each job by calls of the empty functions
# dualrate_{fast,slow}_job_{begin,end} (each pair once empty first, the markers' own cost).
# The program runs in its count mode (the sequential run, its trace to /dev/null) with ARGS:
# tasks_main.cpp's 'count MACRO EVERY /dev/null 0', trace_main.cpp's 'count STEPS EVERY /dev/null'.
# Usage: count_jobs.sh EXE ARGS...
# Prints '# fast_job_instructions MAX TOTAL JOBS' and the same for slow jobs (a single-rate
# program's steps are its fast jobs; it has no slow ones: 0 of them).
set -euo pipefail
exe=$1
shift
address() {
  local a
  a=$(aarch64-linux-gnu-nm "$exe" | awk -v name="$1" '$3 == name { print $1 }')
  [ -n "$a" ] || { echo "$exe has no marker $1" >&2; exit 1; }
  echo "$a"
}
fb=$(address dualrate_fast_job_begin) fe=$(address dualrate_fast_job_end)
sb=$(address dualrate_slow_job_begin) se=$(address dualrate_slow_job_end)
# The log lines read 'Trace 0: HOST [FLAGS/PC/...] SYMBOL': the second '/' field is the PC.
timeout -k 5 900 qemu-aarch64 -singlestep -d exec,nochain -D /dev/stderr "$exe" "$@" \
    2>&1 >/dev/null |
  awk -F/ -v fb="$fb" -v fe="$fe" -v sb="$sb" -v se="$se" '
    # per kind: c counts the open job, o is the empty pair, m the largest, t the total, n the pairs
    function close_job(k) {
      if (n[k] == 0) o[k] = c[k]
      else { if (c[k] - o[k] > m[k]) m[k] = c[k] - o[k]; t[k] += c[k] - o[k] }
      n[k]++; open[k] = 0
    }
    $2 == fb { c["f"] = 0; open["f"] = 1; next }
    $2 == fe { close_job("f"); next }
    $2 == sb { c["s"] = 0; open["s"] = 1; next }
    $2 == se { close_job("s"); next }
    open["f"] { c["f"]++ }
    open["s"] { c["s"]++ }
    END {
      printf "# fast_job_instructions %d %d %d\n", m["f"], t["f"], n["f"] - 1
      printf "# slow_job_instructions %d %d %d\n", m["s"], t["s"], n["s"] - 1
    }'
