#!/usr/bin/env bash
# Runs libFuzzer harnesses for SECONDS each; used by scripts/fuzz and by CTest (label fuzz).
# Seeds: every model file under SOURCE_DIR/models and SOURCE_DIR/tests/models (the expression
# harness: every line of them after a colon, which includes each equation). Limits per input:
# 1 s (-timeout), 2 GB (-rss_limit_mb), 8 KB (-max_len). Prints, per harness, the executions
# and the corpus size; fails on any finding (crash, sanitizer report, leak, timeout, memory).
# Usage: run.sh BIN_DIR SOURCE_DIR WORK_DIR SECONDS HARNESS...
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 BIN_DIR SOURCE_DIR WORK_DIR SECONDS HARNESS..." >&2; exit 2; }
bin="$(realpath "$1")" source_dir="$(realpath "$2")" work="$3" seconds="$4"
shift 4
status=0
for harness in "$@"; do
  exe="$bin/$harness"
  [ -x "$exe" ] || { echo "no harness $exe (build first)" >&2; exit 2; }
  dir="$work/$harness"
  mkdir -p "$dir/corpus" "$dir/seeds"
  models=$(find "$source_dir/models" "$source_dir/tests/models" -name '*.yaml')
  if [ "$harness" = fuzz_expression ]; then
    i=0
    while IFS= read -r line; do
      printf '%s' "$line" >"$dir/seeds/line$i"
      i=$((i + 1))
    done < <(sed -n 's/^[^:#]*:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1/p' $models | sort -u)
  else
    for m in $models; do cp "$m" "$dir/seeds/$(echo "${m#"$source_dir"/}" | tr / _)"; done
  fi
  log="$dir/log.txt"
  if (cd "$dir" && "$exe" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$dir/" corpus seeds) >"$log" 2>&1; then
    result="no finding"
  else
    result="FINDING (see $log and $dir/crash-*, timeout-*, leak-*, oom-*)"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "$harness: ${runs:-?} executions in ${seconds} s, corpus $(find "$dir/corpus" -type f | wc -l) inputs: $result"
  if [ "$result" != "no finding" ]; then
    status=1
    grep -B2 -A30 -m1 -E '==[0-9]+==|runtime error' "$log" >&2 || tail -40 "$log" >&2
  fi
done
exit $status
