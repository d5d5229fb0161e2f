#!/usr/bin/env bash
# Calibration end to end, as a calibration tool does it (docs/calibration.md): the cortex-m4f
# trace program that `dualrate verify --keep` builds for tests/models/calibration/motor.yaml with
# sp_ll (its exponentials recomputed on the target) runs under qemu-system-arm with QEMU's gdb
# server, and gdb-multiarch writes into the addresses that `dualrate a2l` gives for that program:
# R = 1.6 before step 50, friction[1] = 0.12 before step 100, and R = 3 (above its max 2) before
# step 150. The program's trace must equal bit for bit the one of the same program built with
# those writes made by its harness at the same steps (verify --calibration, which also compares
# it with the reference core making them), and after the refused write calibration_status must
# say "above its max" (4) for value 0 (R).
# Usage: calibration_gdb.sh CLI SOURCE_DIR WORK_DIR. Exit 77 (skipped) when a tool is missing.
set -uo pipefail
cli=$1 src=$2 work=$3
for tool in arm-none-eabi-g++ arm-none-eabi-nm qemu-system-arm gdb-multiarch python3; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done
fail() { echo "FAIL: $*"; exit 1; }
model=$src/tests/models/calibration/motor.yaml
rm -rf "$work" && mkdir -p "$work" || exit 1
common=(--scheme sp_ll --step 1e-4 --t-end 0.02 --target cortex-m4f)
cat >"$work/scenario.yaml" <<'EOF'
- at: 0.005
  set: {R: 1.6}
- at: 0.01
  set: {friction: [0.08, 0.12, 0.13, 0.2]}
- at: 0.015
  set: {R: 3.0}
EOF
"$cli" verify "$model" "${common[@]}" --calibration "$work/scenario.yaml" --keep "$work/expected" \
  >"$work/expected.log" 2>&1 ||
  { cat "$work/expected.log"; fail "verify with the writes in the harness did not pass"; }
"$cli" verify "$model" "${common[@]}" --keep "$work/program" >"$work/program.log" 2>&1 ||
  { cat "$work/program.log"; fail "verify without writes did not pass"; }
elf=$work/program/trace.elf
"$cli" a2l "$model" --scheme sp_ll --step 1e-4 --elf "$elf" -o "$work/motor.a2l" || fail "dualrate a2l failed"
python3 "$src/tests/a2l/check_a2l.py" "$work/motor.a2l" --objects >"$work/objects.txt" || fail "the A2L file is invalid"
address() { awk -v n="$1" '$1 == "CHARACTERISTIC" && $2 == n { print $3 }' "$work/objects.txt"; }
symbol() {
  arm-none-eabi-nm -C "$elf" |
    awk -v s="$1" '{ name = $0; sub(/^[0-9a-f]+ [A-Za-z] /, "", name) } name == s { print "0x" $1 }'
}
r=$(address R) friction=$(address friction) kt=$(address Kt) commit=$(address calibration_requests.commit)
measurement() { awk -v n="$1" '$1 == "MEASUREMENT" && $2 == n { print $3 }' "$work/objects.txt"; }
handled=$(measurement calibration_handled.commit) active_r=$(measurement active.R) active_kt=$(measurement active.Kt)
window=$(symbol "dualrate_trace::calibration_window()") step=$(symbol "dualrate_trace::calibration_window_step")
status=$(symbol "motor::calibration_status")
[ -n "$r" ] && [ -n "$friction" ] && [ -n "$kt" ] && [ -n "$commit" ] && [ -n "$handled" ] && [ -n "$active_r" ] &&
  [ -n "$active_kt" ] && [ -n "$window" ] && [ -n "$step" ] && [ -n "$status" ] ||
  fail "missing addresses: R '$r', friction '$friction', Kt '$kt', commit '$commit', handled '$handled'," \
    "active R '$active_r', active Kt '$active_kt', window '$window', window step '$step', status '$status'"
friction1=$(printf '0x%x' $((friction + 4)))  # friction[1]: the CURVE's second float

port=$((20000 + $$ % 10000))
# The program's own QEMU command (build.sh), halted at reset with the gdb server on; the writes
# start at main, once the startup code has copied .data (the window step among it).
qemu=$(grep -o "qemu-system-arm .* -append '[0-9 ]*'" "$work/program/build.sh") || fail "no QEMU command in build.sh"
eval "timeout -k 5 300 $qemu -S -gdb tcp::$port" >"$work/gdb_run.txt" 2>"$work/qemu.err" &
qemu_pid=$!
cat >"$work/writes.gdb" <<EOF
set pagination off
set confirm off
target remote :$port
break main
continue
delete
set {long}$step = 50
break *$window
continue
set {float}$r = 1.6
set {int}$commit = 1
set {long}$step = 100
continue
set {float}$friction1 = 0.12
set {int}$commit = 2
set {long}$step = 120
continue
set {float}$kt = 0.07
set {long}$step = 150
continue
set {float}$r = 3.0
set {int}$commit = 3
set {long}$step = 151
continue
printf "calibration_status %d %d handled %d\n", {int}$status, {int}($status + 4), {int}$handled
printf "active %.9g %.9g\n", {float}$active_r, {float}$active_kt
delete
continue
EOF
timeout 120 gdb-multiarch -q -batch -x "$work/writes.gdb" "$elf" >"$work/gdb.log" 2>&1
gdb_rc=$?
wait $qemu_pid
qemu_rc=$?
[ $gdb_rc -eq 0 ] || { cat "$work/gdb.log"; fail "gdb-multiarch exited with $gdb_rc"; }
[ $qemu_rc -eq 0 ] || { cat "$work/qemu.err"; fail "the program under QEMU exited with $qemu_rc"; }
grep -q "^calibration_status 4 0 handled 3$" "$work/gdb.log" ||
  { cat "$work/gdb.log"; fail "after R = 3 and commit 3 the status is not 'above its max' (4) for R (0), handled 3"; }
grep -q "^active 1.60000002 0.0500000007$" "$work/gdb.log" ||
  { cat "$work/gdb.log"; fail "the active values are not R = 1.6 and the model's Kt = 0.05 (in float)"; }
grep -E '^(t,|0x|-0x)' "$work/gdb_run.txt" >"$work/gdb_run.csv"
cmp -s "$work/gdb_run.csv" "$work/expected/generated.csv" ||
  fail "the trace with gdb's writes differs from the one with the harness's writes ($work/gdb_run.csv)"
cmp -s "$work/gdb_run.csv" "$work/program/generated.csv" &&
  fail "the writes changed nothing: the trace equals the one without writes"
echo "gdb-multiarch wrote and committed R, friction[1] and a refused R, and Kt without commit, at the A2L's" \
  "addresses while the program ran: $(wc -l <"$work/gdb_run.csv") trace lines equal the harness's run bit for" \
  "bit; status 'above its max' for R at commit 3; active R 1.6, Kt 0.05"
