#!/usr/bin/env bash
# Same model and options, same bytes, from any build of the generator and any run of it. Generates
# every model of models/ (with --all also those of tests/models/valid/ and tests/models/schemes/)
# with every scheme (--allow-unstable: the stability checks decide whether a header is emitted, not
# its bytes, and along the trajectory they cost the sanitized build 9 s of planar_spacecraft's 13),
# each model's default scheme in float, and its default scheme with --jacobian (the Jacobian is the
# model's, the same in every scheme's header; emitted with each scheme it took the sanitized build
# 4.6 s of planar_vehicle's 6.4 with euler, and a model whose mass matrix depends on the
# coordinates, which --jacobian refuses, had none of its headers compared), twice: with GENERATOR_A and with GENERATOR_B (another build of the
# generator: another compiler, optimisation level, sanitizers), in two processes (with address-space
# randomisation on, GiNaC's internal order of terms differs between processes, so this also catches
# output that depends on it; a second run of GENERATOR_A would add nothing for that, the run of
# GENERATOR_B being another process too). Compares the headers byte for byte, and where the
# generator refuses a combination, its exit status and message.
# Usage: reproducible_generation.sh [--all] GENERATOR_A GENERATOR_B SOURCE_DIR WORK_DIR
set -euo pipefail
dirs=(models)
if [ "${1:-}" = --all ]; then dirs=(models tests/models/valid tests/models/schemes); shift; fi
[ $# -eq 4 ] || { echo "usage: $0 [--all] GENERATOR_A GENERATOR_B SOURCE_DIR WORK_DIR" >&2; exit 2; }
gen_a="$(realpath "$1")" gen_b="$(realpath "$2")" source_dir="$3" work="$4"
for g in "$gen_a" "$gen_b"; do [ -x "$g" ] || { echo "no generator at $g (build first)" >&2; exit 2; }; done
if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 0)" = 0 ]; then
  echo "note: address-space randomisation is off on this machine: the two runs of GENERATOR_A share one layout" >&2
fi
rm -rf "$work" && mkdir -p "$work"
work="$(realpath "$work")"
cd "$source_dir"

# The schemes, as the generator lists them when refusing an unknown one.
known="$("$gen_a" generate models/dc_motor.yaml --scheme '?' -o "$work/none" 2>&1 || true)"
read -r -a schemes <<<"$(sed -n 's/.*(known: \([^)]*\)).*/\1/p' <<<"$known")"
[ ${#schemes[@]} -ge 5 ] || { echo "could not read the scheme list from: $known" >&2; exit 2; }

cases=()
for dir in "${dirs[@]}"; do
  for model in "$dir"/*.yaml; do
    for scheme in "${schemes[@]}"; do cases+=("$model|--scheme $scheme --allow-unstable"); done
    cases+=("$model|--scalar float --allow-unstable" "$model|--jacobian --allow-unstable")
  done
done

# One case, one generator, one output directory: the header, or the refusal.
generate() {
  local gen="$1" model="$2" options="$3" out="$4" status=0
  mkdir -p "$out"
  # shellcheck disable=SC2086
  "$gen" generate "$model" $options -o "$out" >/dev/null 2>"$out/stderr" || status=$?
  echo "$status" >"$out/status"
  # The output directory's name is in some messages; the same for both runs.
  sed -i "s|$out|OUT|g" "$out/stderr"
}
export -f generate

index=0
for c in "${cases[@]}"; do
  printf '%s\0%s\0%s\0' "$index" "${c%%|*}" "${c#*|}"
  index=$((index + 1))
done | xargs -0 -n 3 -P "$(nproc)" bash -c '
  generate '"$gen_a"' "$1" "$2" '"$work"'/$0/out
  generate '"$gen_b"' "$1" "$2" '"$work"'/$0/b
  if ! diff -r '"$work"'/$0/out '"$work"'/$0/b >/dev/null; then
    echo "$1 $2" >'"$work"'/$0/differs
  fi'

headers=$(find "$work" -path '*/out/*.hpp' | wc -l)
refused=$(grep -L '^0$' "$work"/*/out/status | wc -l)
differing=$(find "$work" -name differs | wc -l)
echo "${#cases[@]} model x option cases, 2 runs each: $headers headers, $refused refused; $differing differ"
if [ "$differing" -ne 0 ]; then
  echo "differing (see $work/<case>/{out,b}):" >&2
  for f in $(find "$work" -name differs); do echo "  case $(basename "$(dirname "$f")"): $(cat "$f")" >&2; done
  exit 1
fi
