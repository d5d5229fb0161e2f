#!/usr/bin/python3
"""Mutation testing of `dualrate verify`: plants plausible defects in generated headers and
counts how many verify catches (issue 34).

For each model and scalar: generate the header under the model's own scheme, verify it as it
is (the baseline), then verify each mutant with `verify --header`. A mutant whose verify result
(max_error, local_max_error, error) equals the baseline's is equivalent (the defect does not
change what verify sees: a table cell the trajectory never visits) and left out; one that does
not compile is stillborn and left out; the others are caught (verify fails) or survive (verify
passes). The kinds of defect, each applied to every identical line of the header (an equation
appears in derivatives(), slow_derivatives() and fast_derivatives() alike):
  param+1%, param+0.1%  a model parameter off by 1% or 0.1% (a tunable one in every copy of the
                        calibration data)
  digits                a model parameter rounded to 4 significant digits
  step+0.1%             the step kStep off by 0.1%
  flip                  a subtracted term of an equation added (or a negation dropped)
  drop                  a subtracted term of an equation dropped
  index                 a state read from the wrong index (x_[i] for x_[i+1] or x_[i-1])
  table+1%, table+0.1%  a value of a lookup table off by 1% or 0.1% (of a tunable table, its
                        middle value in every copy of the calibration data)
  output+0.1%           an output equation off by 0.1%
  constant+0.1%         one entry of each precomputed matrix of the scheme off by 0.1% (a wrong
                        exponential or phi-function): the first nonzero of each constant
                        function (sp_ll's, quasistatic's) and of each scheduled array; and
                        of what recalibrate() recomputes on the target after a calibration
                        write: the first nonzero literal of each matrix it assembles, and
                        each exponential's step

Usage: mutate.py CLI SOURCE_DIR WORK_DIR [--models M ...] [--scalars float double]
                 [--scheme S | --all-schemes] [--alternate-scalars] [--sample N] [--seed S]
                 [--min-score P] [--pooled] [--table FILE] [--kinds K ...]
--scheme: every model under scheme S instead of its own; --all-schemes: under every scheme it
accepts (a model x scheme that generate refuses is listed as refused, not scored). The dual-rate
task forms are verified with their sequential executive only (--tasks single). --kinds: only
these kinds of defect (the issue 52 criterion: param+0.1% output+0.1% constant+0.1% table+0.1%).
With --table the table is rewritten after each model x scalar x scheme, marked partial until
the last, so a long run stopped early keeps what it measured.
Prints a table (markdown) of the scores and the surviving mutants; exits 1 when a model's
score (caught / non-equivalent) is below --min-score (percent), or with --pooled when the score
over all models is (a sample of a few mutants per model gives each model's score in steps too
coarse to hold to a percentage: the CTest mutation.sampled), or when a model has no baseline;
2 on a usage or setup error.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys

PARAM = re.compile(r"^(  static constexpr Scalar (\w+) = )(-?)Scalar\(([^)]+)\);(.*)$")
STEP = re.compile(r"^(constexpr Model::Scalar kStep = Model::Scalar\()([^)]+)(\);.*)$")
EQUATION = re.compile(r"^    (dxdt_\[\d+\]|const Scalar \w+) = (.*);(  //.*)?$")
OUTPUT = re.compile(r"^    (y_\[\d+\]) = (.*);(  //.*)?$")
CONSTANT_ROW = re.compile(r"^    r_\[\d+\] = ")
# The generated Model's own functions; any other function of a header holds a scheme's constants.
MODEL_FUNCTIONS = ("derivatives", "slow_derivatives", "fast_derivatives", "outputs", "scenario_inputs",
                   "initial_state", "default_inputs", "schedule")
KINDS = ("param+1%", "param+0.1%", "digits", "step+0.1%", "flip", "drop", "index", "table+1%", "table+0.1%",
         "output+0.1%", "constant+0.1%")
SCHEMES = ("euler", "rk2", "rk4", "prk25", "sp_ll", "smfe", "quasistatic", "mrabm4", "mrabm4_parallel")
STATE_READ = re.compile(r"^    const Scalar (\w+) = x_\[(\d+)\];$")
# A tunable parameter's value in the calibration data (`    float(20),  // Kp`).
TUNABLE_VALUE = re.compile(r"^( +)(double|float)\(([^)]+)\),  // (\w+)$", re.M)
# A tunable table's values there (`    {float(1), -float(2)},  // MAP`), and one of them.
TUNABLE_TABLE = re.compile(r"^( +)\{(.*)\},  // (\w+)$", re.M)
TUNABLE_CELL = re.compile(r"(-?)(double|float)\(([^)]+)\)")
# An entry of a matrix recalibrate() assembles, or an exponential's step there: the literals
# of the constants the target recomputes after a calibration write.
RECOMPUTED = re.compile(r"^  (\w+_)\(\d+, \d+\) = |^  if \(!dualrate::expm::checked_phi_blocks<\d+, \d+>\((\w+_)")
TABLE_VALUE = re.compile(r"(-?)Scalar\((0x[0-9a-fp.+-]+|[0-9.eE+-]+)\)")


def number(text):
    return float.fromhex(text) if "0x" in text else float(text)


def subtracted_terms(expr):
    """(start, end) of each ' - term' at any depth: the term runs to the next ' + ', ' - ' or
    closing bracket at its own depth."""
    spans = []
    for m in re.finditer(r" - ", expr):
        depth, end = 0, m.end()
        while end < len(expr):
            c = expr[end]
            if c in "([":
                depth += 1
            elif c in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and expr.startswith((" + ", " - "), end):
                break
            elif depth == 0 and c == ",":
                break
            end += 1
        spans.append((m.start(), end))
    return spans


def mutants(header):
    """(kind, description, mutated header) for every mutant of `header`."""
    lines = header.split("\n")
    found, seen = [], set()

    def add(kind, what, text):
        if text != header and text not in seen:
            seen.add(text)
            found.append((kind, what, text))

    def replace_all(old, new, kind, what):
        add(kind, what, "\n".join(new if line == old else line for line in lines))

    def by_name(pattern, group, name, rewrite):
        """header with every match of pattern whose `group` is name rewritten, the others kept."""
        return pattern.sub(lambda m: rewrite(m) if m.group(group) == name else m.group(0), header)

    def scaled_literal(line, factor, nonzero_from=0):
        """line with its first nonzero Scalar literal (at or after nonzero_from) times factor, and that value."""
        for c in TABLE_VALUE.finditer(line, nonzero_from):
            value = number(c.group(2)) * (-1 if c.group(1) else 1)
            if value != 0:
                return line[:c.start()] + f"Scalar({value * factor!r})" + line[c.end():], value
        return None, 0

    def middle_scaled(m, factor):
        """A tunable table's line with its middle value times factor."""
        cells = list(TUNABLE_CELL.finditer(m.group(2)))
        c = cells[len(cells) // 2]
        value = number(c.group(3)) * (-1 if c.group(1) else 1)
        body = m.group(2)[:c.start()] + f"{c.group(2)}({value * factor!r})" + m.group(2)[c.end():]
        return f"{m.group(1)}{{{body}}},  // {m.group(3)}"

    # A tunable parameter's value stands in each copy of the calibration data (the values a tool
    # writes, the active constants, the values last checked): all copies off alike. A tunable
    # table's values likewise: the middle one of every copy.
    for name in dict.fromkeys(m.group(4) for m in TUNABLE_VALUE.finditer(header)):
        for factor, kind in ((1.01, "param+1%"), (1.001, "param+0.1%")):
            add(kind, f"{name} (tunable)", by_name(
                TUNABLE_VALUE, 4, name,
                lambda m: f"{m.group(1)}{m.group(2)}({number(m.group(3)) * factor!r}),  // {m.group(4)}"))
    for name in dict.fromkeys(m.group(3) for m in TUNABLE_TABLE.finditer(header)):
        for factor, kind in ((1.01, "table+1%"), (1.001, "table+0.1%")):
            add(kind, f"{name} (tunable): its middle value",
                by_name(TUNABLE_TABLE, 3, name, lambda m: middle_scaled(m, factor)))

    in_model_data = in_points = in_recalibrate = False
    recomputed = set()
    states = 0
    function = ""
    mutated_functions = set()
    for line in lines:
        m = re.match(r"^  static [\w:<>, ]+ (\w+)\(", line)
        if m:
            function = m.group(1)
        in_equations = function in ("derivatives", "slow_derivatives", "fast_derivatives")
        if line.startswith("  static constexpr std::array<const char*, kStates> state_names{{"):
            states = line.count('"') // 2
        m = PARAM.match(line)
        if m and not m.group(2).endswith("_") and len(re.findall(rf"\b{m.group(2)}\b", header)) > 1:
            value = number(m.group(4)) * (-1 if m.group(3) else 1)
            name = m.group(2)
            for factor, kind in ((1.01, "param+1%"), (1.001, "param+0.1%")):
                replace_all(line, f"{m.group(1)}Scalar({value * factor!r});{m.group(5)}", kind, name)
            rounded = float(f"{value:.4g}")
            if rounded != value:
                replace_all(line, f"{m.group(1)}Scalar({rounded!r});{m.group(5)}", "digits", f"{name} = {rounded!r}")
        m = STEP.match(line)
        if m:
            replace_all(line, f"{m.group(1)}{number(m.group(2)) * 1.001!r}{m.group(3)}", "step+0.1%", "kStep")
        m = EQUATION.match(line) if in_equations else None
        if m and "x_[" not in m.group(2):
            lhs, expr = m.group(1), m.group(2)
            for start, end in subtracted_terms(expr):
                term = expr[start + 3:end]
                replace_all(line, line.replace(expr, expr[:start] + " + " + expr[start + 3:], 1), "flip",
                            f"{lhs}: - {term}")
                replace_all(line, line.replace(expr, expr[:start] + expr[end:], 1), "drop", f"{lhs}: - {term}")
            if expr.startswith("-"):
                replace_all(line, line.replace(" = " + expr, " = " + expr[1:], 1), "flip", f"{lhs}: leading -")
        m = OUTPUT.match(line) if function == "outputs" else None
        if m:
            replace_all(line, line.replace(f" = {m.group(2)};", f" = Scalar(1.001)*({m.group(2)});", 1),
                        "output+0.1%", m.group(1))
        if (function and function not in MODEL_FUNCTIONS and function not in mutated_functions and
                CONSTANT_ROW.match(line)):
            new, value = scaled_literal(line, 1.001)
            if new:
                mutated_functions.add(function)
                replace_all(line, new, "constant+0.1%", f"{function}: {value:.6g}")
        if line.startswith("[[nodiscard]] inline dualrate::calibration::Status recalibrate("):
            in_recalibrate = True
        elif in_recalibrate and line == "}":
            in_recalibrate = False
        m = RECOMPUTED.match(line) if in_recalibrate else None
        what = m and (m.group(1) or f"the exponential of {m.group(2)}")
        if m and what not in recomputed:
            new, value = scaled_literal(line, 1.001, m.end())
            if new:
                recomputed.add(what)
                replace_all(line, new, "constant+0.1%", f"recalibrate: {what} {value:.6g}")
        if "_points_[" in line and "constexpr" in line:
            in_points = line.split("static constexpr Scalar ")[-1].split("[")[0]
            continue
        if in_points:
            new, value = scaled_literal(line, 1.001)
            if new:
                replace_all(line, new, "constant+0.1%", f"{in_points}: {value:.6g}")
                in_points = False
            elif line.strip() == "};":
                in_points = False
        m = STATE_READ.match(line) if in_equations else None
        if m and states > 1:
            i = int(m.group(2))
            j = i + 1 if i + 1 < states else i - 1
            replace_all(line, line.replace(f"x_[{i}]", f"x_[{j}]"), "index", f"{m.group(1)} = x_[{j}]")
        if "_values_[" in line and "constexpr" in line:
            in_model_data = True
            continue
        if in_model_data:
            if line.strip() == "};":
                in_model_data = False
                continue
            cells = list(TABLE_VALUE.finditer(line))
            if cells:
                c = cells[len(cells) // 2]
                value = number(c.group(2)) * (-1 if c.group(1) else 1)
                if value != 0:
                    for factor, kind in ((1.01, "table+1%"), (1.001, "table+0.1%")):
                        new = line[:c.start()] + f"Scalar({value * factor!r})" + line[c.end():]
                        replace_all(line, new, kind, f"a value {value:.6g} -> {value * factor:.6g}")
    return found


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def scheme_options(scheme):
    if not scheme:
        return []
    return ["--scheme", scheme] + (["--tasks", "single"] if scheme.startswith("mrabm4") else [])


def verify(cli, model, scalar, header, scheme):
    code, out = run([cli, "verify", model, "--scalar", scalar, "--header", header, "--json"] + scheme_options(scheme))
    start = out.find("{")
    if start < 0:
        return {"error": out.strip()[:300], "exit": code}
    result = json.loads(out[start:out.rfind("}") + 1])
    result["exit"] = code
    return result


def signature(r):
    return (r.get("max_error"), r.get("local_max_error"), r.get("error", ""), r.get("output_max_error"),
            r.get("output_differing"), r.get("output_local_error"))


def model_score(cli, model, scalar, work, sample, seed, jobs, scheme, refusable=False, kinds=None):
    """The scores of one model, scalar and scheme (None: the model's own); with `refusable` a
    header that generate refuses is a refusal, not an error."""
    name = os.path.splitext(os.path.basename(model))[0]
    out = os.path.join(work, f"{name}-{scalar}-{scheme or 'own'}")
    os.makedirs(out, exist_ok=True)
    code, text = run([cli, "generate", model, "--scalar", scalar, "-o", out] + scheme_options(scheme)[:2])
    if code != 0:
        why = "refused" if refusable else "error"
        return {"model": name, "scalar": scalar, "scheme": scheme, why: text.strip()[:300]}
    header_name = [f for f in os.listdir(out) if f.endswith(".hpp")][0]
    header = open(os.path.join(out, header_name)).read()
    baseline = verify(cli, model, scalar, os.path.join(out, header_name), scheme)
    if not baseline.get("pass"):
        return {"model": name, "scalar": scalar, "error": "the header as generated fails: " + json.dumps(baseline)[:300]}
    all_mutants = [m for m in mutants(header) if not kinds or m[0] in kinds]
    chosen = all_mutants
    if sample and len(all_mutants) > sample:
        chosen = random.Random(f"{seed}:{name}:{scalar}").sample(all_mutants, sample)

    def one(index):
        kind, what, text = chosen[index]
        directory = os.path.join(out, f"mutant{index}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, header_name)
        with open(path, "w") as f:
            f.write(text)
        return kind, what, verify(cli, model, scalar, path, scheme)

    rows = {"model": name, "scalar": scalar, "scheme": baseline.get("scheme"), "mutants": len(all_mutants),
            "run": len(chosen), "equivalent": 0, "stillborn": [], "caught": 0, "survivors": []}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for kind, what, r in pool.map(one, range(len(chosen))):
            if "did not compile" in r.get("error", "") or "max_error" not in r:
                rows["stillborn"].append(f"{kind} {what}: {r.get('error', '')[:160]}")
            elif signature(r) == signature(baseline):
                rows["equivalent"] += 1
            elif r.get("pass"):
                rows["survivors"].append(f"{kind} {what} (max_error {r.get('max_error', 0):.3g} of "
                                         f"{r.get('tolerance', 0):.3g}, local {r.get('local_ratio', -1):.3g})")
            else:
                rows["caught"] += 1
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cli")
    parser.add_argument("source_dir")
    parser.add_argument("work_dir")
    parser.add_argument("--models", nargs="*")
    parser.add_argument("--scalars", nargs="*", default=["float", "double"])
    parser.add_argument("--scheme", help="every model under this scheme instead of its own")
    parser.add_argument("--all-schemes", action="store_true", help="every model under every scheme it accepts")
    parser.add_argument("--alternate-scalars", action="store_true",
                        help="each model in one of --scalars, taken in turn in the models' order")
    parser.add_argument("--sample", type=int, default=0, help="mutants per model and scalar (0: all)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--min-score", type=float, default=90)
    parser.add_argument("--pooled", action="store_true", help="hold the score over all models to --min-score")
    parser.add_argument("--table", help="also write the table here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--kinds", nargs="*", choices=KINDS, help="only these kinds of defect (default: all)")
    a = parser.parse_args()
    models_dir = os.path.join(a.source_dir, "models")
    names = a.models or sorted(f[:-5] for f in os.listdir(models_dir) if f.endswith(".yaml"))
    lines = ["| model | scheme | scalar | mutants (run) | equivalent | stillborn | caught | survived | score |",
             "|---|---|---|---|---|---|---|---|---|"]
    survivors, stillborn, failing = [], [], []
    totals = {scalar: [0, 0] for scalar in a.scalars}  # caught, live
    schemes = SCHEMES if a.all_schemes else (a.scheme,)
    runs = [(name, scalar, scheme) for i, name in enumerate(names) for scheme in schemes
            for scalar in ([a.scalars[i % len(a.scalars)]] if a.alternate_scalars else a.scalars)]
    refused = []

    def score_of(run):
        name, scalar, scheme = run
        # With --pooled (a few mutants each) the models run side by side, each on one job.
        return model_score(a.cli, os.path.join(models_dir, name + ".yaml"), scalar, a.work_dir, a.sample, a.seed,
                           1 if a.pooled else a.jobs, scheme, a.all_schemes, a.kinds)

    def table(done):
        caught_all, live_all = (sum(t[k] for t in totals.values()) for k in (0, 1))
        pooled = 100.0 * caught_all / live_all if live_all else 100.0
        alls = [f"| all | | {scalar} | | | | {c} | {live - c} | {100.0 * c / live if live else 100.0:.1f}% |"
                for scalar, (c, live) in totals.items() if live]
        text = "\n".join(lines + alls) + "\n"
        if done < len(runs):
            text = f"Partial: {done} of {len(runs)} model x scalar x scheme runs.\n\n" + text
        if survivors:
            text += "\nSurvivors (verify passed them):\n" + "".join(f"- {s}\n" for s in survivors)
        if stillborn:
            text += "\nStillborn (no verify result):\n" + "".join(f"- {s}\n" for s in stillborn)
        if refused:
            text += "\nRefused by generate (not scored):\n" + "".join(f"- {s}\n" for s in refused)
        return text, pooled

    with concurrent.futures.ThreadPoolExecutor(a.jobs if a.pooled else 1) as pool:
        for done, ((name, scalar, scheme), r) in enumerate(zip(runs, pool.map(score_of, runs)), 1):
            if "refused" in r:
                said = r["refused"].splitlines()
                why = next((line for line in said if ": error: " in line), said[0])  # not a note before it
                refused.append(f"{name} {scheme} {scalar}: {why[:160]}")
            elif "error" in r:
                lines.append(f"| {name} | {scheme or ''} | {scalar} | error: {r['error'][:120]} | | | | | |")
                failing.append(f"{name} {scalar}")
            else:
                live = r["caught"] + len(r["survivors"])
                score = 100.0 * r["caught"] / live if live else 100.0
                lines.append(f"| {name} | {r['scheme']} | {scalar} | {r['mutants']} ({r['run']}) | {r['equivalent']} | "
                             f"{len(r['stillborn'])} | {r['caught']} | {len(r['survivors'])} | {score:.0f}% |")
                survivors += [f"{name} {r['scheme']} {scalar}: {s}" for s in r["survivors"]]
                stillborn += [f"{name} {r['scheme']} {scalar}: {s}" for s in r["stillborn"]]
                totals[scalar][0] += r["caught"]
                totals[scalar][1] += live
                if score < a.min_score and not a.pooled:
                    failing.append(f"{name} {scalar} ({score:.0f}%)")
            print(lines[-1] if "refused" not in r else f"refused: {refused[-1]}", flush=True)
            if a.table:
                with open(a.table, "w") as f:
                    f.write(table(done)[0])
    text, pooled = table(len(runs))
    if a.pooled and pooled < a.min_score:
        failing.append(f"all models ({pooled:.1f}%)")
    print("\n" + text)
    if failing:
        print(f"below {a.min_score:.0f}%: " + ", ".join(failing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
