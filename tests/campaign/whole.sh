#!/usr/bin/env bash
# The campaign of three_models.yaml (12 points) written as a project twice (the same bytes), run
# on this machine by CTest, and reported: 10 pass, the 2 sp_ll points of aircraft_pitch refused
# by the generator with its reason, verdict pass; the HTML page self-contained, the JUnit file
# merged. Leaves WORK/project (run) and WORK/whole.json for shards.sh and slurm.sh.
# Usage: whole.sh DUALRATE SOURCE_DIR WORK
set -euo pipefail
dualrate=$1 src=$2 work=$3
. "$src/tests/campaign/common.sh"
rm -rf "$work" && mkdir -p "$work"
"$dualrate" campaign "$src/tests/campaign/three_models.yaml" -o "$work/project" >/dev/null
"$dualrate" campaign "$src/tests/campaign/three_models.yaml" -o "$work/again" >/dev/null
cmp "$work/project/CMakeLists.txt" "$work/again/CMakeLists.txt" || fail "CMakeLists.txt differs between two writes"
cmp "$work/project/campaign.json" "$work/again/campaign.json" || fail "campaign.json differs between two writes"

# Before any run every point is missing: verdict incomplete, exit status 3.
status=0
"$dualrate" campaign report "$work/project" --json >"$work/none.json" 2>/dev/null || status=$?
[ "$status" -eq 3 ] || fail "report before any run: exit status $status, expected 3"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]=="incomplete" and d["summary"]["missing"]==12, d["summary"]' "$work/none.json"

cmake -S "$work/project" -B "$work/project/build" >/dev/null
ctest --test-dir "$work/project/build" -j "$(nproc)" >"$work/ctest.log" || fail "ctest: $(tail -20 "$work/ctest.log")"
grep -q "100% tests passed, 0 tests failed out of 12" "$work/ctest.log" || fail "ctest: $(tail -5 "$work/ctest.log")"
grep -q "The following tests did not run:" "$work/ctest.log" || fail "no refused point was skipped"

"$dualrate" campaign report "$work/project" --json >"$work/whole.json"
python3 - "$work/whole.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert (s["pass"], s["fail"], s["refused"], s["missing"]) == (10, 0, 2, 0), s
assert d["verdict"] == "pass", d["verdict"]
for p in d["points"]:
    refused = p["model"] == "aircraft_pitch" and p["scheme"] == "sp_ll"
    assert p["status"] == ("refused" if refused else "pass"), p
    if refused:
        assert "sp_ll needs a constant g_z" in p["reason"], p["reason"]
    else:
        assert p["max_error"] <= p["tolerance"], p
    if p["target"] == "cortex-m4f" and not refused:
        assert p["bit_exact"] is True and p["instructions_per_step"] > 0 and p["schedulable"] is True, p
PY
html="$work/project/report.html"
grep -q "<svg" "$html" || fail "the page has no plot"
if grep -Eq '(src|href)="[a-z]+:' "$html"; then fail "the page fetches something: $(grep -Eo '(src|href)="[a-z]+:[^"]*' "$html" | head -3)"; fi
grep -q 'tests="12" failures="0" errors="0" skipped="2"' "$work/project/junit.xml" || fail "junit.xml: $(head -3 "$work/project/junit.xml")"
echo "whole: 10 pass, 2 refused of 12 points; reproducible project, page and JUnit file checked"
