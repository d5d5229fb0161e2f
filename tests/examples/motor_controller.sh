#!/usr/bin/env bash
# CTest (label qemu): the calibration session of examples/motor_controller, as its README walks
# through it. dualrate is installed into a prefix; the example (a user's firmware project: its
# own globals, SysTick fast task and idle loop) is built against the prefix for cortex-m4f;
# `dualrate a2l` describes its ELF (with --instance plant); the program runs under
# qemu-system-arm with -icount shift=5,sleep=off (each instruction 32 ns, near one cycle of the board's
# 25 MHz clock; a deterministic clock: the same trace every run) and QEMU's gdb server, and gdb-multiarch, as the calibration tool, writes at the A2L file's addresses while it
# runs, breaking in the program's idle loop (at its wfi, after calibrate()) once the program's
# tick counter has reached a value:
#   tick 100: R = 1.6, Kt = 0.06, commit 1    tick 250: read handled, status, active values
#   tick 250: R = 0.4 (below its min), commit 2    tick 300: read them again
#   tick 300: Kt = 0.07 without commit    tick 350: read them again; reset 1
#   tick 400: read the working values R, Kt
# A tool writes the next set only once the program has handled the last commit: sp_ll's
# recalibration (in software double) takes about 70 ticks here, between the fast task's steps,
# and values written meanwhile refuse that commit (kChanged).
# Checked: each read; the program's log of the commits its background handled (commit 1 applied,
# commit 2 refused naming R); the trace equals the run without a tool up to the step before the
# first that uses R = 1.6 and Kt = 0.06, which is the first step after the background's
# calibrate() of commit 1 returned (between the ticks the log gives), and every later step uses
# them; and the whole trace equals that of a session that makes only the first commit: the
# refused commit, the write without commit and the reset change nothing.
# Usage: motor_controller.sh SOURCE_DIR BUILD_DIR WORK. Exit 77 (skipped) when a tool is missing.
set -uo pipefail
src=$1 build=$2 work=$3
for tool in arm-none-eabi-g++ qemu-system-arm gdb-multiarch python3 ninja; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install failed"
cp -r "$src/examples/motor_controller" "$work/project" || exit 1
cmake -S "$work/project" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_TOOLCHAIN_FILE="$prefix/share/dualrate/toolchains/cortex-m4f.cmake" >"$work/cmake.log" 2>&1 &&
  cmake --build "$work/build" >>"$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "the example did not build"; }
elf=$work/build/motor_controller
"$prefix/bin/dualrate" a2l "$work/project/motor.yaml" --elf "$elf" --instance plant -o "$work/motor.a2l" ||
  fail "dualrate a2l failed"
python3 "$src/tests/a2l/check_a2l.py" "$work/motor.a2l" --objects >"$work/objects.txt" ||
  { cat "$work/objects.txt"; fail "the A2L file is invalid"; }
at() { awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3 }' "$work/objects.txt"; }
r=$(at CHARACTERISTIC R) kt=$(at CHARACTERISTIC Kt) commit=$(at CHARACTERISTIC calibration_requests.commit)
reset=$(at CHARACTERISTIC calibration_requests.reset) handled=$(at MEASUREMENT calibration_handled.commit)
handled_reset=$(at MEASUREMENT calibration_handled.reset) status=$(at MEASUREMENT calibration_status.result)
active_r=$(at MEASUREMENT active.R) active_kt=$(at MEASUREMENT active.Kt) omega=$(at MEASUREMENT plant.omega)
for v in r kt commit reset handled handled_reset status active_r active_kt omega; do
  [ -n "${!v}" ] || fail "the A2L file has no address for $v"
done
grep -q "^plant\.omega\b" <<<"$(awk '$1 == "MEASUREMENT" { print $2 }' "$work/objects.txt")" || fail "no plant.omega"

qemu_command=(qemu-system-arm -M mps2-an386 -display none -serial none -monitor none -icount shift=5,sleep=off
              -chardev stdio,id=c0 -semihosting-config enable=on,target=native,chardev=c0 -kernel "$elf")
timeout 60 "${qemu_command[@]}" >"$work/alone.txt" || fail "the program alone failed"

# session NAME GDB_COMMANDS: the program under the gdb server, gdb-multiarch running the commands.
session() {
  local name=$1 commands=$2 port=$((20000 + ($$ + ${#1}) % 10000))
  timeout -k 5 120 "${qemu_command[@]}" -S -gdb tcp::$port >"$work/$name.txt" 2>"$work/$name.qemu.err" &
  local qemu_pid=$!
  printf 'set pagination off\nset confirm off\ntarget remote :%s\n%s\ndelete\ncontinue\n' "$port" "$commands" \
    >"$work/$name.gdb"
  timeout 120 gdb-multiarch -q -batch -x "$work/$name.gdb" "$elf" >"$work/$name.log" 2>&1
  local gdb_rc=$?
  wait $qemu_pid
  local qemu_rc=$?
  [ $gdb_rc -eq 0 ] || { cat "$work/$name.log"; fail "$name: gdb-multiarch exited with $gdb_rc"; }
  [ $qemu_rc -eq 0 ] || { cat "$work/$name.qemu.err"; fail "$name: the program exited with $qemu_rc"; }
}
# A breakpoint in the idle loop, not in the fast task: under QEMU's gdb server a breakpoint that
# the SysTick handler hits at every tick (its condition false) starves the background.
idle=$(grep -n 'asm__ volatile("wfi")' "$work/project/main.cpp" | cut -d: -f1)
[ -n "$idle" ] || fail "no wfi in the example's idle loop"
at_tick() { printf 'delete\nbreak main.cpp:%s if ticks >= %s\ncontinue\n' "$idle" "$1"; }
read_back() {
  printf 'printf "%s: handled %%u status %%d %%d active %%.9g %%.9g\\n", {unsigned}%s, {int}%s, {int}(%s + 4), {float}%s, {float}%s\n' \
    "$1" "$handled" "$status" "$status" "$active_r" "$active_kt"
}
first_commit="$(at_tick 100)
set {float}$r = 1.6
set {float}$kt = 0.06
set {unsigned}$commit = 1
$(at_tick 250)
$(read_back "commit 1")"
session committed "$first_commit"
session full "$first_commit
set {float}$r = 0.4
set {unsigned}$commit = 2
$(at_tick 300)
$(read_back "commit 2")
set {float}$kt = 0.07
$(at_tick 350)
$(read_back "no commit")
set {unsigned}$reset = 1
$(at_tick 400)
printf \"reset: handled %u working %.9g %.9g\\n\", {unsigned}$handled_reset, {float}$r, {float}$kt"

expect() {  # LINE: the full session's log has it
  grep -qxF "$1" "$work/full.log" || { cat "$work/full.log"; fail "the session did not read '$1'"; }
}
expect "commit 1: handled 1 status 0 -1 active 1.60000002 0.0599999987"
expect "commit 2: handled 2 status 3 0 active 1.60000002 0.0599999987"
expect "no commit: handled 2 status 3 0 active 1.60000002 0.0599999987"
expect "reset: handled 1 working 1.60000002 0.0599999987"
trace() { grep -v '^#' "$1"; }
trace "$work/alone.txt" >"$work/alone.trace" && trace "$work/full.txt" >"$work/full.trace" || fail "no trace"
[ "$(wc -l <"$work/full.trace")" -eq 600 ] || fail "the session's trace has $(wc -l <"$work/full.trace") lines, not 600"
grep -qE '^# commit 2 between ticks [0-9]+ and [0-9]+: below its min R$' "$work/full.txt" ||
  { cat "$work/full.txt"; fail "the program did not log commit 2 as refused, below its min, naming R"; }
read -r from to < <(sed -nE 's/^# commit 1 between ticks ([0-9]+) and ([0-9]+): applied $/\1 \2/p' "$work/full.txt")
[ -n "${from:-}" ] || { cat "$work/full.txt"; fail "the program did not log commit 1 as applied"; }
first=$(awk '$4 == "1.60000002" && $5 == "0.0599999987" { print $1; exit }' "$work/full.trace")
[ -n "$first" ] && [ "$first" -ge "$from" ] && [ "$first" -le "$to" ] ||
  fail "the first step with R = 1.6 and Kt = 0.06 is '$first', not within ticks $from to $to of calibrate()"
awk -v k="$first" '$1 >= k && ($4 != "1.60000002" || $5 != "0.0599999987") { exit 1 }' "$work/full.trace" ||
  fail "a step from tick $first on does not use R = 1.6 and Kt = 0.06"
head -n "$first" "$work/full.trace" | cmp -s - <(head -n "$first" "$work/alone.trace") ||
  fail "the trace before tick $first differs from the program's run without a tool"
sed -n "$((first + 1))p" "$work/full.trace" | cmp -s - <(sed -n "$((first + 1))p" "$work/alone.trace") &&
  fail "tick $first equals the run without a tool"
trace "$work/committed.txt" | cmp -s - "$work/full.trace" ||
  fail "the refused commit, the write without commit or the reset changed the trace"
echo "examples/motor_controller built against the installed package; gdb-multiarch at the A2L file's addresses:" \
  "commit 1 at tick 100 (R 1.6, Kt 0.06) computed between ticks $from and $to, used from tick $first on; R 0.4" \
  "refused (below its min, R); Kt without commit and the reset change nothing: 600 trace lines equal the" \
  "session with commit 1 alone"
