#!/usr/bin/env bash
# CTest (label qemu): software floating point on cores without a double-precision FPU
# (cortex-m3; doubles on cortex-m4f) is correctly rounded once libdualrate_softfp replaces
# libgcc's routines, and libgcc's own routines are not (the reason for the replacement).
# A probe computes a + b, a - b, a * b, a / b, (float) a and (double) i for operands drawn
# from a fixed generator (random signs, mantissas and exponents in [2^-60, 2^60], so that
# additions meet every alignment shift up to 120), plus 0.5 - b for b in [2^-34, 2^-33),
# where libgcc's __aeabi_dsub loses the rounding bit: for a shift of 33 the smaller
# operand's low word survives only as a sticky bit, and the bit that becomes the rounding
# bit after a one-bit renormalisation is lost. The host (IEEE, correctly rounded) compares.
# Passes when, under QEMU,
#   cortex-m3 and cortex-m4f with libdualrate_softfp: every result equals the host's;
#   cortex-m3 with libgcc alone: some 0.5 - b differ, by one unit in the last place.
# If libgcc starts rounding correctly, the last case fails: libdualrate_softfp can then go.
# Usage: softfloat.sh SOURCE_DIR PORTABLE_MATH_DIR
set -uo pipefail
src=$1 portable=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/probe.cpp" <<'CPP'
// On the target: prints the results' bits, one per line. On the host: reads them from the
// file argv[1], compares them with its own and prints how many differ (all and 0.5 - b)
// and by how many units in the last place at most.
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

constexpr int kPairs = 1000, kHalfMinus = 400;
std::uint64_t state = 0x9e3779b97f4a7c15u;
std::uint64_t next() {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
double operand() {
  const std::uint64_t r = next();
  const std::uint64_t exponent = 1023 - 60 + (r >> 52) % 121;
  const std::uint64_t bits = (r & (1ull << 63)) | (exponent << 52) | (next() & ((1ull << 52) - 1));
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
std::uint64_t bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
volatile double minuend = 0.5;
// Calls `emit` with each result in a fixed order; the 0.5 - b cases come last.
template <class Emit>
void results(Emit emit) {
  for (int i = 0; i < kPairs; ++i) {
    const volatile double a = operand(), b = operand();
    const volatile int n = static_cast<int>(next());
    emit(a + b);
    emit(a - b);
    emit(a * b);
    emit(a / b);
    emit(static_cast<double>(static_cast<float>(a)));
    emit(static_cast<double>(n));
  }
  for (int i = 0; i < kHalfMinus; ++i) {
    const volatile double b = std::ldexp(1.0 + i / 400.0, -34);
    emit(minuend - b);
  }
}
#ifdef __arm__
int main() {
  results([](double r) { std::printf("%016" PRIx64 "\n", bits(r)); });
  return 0;
}
#else
int main(int argc, char** argv) {
  std::FILE* in = argc > 1 ? std::fopen(argv[1], "r") : nullptr;
  if (!in) return 2;
  const int total = kPairs * 6 + kHalfMinus;
  int index = 0, differ = 0, differ_half_minus = 0, missing = 0;
  std::uint64_t worst = 0;
  results([&](double mine) {
    std::uint64_t other = 0;
    if (std::fscanf(in, "%" SCNx64, &other) != 1) ++missing;
    const std::uint64_t m = bits(mine), ulps = m > other ? m - other : other - m;
    if (ulps != 0) {
      ++differ;
      if (index >= total - kHalfMinus) ++differ_half_minus;
      if (ulps > worst) worst = ulps;
    }
    ++index;
  });
  if (missing) {
    std::printf("the target printed fewer than %d results\n", total);
    return 2;
  }
  std::printf("%d of %d results differ from the host (%d of the %d 0.5 - b), by at most %" PRIu64 " ulp\n", differ,
              total, differ_half_minus, kHalfMinus, worst);
  return differ == 0 ? 0 : (differ == differ_half_minus && worst == 1 ? 3 : 1);
}
#endif
CPP
c++ -O2 -std=c++17 -ffp-contract=off "$work/probe.cpp" -o "$work/host" || exit 1

# run TARGET BOARD CPU_FLAGS [LIBRARY...]: builds the probe, runs it, prints the host's verdict
# and returns its exit status (0 all equal, 3 only 0.5 - b differ by one ulp, else 1 or 2).
run() {
  local target=$1 board=$2 flags=$3
  shift 3
  # shellcheck disable=SC2086
  arm-none-eabi-g++ $flags -O2 -std=c++17 -ffp-contract=off -fno-exceptions -fno-rtti \
    -fno-threadsafe-statics -fno-use-cxa-atexit -ffunction-sections -fdata-sections --specs=picolibc.specs \
    --oslib=semihost -nostartfiles -Wl,--gc-sections -T "$src/targets/$board/memory.ld" \
    "$work/probe.cpp" "$src/targets/cortex-m/startup.cpp" "$@" -o "$work/probe.elf" || return 2
  "$src/toolchains/qemu-run.sh" "$board" "$work/probe.elf" >"$work/target.txt" || return 2
  printf '%s: ' "$target"
  "$work/host" "$work/target.txt"
}
whole() { echo "-Wl,--whole-archive" "$portable/$1/lib/libdualrate_softfp.a" "-Wl,--no-whole-archive"; }

status=0
run "cortex-m3 with libdualrate_softfp" mps2-an385 "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft" $(whole cortex-m3) ||
  { echo "FAIL: expected every result equal to the host's"; status=1; }
run "cortex-m4f with libdualrate_softfp" mps2-an386 \
  "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard" $(whole cortex-m4f) ||
  { echo "FAIL: expected every result equal to the host's"; status=1; }
run "cortex-m3 with libgcc" mps2-an385 "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft"
case $? in
  3) ;;
  0) echo "FAIL: libgcc's soft-float now rounds correctly: libdualrate_softfp is no longer needed"; status=1 ;;
  *) echo "FAIL: libgcc's soft-float differs from the host beyond the known case"; status=1 ;;
esac
exit $status
