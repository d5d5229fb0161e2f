#!/usr/bin/env bash
# CTest driver (label qemu): `dualrate design` on MODEL with its partition removed (states: as
# one plain mapping), measured on TARGET: --json is one JSON object whose choice is within the
# tolerance and schedulable there, its candidates ranked by cycles; the chosen design written
# with -o must then verify on the host and on TARGET. DESIGN_OPTION...: passed on to design
# (as --schemes LIST).
# Usage: design_target.sh CLI MODEL TARGET TOLERANCE [DESIGN_OPTION...]
set -euo pipefail
cli=$1 model=$2 target=$3 tolerance=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$model")
# Lift the states under slow: and fast: to one plain mapping.
/usr/bin/python3 - "$model" "$work/$name" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"^states:\n((?:[ #].*\n|\n)*)", text, re.M)
names = re.findall(r"^    (\w+):(.*)$", block.group(1), re.M)
plain = "states:\n" + "".join(f"  {n}:{v}\n" for n, v in names)
open(sys.argv[2], "w").write(text[:block.start()] + plain + text[block.end():])
PY
grep -q '^  slow:' "$work/$name" && { echo "partition not removed"; exit 1; }
"$cli" design "$work/$name" --tolerance "$tolerance" --target "$target" "$@" --json -o "$work/designed.yaml" \
  >"$work/design.json"
/usr/bin/python3 - "$work/design.json" "$work/designed.yaml" "$target" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
choice = d["choice"]
assert choice is not None and choice["status"] == "chosen", choice
assert choice["error"] <= d["tolerance"], choice
assert d["target"] == sys.argv[3] and choice["cycles_per_second"] > 0 and choice["schedulable"], choice
assert d["partition"]["found"] and d["partition"]["fast"], d["partition"]
costs = [c["cycles_per_second"] for c in d["candidates"] if c["status"] in ("chosen", "ok")]
assert costs == sorted(costs), costs
text = open(sys.argv[2]).read()
assert "  fast:\n" in text and f"  scheme: {choice['scheme']}\n" in text, text
print("choice:", choice["scheme"], "step", choice["step"], "ratio", choice["ratio"], "error", choice["error"],
      "cycles/s", choice["cycles_per_second"], "partition fast:", d["partition"]["fast"])
PY
"$cli" verify "$work/designed.yaml"
"$cli" verify "$work/designed.yaml" --target "$target"
