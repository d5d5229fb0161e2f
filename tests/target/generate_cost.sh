#!/usr/bin/env bash
# CTest driver: `dualrate generate --cost` measures the recalibration under QEMU (writes at the
# model's values and at the corners of the calibration range), in float on cortex-m4f and in
# double on cortex-m7, for each model of the README's recalibration table; the numbers it prints
# must be the README's, which are therefore measured worst cases over those writes, not figures
# typed in. Usage: generate_cost.sh CLI SOURCE_DIR WORK_DIR. Exit 77 (skipped) when the ARM
# compiler or QEMU is not installed.
set -uo pipefail
cli=$1 src=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
if ! command -v arm-none-eabi-g++ >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "skipped: arm-none-eabi-g++ or qemu-system-arm is not installed"; exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
# MODEL|generate's scheme options|the README row's first cell
rows=("servo_actuator_lag|--scheme sp_ll --step 0.01|models/servo_actuator_lag.yaml, sp_ll, h = 0.01"
      "vehicle_driveline|--scheme rk4|models/vehicle_driveline.yaml, rk4 (24-value map)")
for entry in "${rows[@]}"; do
  IFS='|' read -r name options first <<<"$entry"
  row=$(grep -F "| $first |" "$src/README.md") || fail "no row '$first' in README.md"
  for run in "cortex-m4f float 2" "cortex-m7 double 3"; do
    read -r target scalar column <<<"$run"
    out=$work/$name.$target
    # shellcheck disable=SC2086
    "$cli" generate "$src/models/$name.yaml" $options --scalar "$scalar" --cost "$target" -o "$out" \
      >"$out.out" 2>"$out.log" || { cat "$out.log"; fail "$name: generate --cost $target failed"; }
    measured=$(sed -n "s/^note: recalibration on $target ($scalar): \([0-9]*\) instructions, \([0-9]*\) bytes of stack.*/\1 instructions, \2 B stack/p" "$out.log")
    [ -n "$measured" ] || { cat "$out.log"; fail "$name, $target: no recalibration note"; }
    readme=$(echo "$row" | awk -F'|' -v c="$column" '{gsub(/^ +| +$/, "", $(c + 1)); print $(c + 1)}')
    [ "$measured" = "$readme" ] || fail "$name, $target: generate --cost measures '$measured', README.md says '$readme'"
    echo "$name on $target ($scalar): $measured, as README.md says"
  done
done
