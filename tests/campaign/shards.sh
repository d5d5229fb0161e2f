#!/usr/bin/env bash
# The project whole.sh ran, now run as 3 shards (ctest -I k,,3) in 3 build trees of their own and
# merged: the same summary as the whole run but for the timings, text and JSON. Then shard 3 run
# again and killed (its whole process group, SIGKILL) after a few points: merged with shards 1
# and 2, exactly its unfinished points are missing and the verdict is incomplete (exit status 3).
# Usage: shards.sh DUALRATE SOURCE_DIR WORK (WORK as whole.sh left it)
set -euo pipefail
dualrate=$1 src=$2 work=$3
. "$src/tests/campaign/common.sh"
project="$work/project"
[ -f "$work/whole.json" ] || fail "no $work/whole.json: campaign.whole runs first"
rm -rf "$work"/shard_* "$work/killed"
for k in 1 2 3; do
  cmake -S "$project" -B "$work/shard_$k" >/dev/null
  ctest --test-dir "$work/shard_$k" -I "$k,,3" -j "$(nproc)" >"$work/shard_$k.log" || fail "shard $k: $(tail -20 "$work/shard_$k.log")"
  n=$(ls "$work/shard_$k/results" | wc -l)
  [ "$n" -eq 4 ] || fail "shard $k wrote $n results, expected 4 of 12"
done
"$dualrate" campaign report "$project" "$work"/shard_{1,2,3} --json >"$work/sharded.json"
same_summary "$work/whole.json" "$work/sharded.json" || fail "the sharded run's summary differs from the whole run's"
"$dualrate" campaign report "$project" 2>/dev/null >"$work/whole.txt"
"$dualrate" campaign report "$project" "$work"/shard_{1,2,3} 2>/dev/null >"$work/sharded.txt"
diff "$work/whole.txt" "$work/sharded.txt" || fail "the text summaries differ"

# Shard 3 again, killed after at least 2 of its 4 points wrote their results.
cmake -S "$project" -B "$work/killed" >/dev/null
setsid ctest --test-dir "$work/killed" -I 3,,3 -j 1 >"$work/killed.log" 2>&1 &
leader=$!
for _ in $(seq 600); do
  [ "$(ls "$work/killed/results" 2>/dev/null | grep -c '\.json$')" -ge 2 ] && break
  sleep 0.2
done
kill -KILL -- "-$leader"
wait "$leader" 2>/dev/null || true
done_points=$(ls "$work/killed/results" | grep -c '\.json$')
[ "$done_points" -lt 4 ] || fail "the killed shard finished all its points before it was killed"
status=0
"$dualrate" campaign report "$project" "$work/shard_1" "$work/shard_2" "$work/killed" --json >"$work/killed.json" 2>/dev/null || status=$?
[ "$status" -eq 3 ] || fail "report with a killed shard: exit status $status, expected 3"
python3 - "$work/killed.json" "$work/killed/results" "$done_points" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
done = {json.load(open(os.path.join(sys.argv[2], f)))["point"]["id"] for f in os.listdir(sys.argv[2]) if f.endswith(".json")}
assert len(done) == int(sys.argv[3])
shard3 = [p for p in d["points"] if (p["index"] - 3) % 3 == 0]
missing = {p["id"] for p in d["points"] if p["status"] == "missing"}
assert missing == {p["id"] for p in shard3} - done, (sorted(missing), sorted(done))
assert d["summary"]["missing"] == 4 - len(done) and d["verdict"] == "incomplete", d["summary"]
PY
echo "shards: 3 shards of 4 points merged = the whole run; killed shard: $done_points of 4 done, $((4 - done_points)) missing, verdict incomplete"
