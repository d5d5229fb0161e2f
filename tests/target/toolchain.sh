#!/usr/bin/env bash
# CTest (label qemu): a firmware project configured with toolchains/TARGET.cmake generates a
# model, cross-builds and passes its own test under QEMU through plain ctest.
# Usage: toolchain.sh SOURCE_DIR CLI TARGET SCALAR WORK DEBIAN_SOURCES_DIR
set -euo pipefail
src=$1 cli=$2 target=$3 scalar=$4 work=$5 sources=$6
rm -rf "$work"
cmake -S "$src/tests/target/firmware" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$src/toolchains/$target.cmake" -DDUALRATE_ROOT="$src" -DDUALRATE_CLI="$cli" \
  -DSCALAR="$scalar" -DDUALRATE_SOURCES_DIR="$sources" >/dev/null
cmake --build "$work" >/dev/null
arm-none-eabi-nm -C "$work/firmware" | grep -E " (malloc|calloc|realloc|free|operator new|operator delete)" && exit 1
cd "$work" && ctest --output-on-failure
