#!/usr/bin/env bash
# CTest (label qemu): the Cortex-M link refuses the heap. A step that builds an Eigen
# dynamic-size matrix (which allocates) must fail to link against targets/cortex-m/startup.cpp
# with the message naming dualrate_heap_use_is_forbidden_on_target; the same program with a
# fixed-size matrix must link, and its binary must hold no heap function.
# Usage: heap_ban.sh SOURCE_DIR EIGEN_INCLUDE_DIR
set -uo pipefail
src=$1 eigen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/step.cpp" <<'CPP'
#include <Eigen/Dense>
#ifdef ALLOCATE
using Matrix = Eigen::MatrixXf;
#else
using Matrix = Eigen::Matrix3f;
#endif
volatile float input = 2.0f;
int main() {
  const float scale = input;
  Matrix m = Matrix::Identity(3, 3) * scale;
  return static_cast<int>(m.inverse()(0, 0) * 2.0f);
}
CPP
build() {
  arm-none-eabi-g++ -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard -O2 -std=c++17 \
    -Wall -Wextra -Werror -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit \
    -ffunction-sections -fdata-sections -DEIGEN_DONT_VECTORIZE -isystem "$eigen" "$@" \
    --specs=picolibc.specs --oslib=semihost -nostartfiles -Wl,--gc-sections -T "$src/targets/mps2-an386/memory.ld" \
    "$work/step.cpp" "$src/targets/cortex-m/startup.cpp"
}
if ! build -o "$work/fixed.elf" >"$work/fixed.log" 2>&1; then
  echo "FAIL: the fixed-size program does not link:"; cat "$work/fixed.log"; exit 1
fi
if arm-none-eabi-nm -C "$work/fixed.elf" | grep -E " (malloc|calloc|realloc|free|operator new|operator delete)"; then
  echo "FAIL: heap functions in the fixed-size program"; exit 1
fi
if timeout 30 qemu-system-arm -M mps2-an386 -display none -serial none -monitor none -chardev stdio,id=c0 \
     -semihosting-config enable=on,target=native,chardev=c0 -kernel "$work/fixed.elf"; [ $? -ne 1 ]; then
  echo "FAIL: the fixed-size program should exit with (int)(0.5 * 2) = 1"; exit 1
fi
if build -DALLOCATE -o "$work/dynamic.elf" >"$work/dynamic.log" 2>&1; then
  echo "FAIL: a program that allocates linked"; exit 1
fi
if ! grep -q "undefined reference to \`dualrate_heap_use_is_forbidden_on_target'" "$work/dynamic.log"; then
  echo "FAIL: the link failed without the heap message:"; cat "$work/dynamic.log"; exit 1
fi
grep "dualrate_heap_use_is_forbidden_on_target" "$work/dynamic.log" | head -3
echo "heap use refused at link time; fixed-size program links, runs and holds no heap function"
