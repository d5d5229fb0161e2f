#!/usr/bin/env bash
# CTest driver: `dualrate a2l` on the trace program that `dualrate verify --keep` builds and keeps
# for tests/models/calibration/motor.yaml on TARGET (host: 64-bit ELF, Scalar double; cortex-m4f:
# 32-bit ARM ELF, Scalar float; generated code with the trace harness's data objects). The A2L file must pass the
# checker (check_a2l.py), every address and size in it must match the program's `nm -S -C`
# (check_addresses.py against motor_objects.txt), and each mutant of it must fail the checker
# (check_a2l_test.py). The errors: a program without the model's objects (wrong --namespace), a
# model without tunable values, and a program whose header is of another calibration layout than
# the model's and options' (another scheme; the model with a limit changed; its tunable
# parameters declared in the other order) exit 1, say what differs (the value, its limits or
# position in the program and in the model) and write nothing.
# Usage: a2l_program.sh CLI SOURCE_DIR WORK_DIR host|cortex-m4f. Exit 77 (skipped) when the
# target's compiler or QEMU is not installed.
set -uo pipefail
cli=$1 src=$2 work=$3 target=$4
here=$src/tests/a2l
model=$src/tests/models/calibration/motor.yaml
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
case $target in
  host) verify=("$cli" verify "$model" --keep "$work/keep") elf=$work/keep/trace nm=nm ;;
  cortex-m4f)
    if ! command -v arm-none-eabi-g++ >/dev/null || ! command -v qemu-system-arm >/dev/null; then
      echo "skipped: arm-none-eabi-g++ or qemu-system-arm is not installed"; exit 77
    fi
    verify=("$cli" verify "$model" --target cortex-m4f --keep "$work/keep") elf=$work/keep/trace.elf
    nm=arm-none-eabi-nm ;;
  *) echo "unknown target $target"; exit 1 ;;
esac
"${verify[@]}" >"$work/verify.log" 2>&1 || { cat "$work/verify.log"; fail "verify did not pass"; }
cp "$elf" "$work/motor.elf" || fail "verify kept no program"
"$cli" a2l "$model" --elf "$work/motor.elf" -o "$work/motor.a2l" || fail "dualrate a2l failed"
python3 "$here/check_a2l.py" "$work/motor.a2l" --objects >"$work/objects.txt" ||
  { cat "$work/objects.txt"; fail "the A2L file does not pass the checker"; }
"$nm" -S -C "$work/motor.elf" >"$work/nm.txt" || fail "$nm failed"
python3 "$here/check_addresses.py" "$work/objects.txt" "$work/nm.txt" "$here/motor_objects.txt" ||
  fail "addresses differ from $nm's"
python3 "$here/check_a2l_test.py" "$work/motor.a2l" || fail "the checker passes a broken file"

# expect_error WHAT MESSAGE ARGS...: dualrate a2l ARGS exits 1, prints MESSAGE and writes no file.
expect_error() {
  local what=$1 message=$2
  shift 2
  rm -f "$work/error.a2l"
  "$cli" a2l "$@" -o "$work/error.a2l" >"$work/error.log" 2>&1
  local rc=$?
  [ $rc -eq 1 ] || { cat "$work/error.log"; fail "$what: exit $rc, expected 1"; }
  grep -qF -- "$message" "$work/error.log" || { cat "$work/error.log"; fail "$what: no '$message'"; }
  [ ! -e "$work/error.a2l" ] || fail "$what: the A2L file was written"
}
expect_error "another namespace" "no object other::calibration in its symbol table" \
  "$model" --elf "$work/motor.elf" --namespace other
expect_error "a model without tunable values" "has no tunable parameter or table" \
  "$src/models/dc_motor.yaml" --elf "$work/motor.elf"
expect_error "another scheme" "generated for another calibration layout: scheme rk4 (the model's: sp_ll)" \
  "$model" --elf "$work/motor.elf" --scheme sp_ll
sed 's/min: 0.03, max: 0.08/min: 0.03, max: 0.09/' "$model" >"$work/relimited.yaml"
cmp -s "$model" "$work/relimited.yaml" && fail "the model's Kt limits were not found to change"
expect_error "another limit" "generated for another calibration layout: Kt's limits are" \
  "$work/relimited.yaml" --elf "$work/motor.elf"
grep -qE "in the program, \[0.0[0-9]*, 0.0(9|8999)[0-9]*\] in the model" "$work/error.log" ||
  { cat "$work/error.log"; fail "another limit: the model's new max 0.09 is not named"; }
awk '/^  R: /{r=$0; next} {print} /^  Kt: /{print r}' "$model" >"$work/reordered.yaml"
cmp -s "$model" "$work/reordered.yaml" && fail "the model's tunable parameters were not reordered"
expect_error "tunable values in another order" "Kt is value 1 in the program, 0 in the model" \
  "$work/reordered.yaml" --elf "$work/motor.elf"
grep -qF "R is value 0 in the program, 1 in the model" "$work/error.log" ||
  { cat "$work/error.log"; fail "tunable values in another order: R's position is not named"; }

# A program of the user's own (host only: not a trace program), with a model instance of its own:
# the file describes the calibration object and the instance's states at nm's addresses.
if [ "$target" = host ]; then
  "$cli" generate "$model" -o "$work/user" >/dev/null || fail "generate failed"
  cat >"$work/user/main.cpp" <<'EOF'
#include "motor.hpp"
motor::Data plant;
int main(int argc, char**) {
  for (int i = 0; i < 100 * argc; ++i) {
    motor::calibrate();
    if (motor::step(plant, motor::Model::scenario_inputs(plant.time(motor::kStep))) != dualrate::Status::kOk) return 1;
  }
  return 0;
}
EOF
  eigen=$(pkg-config --cflags-only-I eigen3 | sed 's/^ *-I//; s/ *$//')
  g++ -std=c++17 -O1 -I"$work/user" -I"$src/runtime/include" -isystem "$eigen" "$work/user/main.cpp" \
    -o "$work/user/program" || fail "the user's program did not build"
  "$work/user/program" || fail "the user's program failed"
  "$cli" a2l "$model" --elf "$work/user/program" --instance plant -o "$work/user.a2l" ||
    fail "dualrate a2l failed on the user's program"
  python3 "$here/check_a2l.py" "$work/user.a2l" >/dev/null || fail "the user's program's A2L file is invalid"
  plant=$(nm -C "$work/user/program" | awk '$3 == "plant" {print toupper($1)}')
  [ -n "$plant" ] || fail "no symbol plant in the user's program"
  grep -A3 "MEASUREMENT plant.omega" "$work/user.a2l" | grep -q "ECU_ADDRESS 0x$(printf '%08X' "0x$plant")" ||
    fail "plant.omega is not at plant's address 0x$plant"
  expect_error "an object that is no model instance" "not a model instance" \
    "$model" --elf "$work/user/program" --instance motor::calibration

  # A dual-rate program of the user's with two instances (generate --instances front,rear), each a
  # Tasks object of its own: their states at the offset the program itself reports, and each
  # instance's active values at its active_constants.
  driveline=$src/models/vehicle_driveline.yaml
  "$cli" generate "$driveline" --scheme mrabm4_parallel --instances front,rear -o "$work/tasks" >/dev/null ||
    fail "generate --instances failed"
  cat >"$work/tasks/main.cpp" <<'EOF'
#include <cstdio>
#include "vehicle_driveline.hpp"
namespace vd = vehicle_driveline;
vd::front::Tasks front_tasks(vd::front::kStep);
vd::rear::Tasks rear_tasks(vd::rear::kStep);
template <class Tasks, class Fast, class Slow>
bool tick(Tasks& tasks, Fast fast, Slow slow, int n) {
  bool release = false;
  if (fast(tasks, vd::front::Model::scenario_inputs(n * vd::front::kStep), release) != dualrate::Status::kOk) return false;
  return !release || slow(tasks) == dualrate::Status::kOk;
}
int main() {
  for (int n = 0; n < 100; ++n) {
    vd::calibrate();
    if (!tick(front_tasks, vd::front::fast_task, vd::front::slow_task, n)) return 1;
    if (!tick(rear_tasks, vd::rear::fast_task, vd::rear::slow_task, n)) return 1;
  }
  const char* state = reinterpret_cast<const char*>(front_tasks.fast_state().x.data());
  std::printf("%td\n", state - reinterpret_cast<const char*>(&front_tasks));
  return 0;
}
EOF
  g++ -std=c++17 -O1 -I"$work/tasks" -I"$src/runtime/include" -isystem "$eigen" "$work/tasks/main.cpp" \
    -o "$work/tasks/program" || fail "the user's dual-rate program did not build"
  offset=$("$work/tasks/program") || fail "the user's dual-rate program failed"
  "$cli" a2l "$driveline" --scheme mrabm4_parallel --elf "$work/tasks/program" --instance front_tasks \
    --instance rear_tasks -o "$work/tasks.a2l" || fail "dualrate a2l failed on the user's dual-rate program"
  python3 "$here/check_a2l.py" "$work/tasks.a2l" >/dev/null || fail "the dual-rate program's A2L file is invalid"
  address() { nm -C "$work/tasks/program" | awk -v name="$1" '$3 == name {print $1}'; }
  front=$(address front_tasks) active=$(address vehicle_driveline::rear::active_constants)
  [ -n "$front" ] && [ -n "$active" ] || fail "no front_tasks or rear::active_constants in the dual-rate program"
  grep -A3 "MEASUREMENT front_tasks.w_w" "$work/tasks.a2l" |
    grep -q "ECU_ADDRESS 0x$(printf '%08X' $((0x$front + offset)))" ||
    fail "front_tasks.w_w is not at front_tasks + $offset"
  grep -A3 "MEASUREMENT front_tasks.w_e" "$work/tasks.a2l" |
    grep -q "ECU_ADDRESS 0x$(printf '%08X' $((0x$front + offset + 2 * 8)))" ||
    fail "front_tasks.w_e, the third state, is not at front_tasks + $offset + 16"
  grep -A3 "MEASUREMENT rear.active.k_p" "$work/tasks.a2l" | grep -q "ECU_ADDRESS 0x$(printf '%08X' "0x$active")" ||
    fail "rear.active.k_p is not at rear::active_constants"
fi
echo "dualrate a2l on $target: the checker passes the file, $(wc -l <"$work/objects.txt") addresses match $nm"
