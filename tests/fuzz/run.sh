#!/usr/bin/env bash
# Runs libFuzzer harnesses for SECONDS each; used by scripts/fuzz and by CTest (label fuzz).
# Seeds: every model file under SOURCE_DIR/models and SOURCE_DIR/tests/models (the expression
# harness: every line of them after a colon, which includes each equation; the campaign
# harness: the campaign files under SOURCE_DIR/tests/campaign). Limits per input:
# 1 s (-timeout; --timeout T), 2 GB of allocation at once (-malloc_limit_mb) and 8 KB
# (-max_len). The process's resident size may reach 4 GB (-rss_limit_mb): AddressSanitizer's
# allocator keeps freed chunks and their shadow, so a long run's resident size grows
# (1 GB after 320,000 loader runs) while its live heap stays near 30 MB.
# Prints, per harness, the executions and the corpus size; fails on any finding (crash,
# sanitizer report, leak, timeout, memory).
# --runs N --seed S: N inputs from random seed S in a fresh corpus, instead of a time limit
# and the corpus kept from earlier runs. A finding's input is printed (base64) on stderr.
# Usage: run.sh [--runs N --seed S] [--timeout T] BIN_DIR SOURCE_DIR WORK_DIR SECONDS HARNESS...
set -euo pipefail
runs="" seed="" timeout=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 5 ] || { echo "usage: $0 [--runs N --seed S] [--timeout T] BIN_DIR SOURCE_DIR WORK_DIR SECONDS HARNESS..." >&2; exit 2; }
[ -z "$runs" ] || [ -n "$seed" ] || { echo "$0: --runs needs --seed" >&2; exit 2; }
bin="$(realpath "$1")" source_dir="$(realpath "$2")" work="$3" seconds="$4"
shift 4
limit=(-max_total_time="$seconds")
[ -n "$runs" ] && limit=(-runs="$runs" -seed="$seed")
status=0
for harness in "$@"; do
  exe="$bin/$harness"
  [ -x "$exe" ] || { echo "no harness $exe (build first)" >&2; exit 2; }
  dir="$work/$harness"
  [ -n "$runs" ] && rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/seeds"
  models=$(find "$source_dir/models" "$source_dir/tests/models" -name '*.yaml' | sort)
  if [ "$harness" = fuzz_expression ]; then
    i=0
    while IFS= read -r line; do
      printf '%s' "$line" >"$dir/seeds/line$i"
      i=$((i + 1))
    done < <(sed -n 's/^[^:#]*:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1/p' $models | LC_ALL=C sort -u)
  elif [ "$harness" = fuzz_campaign ]; then
    for c in $(find "$source_dir/tests/campaign" -name '*.yaml' | sort); do
      cp "$c" "$dir/seeds/$(echo "${c#"$source_dir"/}" | tr / _)"
    done
  else
    for m in $models; do cp "$m" "$dir/seeds/$(echo "${m#"$source_dir"/}" | tr / _)"; done
  fi
  log="$dir/log.txt"
  if (cd "$dir" && "$exe" "${limit[@]}" -timeout="$timeout" -rss_limit_mb=4096 -malloc_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$dir/" corpus seeds) >"$log" 2>&1; then
    result="no finding"
  else
    result="FINDING (see $log and $dir/crash-*, timeout-*, leak-*, oom-*)"
  fi
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  how="in ${seconds} s"
  [ -n "$runs" ] && how="from seed $seed"
  echo "$harness: ${executed:-?} executions $how, corpus $(find "$dir/corpus" -type f | wc -l) inputs," \
       "peak resident ${peak:-?} MB: $result"
  if [ "$result" != "no finding" ]; then
    status=1
    grep -B2 -A30 -m1 -E '==[0-9]+==|runtime error|libFuzzer: ' "$log" >&2 || tail -40 "$log" >&2
    for artifact in "$dir"/crash-* "$dir"/timeout-* "$dir"/leak-* "$dir"/oom-* "$dir"/slow-unit-*; do
      [ -f "$artifact" ] || continue
      echo "--- $artifact (base64):" >&2
      head -c 8192 "$artifact" | base64 >&2
    done
  fi
done
exit $status
