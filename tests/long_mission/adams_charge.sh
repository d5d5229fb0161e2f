#!/usr/bin/env bash
# models/battery_cell.yaml (current steps of 40, -140 and 120 A, a 5 A ripple, 150 s) with
# mrabm4 and mrabm4_parallel as dual-rate tasks at h = 1 ms, H = 10 h, on the host in double:
# verify passes (the tasks are the reference core's restart bit for bit, at each of the 150,000
# ticks too) and the SOC stays
# within 1e-6 of the high-accuracy solution; the same file without the current's `jump:`
# (no restart) leaves the SOC more than 1e-6 off (7.8e-6 serial). In float, where the slow job
# adds SOC with a compensated sum, the tasks are the float reference core's bit for bit and the
# SOC stays within 1e-5 (6.2e-7; with plain sums 1.5e-5).
# Usage: adams_charge.sh DUALRATE MODELS_DIR WORK_DIR
set -euo pipefail
cli="$1"
model="$2/battery_cell.yaml"
mkdir -p "$3"
unwatched="$3/battery_cell_unwatched.yaml"
sed 's/I: {value: 0, jump: 5,/I: {value: 0,/' "$model" > "$unwatched"
grep -q "^  I: .*jump:" "$unwatched" && { echo "the copy still declares a jump"; exit 1; }
status=0
for scheme in mrabm4 mrabm4_parallel; do
  for file in "$model" "$unwatched"; do
    json="$("$cli" verify "$file" --scheme "$scheme" --step 1e-3 --ratio 10 --json)" || true
    python3 - "$json" "$scheme" "$file" <<'PY' || status=1
import json, sys
r = json.loads(sys.argv[1])
soc = r["accuracy"]["states"]["SOC"]
watched = "unwatched" not in sys.argv[3]
print(f"{sys.argv[2]} {'with' if watched else 'without'} jump: pass {r['pass']}, exact step "
      f"{r['exact_step_differing']} of {r['exact_step_samples']} differ, SOC error {soc:.3e}")
print(f"  every tick: {r['tick_differing']} of {r['tick_samples']} ticks differ from the reference core's")
if watched:
    ok = r["pass"] and r["exact_step_differing"] == 0 and r["exact_step_samples"] > 0 and soc <= 1e-6 and \
        r["tick_samples"] == 150000 and r["tick_differing"] == 0
else:
    ok = soc > 1e-6
sys.exit(0 if ok else 1)
PY
  done
done
for scheme in mrabm4 mrabm4_parallel; do
  json="$("$cli" verify "$model" --scheme "$scheme" --step 1e-3 --ratio 10 --scalar float --json)" || true
  python3 - "$json" "$scheme" <<'PY' || status=1
import json, sys
r = json.loads(sys.argv[1])
soc = r["accuracy"]["states"]["SOC"]
print(f"{sys.argv[2]} in float: pass {r['pass']}, exact step {r['exact_step_differing']} of "
      f"{r['exact_step_samples']} differ, {r['tick_differing']} of {r['tick_samples']} ticks differ, SOC error {soc:.3e}")
ok = r["pass"] and r["exact_step_differing"] == 0 and r["exact_step_samples"] > 0 and soc <= 1e-5 and \
    r["tick_samples"] == 150000 and r["tick_differing"] == 0
sys.exit(0 if ok else 1)
PY
done
exit $status
