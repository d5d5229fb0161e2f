#!/usr/bin/env bash
# CTest (label qemu): verify --report for the pendulum on cortex-m4f, loaded in headless
# chromium: it must render (the verdict and one SVG plot per state plus the error plot in the
# DOM), log nothing to the console, fetch nothing, and its screenshot is kept (path printed);
# report.mat beside it holds the plotted data (read by scipy).
# The console check is shown to work first, on a page whose script fails (the report has no
# script; chromium's log carries console messages, not failed loads, which the check for
# references below covers).
# Usage: report.sh CLI SOURCE_DIR WORK
set -euo pipefail
cli=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "report.sh: $*" >&2; exit 1; }
browse() {  # URL-FILE MODE [ARGS]: chromium headless, its log on stderr
  local page=$1
  shift
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0 \
    --user-data-dir="$work/profile" "$@" "file://$page"
}

# The console check can fail: an uncaught error is logged.
echo '<!DOCTYPE html><html><body><script>undefined_function();</script></body></html>' >"$work/canary.html"
browse "$work/canary.html" --dump-dom 2>"$work/canary.log" >/dev/null || true
grep -q "CONSOLE.*undefined_function" "$work/canary.log" ||
  fail "chromium logged no console message for an uncaught error: the check below would see nothing"

"$cli" verify "$src/models/pendulum_particle.yaml" --target cortex-m4f --report "$work/report" | head -1
page=$work/report/report.html
[ -s "$page" ] || fail "no report written"
# Only references inside the page (gnuplot's SVG reuses its point shapes: href='#gpPt3').
if grep -Eq "(src|href)=[\"'][^#]" "$page"; then fail "the page loads something (src or href): it must be self-contained"; fi

browse "$page" --dump-dom 2>"$work/dom.log" >"$work/dom.html"
if grep "CONSOLE" "$work/dom.log"; then fail "the page logged console messages"; fi
grep -q 'class="verdict pass">PASS' "$work/dom.html" || fail "the rendered page has no PASS verdict"
plots=$(grep -o "<svg" "$work/dom.html" | wc -l)
[ "$plots" -eq 8 ] || fail "expected 8 plots (6 states, the error and the local check), found $plots"
for heading in "Model" "Scheme and options" "Analysis at the initial state" "Results on cortex-m4f" "Error over time" \
               "Local check over time" "States over time" "Model source"; do
  grep -q "<h2>$heading</h2>" "$work/dom.html" || fail "the rendered page lacks the section $heading"
done

# The plotted data, read back by scipy (not matio): every state of all three traces.
/usr/bin/python3 - "$work/report/report.mat" <<'PY'
import sys
import scipy.io
data = scipy.io.loadmat(sys.argv[1])
states = ["theta", "omega", "px", "py", "vx", "vy"]
names = ["t"] + [p + s for p in ("generated_", "reference_", "accurate_") for s in states]
missing = [n for n in names if n not in data]
assert not missing, f"report.mat lacks {missing}"
rows = data["t"].shape
assert all(data[n].shape == rows for n in names) and rows[1] == 1 and rows[0] > 1000, rows
PY
browse "$page" --window-size=1100,4200 --screenshot="$work/report.png" 2>/dev/null >/dev/null
[ -s "$work/report.png" ] || fail "no screenshot"
echo "screenshot: $work/report.png ($(stat -c %s "$work/report.png") bytes), page: $page ($(stat -c %s "$page") bytes)"
