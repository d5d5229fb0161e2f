#!/usr/bin/python3
"""Checks the address and size of every object of an A2L file against the program's symbol table.

OBJECTS: check_a2l.py --objects of the A2L file (KIND NAME ADDRESS BYTES); NM: `nm -S -C` of the
program; EXPECTED: each A2L object's symbol, offset and size (tests/a2l/motor_objects.txt says how).
Every object must be expected and every expected object present, at symbol + offset, with its size,
within the symbol. Usage: check_addresses.py OBJECTS NM EXPECTED; exit 1 on any difference.
"""
import sys


def symbols(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        parts = line.split(None, 3)
        if len(parts) == 4:
            out[parts[3].strip()] = (int(parts[0], 16), int(parts[1], 16))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check_addresses.py OBJECTS NM EXPECTED")
    objects = {}
    for line in open(sys.argv[1], encoding="utf-8"):
        _, name, address, size = line.split()
        objects[name] = (int(address, 16), int(size))
    table = symbols(sys.argv[2])
    expected = [line.split() for line in open(sys.argv[3], encoding="utf-8") if line.strip() and line[0] != "#"]
    problems = []
    scalar_symbol, values = expected[0][1], int(expected[0][2])
    scalar = table[scalar_symbol][1] // values if scalar_symbol in table else 0

    def bytes_of(text, whole):
        if text == "*":
            return whole
        return int(text[:-1]) * scalar if text.endswith("s") else int(text)

    for name, symbol, offset, size in expected[1:]:
        if symbol not in table:
            problems.append(f"{name}: no symbol {symbol} in the program")
            continue
        base, whole = table[symbol]
        want = (base + bytes_of(offset, whole), bytes_of(size, whole))
        got = objects.pop(name, None)
        if got != want:
            problems.append(f"{name}: the A2L file gives {got}, {symbol} + {offset} of {size} is {want} (address, "
                            f"bytes)")
        elif want[0] + want[1] > base + whole:
            problems.append(f"{name}: ends beyond {symbol} ({whole} bytes)")
    problems += [f"{name}: in the A2L file, not expected" for name in objects]
    for p in problems:
        print(p)
    if not problems:
        print(f"{len(expected) - 1} objects at their symbols' addresses, sizeof(Scalar) {scalar}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
