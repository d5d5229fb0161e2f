#!/usr/bin/env bash
# CTest driver (label qemu): verifies MODEL with SCHEME on a cross TARGET under QEMU (Cortex-M under
# qemu-system-arm, cortex-a53-linux under qemu-aarch64).
# Usage: qemu_verify.sh CLI MODEL SCHEME TARGET [STEP [T_END [SCALAR]]]  (STEP '-': the model's
# step; T_END: a shorter run than the model's t_end, for models too slow to emulate over it, '-'
# for the model's; SCALAR: float or double, default the target's)
# Exit 0 when `dualrate verify --target` passes (reference within tolerance and bit for bit
# equal to the host build). Exit 77 (skipped) only when the combination does not apply: the
# generator refuses the model with this scheme at the model's step (exit status 1 with a
# positioned `FILE:LINE:COL: error:` saying why) for the reason tests/target/expected_refusals.txt
# lists for it. Anything else fails: a refusal not listed there or for another reason, a listed
# refusal that does not happen, a crash, a binary that does not run, an unpositioned error.
set -uo pipefail
cli=$1 model=$2 scheme=$3 target=$4
step=()
[ $# -ge 5 ] && [ "$5" != - ] && step=(--step "$5")
t_end=()
[ $# -ge 6 ] && [ "$6" != - ] && t_end=(--t-end "$6")
scalar=()
[ $# -ge 7 ] && scalar=(--scalar "$7")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

refusals="$(dirname "${BASH_SOURCE[0]}")/expected_refusals.txt"
name=$(basename "$model" .yaml)
expected=$(awk -F' *[|] *' -v m="$name" -v s="$scheme" '!/^#/ && $1 == m && $2 == s { print $3 }' "$refusals")
"$cli" generate "$model" --scheme "$scheme" "${step[@]}" "${scalar[@]}" -o "$work" >"$work/generate.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  if [ $rc -eq 1 ] && grep -Eq '^[^ ]+:[0-9]+:[0-9]+: error: ' "$work/generate.log"; then
    if [ -n "$expected" ] && grep -qF -- "$expected" "$work/generate.log"; then
      echo "not applicable: the generator refuses $scheme for $name, as $refusals expects:"
      cat "$work/generate.log"
      exit 77
    fi
    if [ -n "$expected" ]; then
      echo "the generator refuses $scheme for $name, but not for the reason $refusals lists ('$expected'):"
    else
      echo "the generator refuses $scheme for $name, which $refusals does not list:"
    fi
    cat "$work/generate.log"
    exit 1
  fi
  echo "generate failed (exit $rc) without a positioned refusal:"
  cat "$work/generate.log"
  exit 1
fi
if [ -n "$expected" ]; then
  echo "$refusals expects the generator to refuse $scheme for $name ('$expected'), but it generated the header"
  exit 1
fi
# Every 10th step is printed and compared (all steps run).
"$cli" verify "$model" --scheme "$scheme" "${step[@]}" "${t_end[@]}" "${scalar[@]}" --target "$target" --every 10 --json >"$work/verify.json" 2>"$work/verify.err"
rc=$?
cat "$work/verify.json" "$work/verify.err"
if [ $rc -eq 0 ] && grep -q '"pass":true' "$work/verify.json" && grep -q '"bit_exact_vs_host":true' "$work/verify.json"; then
  exit 0
fi
exit 1
