# What the campaign tests share: the JSON summaries compared without their timings.
# Sourced by whole.sh, shards.sh and slurm.sh.

# same_summary A.json B.json: exit 0 when the two `campaign report --json` outputs are equal
# once every "seconds" (the points' and the total) is taken out; prints the first difference.
same_summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys

def untimed(value):
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value

a, b = (untimed(json.load(open(p))) for p in sys.argv[1:3])
if a == b:
    sys.exit(0)
for pa, pb in zip(a["points"], b["points"]):
    if pa != pb:
        print("first differing point:\n ", pa, "\n ", pb)
        break
else:
    print("the summaries differ:", {k: v for k, v in a.items() if k != "points"}, {k: v for k, v in b.items() if k != "points"})
sys.exit(1)
PY
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
