#!/usr/bin/python3
"""The A2L checker (check_a2l.py) against broken files: a valid A2L file of motor.yaml's program
must pass, and each mutation of it below must fail with its message.
Usage: check_a2l_test.py VALID.a2l; exit 1 when the valid file fails or a mutant passes.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_a2l  # noqa: E402


def first_block(text, name):
    match = re.search(rf"\n( *)/begin CHARACTERISTIC {name} .*?/end CHARACTERISTIC\n", text, re.S)
    return match.group(0)


MUTATIONS = [
    ("a missing /end", lambda t: t.replace("    /end CHARACTERISTIC\n", "", 1), "not a block of CHARACTERISTIC"),
    ("a missing /end at the end", lambda t: t.replace("/end PROJECT\n", ""), "unexpected end of file"),
    ("an /end of another block", lambda t: t.replace("/end MEASUREMENT", "/end CHARACTERISTIC", 1),
     "/end CHARACTERISTIC closes /begin MEASUREMENT"),
    ("a dangling conversion", lambda t: t.replace("COMPU_METHOD CM_ohm ", "COMPU_METHOD CM_Ohm ", 1),
     "conversion CM_ohm is not a COMPU_METHOD"),
    ("a dangling record layout",
     lambda t: t.replace("/begin RECORD_LAYOUT RL_ARRAY_", "/begin RECORD_LAYOUT RL_ARR_", 1),
     "is not a RECORD_LAYOUT"),
    ("a dangling input quantity", lambda t: t.replace("NO_INPUT_QUANTITY", "omega_missing", 1),
     "input quantity omega_missing is not defined"),
    ("a duplicate CHARACTERISTIC", lambda t: t.replace(first_block(t, "R"), first_block(t, "R") * 2, 1),
     "R is defined twice"),
    ("a MEASUREMENT named as a CHARACTERISTIC", lambda t: t.replace("MEASUREMENT omega ", "MEASUREMENT Kt ", 1),
     "Kt is defined twice"),
    ("a duplicate COMPU_METHOD", lambda t: t.replace("COMPU_METHOD CM_ohm ", "COMPU_METHOD CM_IDENTICAL ", 1),
     "COMPU_METHOD CM_IDENTICAL is defined twice"),
    ("lower limit above upper", lambda t: re.sub(r"(VALUE \S+ \S+ 0 CM_ohm) 0.5 2", r"\1 2 0.5", t),
     "lower limit 2 > upper limit 0.5"),
    ("another ASAP2 version", lambda t: t.replace("ASAP2_VERSION 1 71", "ASAP2_VERSION 1 60"), "expected 1 71"),
    ("an identifier that is not one", lambda t: t.replace("MEASUREMENT omega ", "MEASUREMENT 1omega ", 1),
     "'1omega' is not an identifier"),
    ("a missing positional field", lambda t: re.sub(r"( -\S+) \S+(\n\s+ECU_ADDRESS)", r"\1\2", t, count=1),
     "expected a number (float), found 'ECU_ADDRESS'"),
    ("an unknown keyword", lambda t: t.replace("BYTE_ORDER MSB_LAST", "BYTE_ORDER MSB_LAST\n      SPEED 3"),
     "'SPEED' is not a keyword of MOD_COMMON"),
    ("an axis point short", lambda t: t.replace(" 0 100 200 400\n", " 0 100 400\n"),
     "3 axis points, MaxAxisPoints is 4"),
    ("axis points not increasing", lambda t: t.replace(" 0 100 200 400\n", " 0 200 100 400\n"), "do not increase"),
    ("a CURVE without its axis",
     lambda t: re.sub(r"\n *\/begin AXIS_DESCR.*?/end AXIS_DESCR", "", t, count=1, flags=re.S),
     "a CURVE has 1 AXIS_DESCR, found 0"),
    ("a string not closed", lambda t: re.sub(r'(EPK "[^"\n]*)"\n', r'\1\n', t, count=1), "string not closed"),
    ("a verbal conversion without its table",
     lambda t: t.replace("COMPU_TAB_REF CM_CALIBRATION_RESULT_TABLE", "COMPU_TAB_REF CM_RESULT_TABLE", 1),
     "COMPU_TAB_REF CM_RESULT_TABLE is not a COMPU_VTAB"),
    ("a verbal table a pair short", lambda t: re.sub(r'\n *1 "a computed set waits for the step"', "", t, count=1),
     "7 pairs, NumberValuePairs is 8"),
    ("a verbal table's input value twice", lambda t: t.replace('  1 "a computed set', '  0 "a computed set', 1),
     "an input value is given twice"),
    ("a CHARACTERISTIC outside the memory segment",
     lambda t: re.sub(r"(MEMORY_SEGMENT CALIBRATION_RAM .* INTERN \S+) 0x[0-9A-F]+ ", r"\1 0x4 ", t, count=1),
     "lies outside every MEMORY_SEGMENT"),
    ("a display format that is not one", lambda t: t.replace('FORMAT "%', 'FORMAT "', 1), "is not %Length.Layout"),
    ("an EPK without its address", lambda t: re.sub(r"\n *ADDR_EPK \S+", "", t), "EPK and ADDR_EPK go together"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_a2l_test.py VALID.a2l")
    valid = open(sys.argv[1], encoding="utf-8").read()
    problems, _ = check_a2l.check(valid)
    failures = [f"the valid file fails: {problems}"] if problems else []
    for what, mutate, message in MUTATIONS:
        mutant = mutate(valid)
        if mutant == valid:
            failures.append(f"{what}: the mutation does not apply to {sys.argv[1]}")
            continue
        problems, _ = check_a2l.check(mutant)
        if not any(message in p[1] for p in problems):
            failures.append(f"{what}: expected a problem with '{message}', found {problems}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"the valid file passes; {len(MUTATIONS)} mutants fail, each with its message")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
