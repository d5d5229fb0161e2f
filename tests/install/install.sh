#!/usr/bin/env bash
# CTest (label qemu): install dualrate into a prefix, move the prefix, and use it from there:
# the CLI finds its runtime, target support and portable math relative to itself (--version
# names them), verifies a model on the host, and a user's project (tests/install/project)
# finds the package and builds and runs the generated pendulum for the host and, with the
# installed toolchain file, for cortex-m4f under QEMU. Nothing of the source or build tree
# may be named by the installed files or used by the moved prefix.
# Usage: install.sh SOURCE_DIR BUILD_DIR WORK
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/staged" >/dev/null
mv "$work/staged" "$work/moved"
prefix=$work/moved
cli=$prefix/bin/dualrate

fail() { echo "install.sh: $*" >&2; exit 1; }

# The trees dualrate was built in must not be named by an installed text file (the CLI's
# build-tree fallback paths are never used once installed: checked below; binaries keep debug info).
if grep -rlIF -e "$src" -e "$build" "$prefix"; then fail "installed files name the build machine's trees"; fi

version=$("$cli" --version)
echo "$version"
grep -q "^installed" <<<"$version" || fail "the moved CLI does not find its installed files"
for field in "runtime headers" "target support" "portable math"; do
  path=$(sed -n "s/^  $field: *//p" <<<"$version")
  [[ $path == "$prefix"/* ]] || fail "$field: $path is not under the moved prefix $prefix"
  [ -e "$path" ] || fail "$field: $path does not exist"
done

# The CLI at work from the moved prefix: generate and verify on the host.
cp "$src/models/pendulum_particle.yaml" "$work/"
(cd "$work" && "$cli" verify pendulum_particle.yaml --target host --t-end 1) | tail -1

# A user's project against the moved prefix.
project=$work/project
mkdir -p "$project"
cp "$src/tests/install/project/CMakeLists.txt" "$src/tests/target/firmware/firmware.cpp" \
   "$src/models/pendulum_particle.yaml" "$project/"
build_project() {  # NAME SCALAR [cmake options...]
  local name=$1 scalar=$2
  shift 2
  cmake -S "$project" -B "$work/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DSCALAR="$scalar" "$@" >/dev/null
  cmake --build "$work/$name" >/dev/null
  (cd "$work/$name" && ctest --output-on-failure)
}
build_project host double
build_project cortex-m4f float -DCMAKE_TOOLCHAIN_FILE="$prefix/share/dualrate/toolchains/cortex-m4f.cmake"
arm-none-eabi-nm -C "$work/cortex-m4f/firmware" | grep -E " (malloc|calloc|realloc|free|operator new|operator delete)" &&
  fail "the cortex-m4f firmware contains a heap function"
# The Debian package (scripts/package), unpacked anywhere, is such a prefix too.
"$src/scripts/package" "$build" >/dev/null
dpkg-deb -x "$build"/packages/dualrate_*.deb "$work/deb"
for f in bin/dualrate include/dualrate/runtime.hpp lib/cmake/dualrate/dualrateConfig.cmake \
         share/dualrate/toolchains/cortex-m4f.cmake lib/dualrate/portable-math/cortex-m4f/lib/libdualrate_softfp.a; do
  [ -e "$work/deb/usr/$f" ] || fail "the package lacks $f"
done
"$work/deb/usr/bin/dualrate" --version | grep -q "^  target support:  $work/deb/usr/share/dualrate/targets" ||
  fail "the unpacked package's CLI does not find its own files"
(cd "$work" && "$work/deb/usr/bin/dualrate" verify pendulum_particle.yaml --target host --t-end 1) | tail -1
echo "install, move and use: ok"
