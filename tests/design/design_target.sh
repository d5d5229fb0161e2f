#!/usr/bin/env bash
# CTest driver (label qemu): `dualrate design` on MODEL with its partition removed (states: as
# one plain mapping), measured on TARGET: the chosen design written with -o must then verify on
# the host and on TARGET, and --json must be one JSON object naming the same choice.
# Usage: design_target.sh CLI MODEL TARGET TOLERANCE
set -euo pipefail
cli=$1 model=$2 target=$3 tolerance=$4
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
"$cli" design "$work/$name" --tolerance "$tolerance" --target "$target" -o "$work/designed.yaml" | tee "$work/design.txt"
grep -q '^choice: ' "$work/design.txt"
"$cli" design "$work/$name" --tolerance "$tolerance" --json >"$work/design.json"
/usr/bin/python3 - "$work/design.json" "$work/designed.yaml" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
choice = d["choice"]
assert choice is not None and choice["status"] == "chosen", choice
assert choice["error"] <= d["tolerance"], choice
assert d["partition"]["found"] and d["partition"]["fast"], d["partition"]
text = open(sys.argv[2]).read()
print("json choice:", choice["scheme"], choice["step"], choice["ratio"], "partition fast:", d["partition"]["fast"])
PY
"$cli" verify "$work/designed.yaml"
"$cli" verify "$work/designed.yaml" --target "$target"
