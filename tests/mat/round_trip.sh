#!/usr/bin/env bash
# simulate -o X.mat against simulate -o X.csv, read by a reader that is not matio
# (scipy.io.loadmat, check_mat.py), on a model with slow and fast states and outputs; and two
# runs of the .mat give the same bytes. Debian's /usr/bin/python3, where scripts/deps installs
# python3-scipy (a python3 earlier on PATH may lack it).
# Usage: round_trip.sh DUALRATE SOURCE_DIR WORK_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DUALRATE SOURCE_DIR WORK_DIR" >&2; exit 2; }
dualrate="$1" source_dir="$2" work="$3"
python=/usr/bin/python3
"$python" -c 'import scipy.io' || { echo "$python has no scipy (scripts/deps installs python3-scipy)" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work"
model="$source_dir/models/dc_motor.yaml"

"$dualrate" simulate "$model" -o "$work/trace.csv"
"$dualrate" simulate "$model" -o "$work/trace.mat"
sleep 1  # a header with the time of day (matio's default) would differ
"$dualrate" simulate "$model" -o "$work/again.mat"
cmp "$work/trace.mat" "$work/again.mat"
"$python" "$source_dir/tests/mat/check_mat.py" "$work/trace.mat" "$work/trace.csv"
echo "$(stat -c %s "$work/trace.mat") bytes, same in two runs"
