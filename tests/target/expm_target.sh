#!/usr/bin/env bash
# CTest (label qemu): the runtime's matrix exponential (runtime/include/dualrate/expm.hpp) on
# cortex-m4f. tests/target/expm_probe.cpp (exponential<m, s>, checked_exponential and
# phi_blocks in float and double, N = 2 and 4) must compile warning-free with the product's
# flags and -Wconversion, and link against targets/cortex-m/startup.cpp, whose heap functions
# fail the link if anything references them; its binary must hold no heap function; under
# QEMU every result must equal, bit for bit, the host build's (float on the FPU, double through
# libdualrate_softfp as the product's firmware links it; -ffp-contract=off on both sides).
# The accuracy of those results is tests/runtime/expm_test.cpp's. Prints the instructions of
# each call (QEMU -icount).
# Usage: expm_target.sh SOURCE_DIR EIGEN_INCLUDE_DIR PORTABLE_MATH_DIR
set -uo pipefail
src=$1 eigen=$2 portable=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shift=7
warnings=(-Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion -Wconversion -Werror)
c++ -std=c++17 -O2 -ffp-contract=off -DEIGEN_DONT_VECTORIZE "${warnings[@]}" -I "$src/runtime/include" \
  -isystem "$eigen" "$src/tests/target/expm_probe.cpp" -o "$work/host" || { echo "FAIL: host build"; exit 1; }
"$work/host" >"$work/host.txt" || { echo "FAIL: the host run reported a failure:"; cat "$work/host.txt"; exit 1; }

flags=(-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard -O2 -std=c++17 -ffp-contract=off -fno-exceptions
       -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit -ffunction-sections -fdata-sections -DEIGEN_DONT_VECTORIZE
       -fno-tree-loop-distribute-patterns --specs=picolibc.specs)
arm-none-eabi-g++ "${flags[@]}" "${warnings[@]}" -I "$src/runtime/include" -I "$src/targets/cortex-m" \
  -isystem "$eigen" -DDUALRATE_CPU_HZ=25000000 -DDUALRATE_ICOUNT_SHIFT=$shift -c "$src/tests/target/expm_probe.cpp" \
  -o "$work/probe.o" ||
  { echo "FAIL: the probe does not compile warning-free for cortex-m4f"; exit 1; }
arm-none-eabi-g++ "${flags[@]}" -c "$src/targets/cortex-m/startup.cpp" -o "$work/startup.o" || exit 1
if ! arm-none-eabi-g++ "${flags[@]}" --oslib=semihost -nostartfiles -Wl,--gc-sections \
     -T "$src/targets/mps2-an386/memory.ld" "$work/probe.o" "$work/startup.o" \
     -Wl,--whole-archive "$portable/cortex-m4f/lib/libdualrate_softfp.a" -Wl,--no-whole-archive \
     -o "$work/probe.elf" >"$work/link.log" 2>&1; then
  echo "FAIL: the probe does not link with the heap banned:"; cat "$work/link.log"; exit 1
fi
if arm-none-eabi-nm -C "$work/probe.elf" | grep -E " (malloc|calloc|realloc|free|operator new|operator delete)"; then
  echo "FAIL: heap functions in the probe"; exit 1
fi
timeout -k 5 120 qemu-system-arm -M mps2-an386 -icount shift=$shift,sleep=off -display none -serial none -monitor none \
  -chardev stdio,id=c0 -semihosting-config enable=on,target=native,chardev=c0 -kernel "$work/probe.elf" \
  >"$work/target.txt"
status=$?
grep '^#' "$work/target.txt"
[ $status -eq 0 ] || { echo "FAIL: the target run exited with $status:"; cat "$work/target.txt"; exit 1; }
if ! diff <(grep -v '^#' "$work/target.txt") "$work/host.txt"; then
  echo "FAIL: the target's results differ from the host's (above: < target, > host)"; exit 1
fi
results=$(wc -l <"$work/host.txt")
echo "expm on cortex-m4f: links with the heap banned, no heap function, $results results equal to the host's bits"
