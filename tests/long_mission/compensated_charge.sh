#!/usr/bin/env bash
# models/battery_cell.yaml in float over 600 s at 1 ms (600,000 rk4 steps) on the host: verify
# passes (the exact step check reproduces every compensated add bit for bit), and the charge the
# SOC counts stays within 1e-5 of the high-accuracy solution (without compensated sums 2.7e-3).
# Usage: compensated_charge.sh DUALRATE MODELS_DIR
set -euo pipefail
cli="$1"
model="$2/battery_cell.yaml"
json="$("$cli" verify "$model" --scalar float --t-end 600 --json)" || { echo "$json"; exit 1; }
python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
soc = r["accuracy"]["states"]["SOC"]
print(f"pass {r['pass']}, exact step: {r['exact_step_differing']} of {r['exact_step_samples']} differ, "
      f"SOC error {soc:.3e} (against 1e-5), T {r['accuracy']['states']['T']:.3e}")
ok = r["pass"] and r["exact_step_differing"] == 0 and r["exact_step_samples"] == 600001 and soc <= 1e-5
sys.exit(0 if ok else 1)
PY
