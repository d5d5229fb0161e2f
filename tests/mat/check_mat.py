"""Checks a MAT-file from `dualrate simulate -o X.mat` against the CSV of the same run.

The MAT-file must be version 5 with the fixed header text (no date), hold exactly the CSV's
columns in the CSV's order, each a double column vector with as many rows as the CSV, with
the same values bit for bit: the CSV prints 17 significant digits, which identify a double
exactly, and Python's float() rounds correctly, so the tolerance is zero.
Usage: check_mat.py TRACE.mat TRACE.csv
"""
import csv
import re
import sys

import numpy as np
import scipy.io


def fail(message):
    print(f"check_mat: {message}", file=sys.stderr)
    sys.exit(1)


def main(mat_path, csv_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    columns, values = rows[0], np.array([[float(v) for v in row] for row in rows[1:]], dtype=np.float64)

    with open(mat_path, "rb") as f:
        header = f.read(128)
    text = header[:116]
    if not re.fullmatch(rb"MATLAB 5\.0 MAT-file, Created by: dualrate [0-9]+(\.[0-9]+)*\0 *", text):
        fail(f"header text {text!r} is not the fixed one")
    if scipy.io.matlab.matfile_version(mat_path) != (1, 0):
        fail(f"not a MAT 5 file: version {scipy.io.matlab.matfile_version(mat_path)}")

    mat = scipy.io.loadmat(mat_path)
    names = [k for k in mat if not (k.startswith("__") and k.endswith("__"))]
    if names != columns:
        fail(f"variables {names}, CSV columns {columns}")
    for i, name in enumerate(columns):
        v = mat[name]
        if v.dtype != np.float64 or v.shape != (values.shape[0], 1):
            fail(f"{name}: {v.dtype} {v.shape}, expected float64 ({values.shape[0]}, 1)")
        differ = np.flatnonzero(v[:, 0].view(np.uint64) != values[:, i].view(np.uint64))
        if differ.size:
            r = differ[0]
            fail(f"{name}: {differ.size} values differ from the CSV's, first at row {r + 1}: "
                 f"{v[r, 0]!r} against {values[r, i]!r}")
    print(f"check_mat: {len(columns)} variables ({', '.join(columns)}) x {values.shape[0]} rows equal to the CSV bit for bit")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        fail("usage: check_mat.py TRACE.mat TRACE.csv")
    main(sys.argv[1], sys.argv[2])
