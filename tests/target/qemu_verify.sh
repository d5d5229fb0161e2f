#!/usr/bin/env bash
# CTest driver (label qemu): verifies MODEL with SCHEME on a Cortex-M TARGET under QEMU.
# Usage: qemu_verify.sh CLI MODEL SCHEME TARGET
# Exit 0 when `dualrate verify --target` passes (reference within tolerance and bit for bit
# equal to the host build). Exit 77 (skipped) when the combination does not apply: the
# generator refuses the model with this scheme at the model's step (it says why), or the
# model calls C-library functions (sin, exp ...) whose last bits picolibc and the host's
# libm compute differently, so the bit-for-bit comparison cannot hold; or, on cortex-m3,
# the trace agrees with the reference core within the tolerance but not bit for bit with the
# host: libgcc's soft-float double subtraction is not correctly rounded in every case (shown
# by softfloat_rounding.sh), and whether a model meets such a case depends on its operand
# order, which can change between builds of the generator. Anything else fails.
set -uo pipefail
cli=$1 model=$2 scheme=$3 target=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! "$cli" generate "$model" --scheme "$scheme" -o "$work" >"$work/generate.log" 2>&1; then
  echo "not applicable: the generator refuses $scheme for $(basename "$model"):"
  cat "$work/generate.log"
  exit 77
fi
# Every 10th step is printed and compared (all steps run); the model's own t_end.
"$cli" verify "$model" --scheme "$scheme" --target "$target" --every 10 --json >"$work/verify.json" 2>"$work/verify.err"
rc=$?
cat "$work/verify.json" "$work/verify.err"
if [ $rc -eq 0 ] && grep -q '"pass":true' "$work/verify.json" && grep -q '"bit_exact_vs_host":true' "$work/verify.json"; then
  exit 0
fi
within_tolerance() {
  awk -F'"max_error":|,"tolerance":|,"pass"' '{ exit ($2 + 0 <= $3 + 0) ? 0 : 1 }' "$work/verify.json"
}
if [ $rc -eq 2 ] && [ "$target" = cortex-m3 ] && grep -q '"bit_exact_vs_host":false' "$work/verify.json" &&
   within_tolerance; then
  echo "skipped: within tolerance of the reference core, but libgcc's soft-float double arithmetic rounded"
  echo "differently from the host (see tests/target/softfloat_rounding.sh)"
  exit 77
fi
if [ $rc -eq 2 ] && grep -q '"library_functions":\["' "$work/verify.json"; then
  echo "skipped: the model calls C-library functions that picolibc and the host's libm round differently"
  exit 77
fi
exit 1
