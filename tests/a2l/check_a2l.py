#!/usr/bin/python3
"""Checks an A2L file against the ASAM MCD-2 MC (ASAP2) 1.71 grammar, for the blocks dualrate writes.

Reads the file into tokens (strings, identifiers, numbers, /begin, /end; comments skipped), parses
ASAP2_VERSION and the PROJECT block with the positional fields and optional keywords of PROJECT,
HEADER, MODULE, MOD_COMMON, MOD_PAR, MEMORY_SEGMENT, COMPU_METHOD, COMPU_VTAB, RECORD_LAYOUT, CHARACTERISTIC,
AXIS_DESCR, FIX_AXIS_PAR_LIST and MEASUREMENT (IF_DATA and A2ML are skipped whole; any other block or keyword
is an error), then checks: ASAP2_VERSION 1 71; identifier syntax; names unique (CHARACTERISTIC,
MEASUREMENT and AXIS_PTS share one name space, COMPU_METHOD and RECORD_LAYOUT have their own);
every reference resolves (a CHARACTERISTIC's record layout and conversion, a MEASUREMENT's and an
AXIS_DESCR's conversion and input quantity, a verbal conversion's COMPU_VTAB); a COMPU_VTAB has the
number of pairs it states, each input value once; lower limit <= upper limit; a CHARACTERISTIC has the
axes its type needs (VALUE 0, CURVE 1, MAP 2, VAL_BLK 0 with NUMBER or MATRIX_DIM); a fixed axis
lists MaxAxisPoints strictly increasing points within its limits; EPK and ADDR_EPK go together;
a FORMAT is %Length.Layout; where MEMORY_SEGMENTs are given, every CHARACTERISTIC lies within one.
Usage: check_a2l.py FILE [--objects]. Prints each problem as FILE:LINE: what, exit 1 if any;
with --objects, then one line per CHARACTERISTIC, MEASUREMENT and the EPK: KIND NAME ADDRESS BYTES.
"""
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*)*$")
NUMBER = re.compile(r"[+-]?(0[xX][0-9A-Fa-f]+|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)$")
DATATYPES = {"UBYTE": 1, "SBYTE": 1, "UWORD": 2, "SWORD": 2, "ULONG": 4, "SLONG": 4, "A_UINT64": 8,
             "A_INT64": 8, "FLOAT16_IEEE": 2, "FLOAT32_IEEE": 4, "FLOAT64_IEEE": 8}
BYTE_ORDERS = {"LITTLE_ENDIAN", "BIG_ENDIAN", "MSB_LAST", "MSB_FIRST"}
INDEX_MODES = {"ALTERNATE_CURVES", "ALTERNATE_WITH_X", "ALTERNATE_WITH_Y", "COLUMN_DIR", "ROW_DIR"}
ADDRESS_TYPES = {"PBYTE", "PWORD", "PLONG", "PLONGLONG", "DIRECT"}
CONVERSIONS = {"IDENTICAL", "FORM", "LINEAR", "RAT_FUNC", "TAB_INTP", "TAB_NOINTP", "TAB_VERB"}
CHARACTERISTIC_TYPES = {"VALUE": 0, "CURVE": 1, "MAP": 2, "CUBOID": 3, "CUBE_4": 4, "CUBE_5": 5,
                        "VAL_BLK": 0, "ASCII": 0}
AXIS_ATTRIBUTES = {"CURVE_AXIS", "COM_AXIS", "FIX_AXIS", "RES_AXIS", "STD_AXIS"}
ALIGNMENTS = {"ALIGNMENT_" + t: ["uint"] for t in ("BYTE", "WORD", "LONG", "INT64", "FLOAT16_IEEE",
                                                   "FLOAT32_IEEE", "FLOAT64_IEEE")}
COMMON = {"FORMAT": ["string"], "PHYS_UNIT": ["string"], "DISPLAY_IDENTIFIER": ["ident"],
          "BYTE_ORDER": [BYTE_ORDERS], "EXTENDED_LIMITS": ["float", "float"], "ECU_ADDRESS_EXTENSION": ["int"]}

# Each block: its positional fields, its optional keywords (with their fields) and its blocks.
BLOCKS = {
    "PROJECT": (["ident", "string"], {}, {"HEADER", "MODULE"}),
    "HEADER": (["string"], {"VERSION": ["string"], "PROJECT_NO": ["ident"]}, set()),
    "MODULE": (["ident", "string"], {}, {"A2ML", "MOD_COMMON", "MOD_PAR", "COMPU_METHOD", "COMPU_VTAB",
                                         "RECORD_LAYOUT", "CHARACTERISTIC", "MEASUREMENT", "IF_DATA"}),
    "MOD_COMMON": (["string"], dict(ALIGNMENTS, BYTE_ORDER=[BYTE_ORDERS], DATA_SIZE=["uint"],
                                    DEPOSIT=[{"ABSOLUTE", "DIFFERENCE"}]), set()),
    "MOD_PAR": (["string"], {"ADDR_EPK": ["ulong"], "EPK": ["string"], "VERSION": ["string"],
                             "SUPPLIER": ["string"], "CUSTOMER": ["string"], "ECU": ["string"],
                             "CPU_TYPE": ["string"], "USER": ["string"]}, {"MEMORY_SEGMENT"}),
    "MEMORY_SEGMENT": (["ident", "string", {"CALIBRATION_VARIABLES", "CODE", "DATA", "EXCLUDE_FROM_FLASH",
                                            "OFFLINE_DATA", "RESERVED", "SERAM", "VARIABLES"},
                        {"EEPROM", "EPROM", "FLASH", "RAM", "ROM", "REGISTER", "NOT_IN_ECU"}, {"INTERN", "EXTERN"},
                        "ulong", "ulong", "long", "long", "long", "long", "long"], {}, {"IF_DATA"}),
    "COMPU_METHOD": (["ident", "string", CONVERSIONS, "string", "string"],
                     {"COEFFS": ["float"] * 6, "COEFFS_LINEAR": ["float"] * 2, "COMPU_TAB_REF": ["ident"],
                      "REF_UNIT": ["ident"], "STATUS_STRING_REF": ["ident"]}, {"FORMULA"}),
    "COMPU_VTAB": (["ident", "string", {"TAB_VERB"}, "uint", "pairs"], {"DEFAULT_VALUE": ["string"]}, set()),
    "FORMULA": (["string"], {"FORMULA_INV": ["string"]}, set()),
    "RECORD_LAYOUT": (["ident"], dict(ALIGNMENTS, FNC_VALUES=["uint", DATATYPES, INDEX_MODES, ADDRESS_TYPES]),
                      set()),
    "CHARACTERISTIC": (["ident", "string", CHARACTERISTIC_TYPES, "ulong", "ident", "float", "ident", "float",
                        "float"],
                       dict(COMMON, NUMBER=["uint"], MATRIX_DIM=["uint+"], READ_ONLY=[], GUARD_RAILS=[],
                            DISCRETE=[], ECU_ADDRESS_EXTENSION=["int"]),
                       {"AXIS_DESCR", "IF_DATA"}),
    "AXIS_DESCR": ([AXIS_ATTRIBUTES, "ident", "ident", "uint", "float", "float"],
                   dict(COMMON, AXIS_PTS_REF=["ident"], FIX_AXIS_PAR=["int", "int", "uint"],
                        FIX_AXIS_PAR_DIST=["float", "float", "uint"], READ_ONLY=[]),
                   {"FIX_AXIS_PAR_LIST"}),
    "FIX_AXIS_PAR_LIST": (["float+"], {}, set()),
    "MEASUREMENT": (["ident", "string", DATATYPES, "ident", "uint", "float", "float", "float"],
                    dict(COMMON, ECU_ADDRESS=["ulong"], ARRAY_SIZE=["uint"], MATRIX_DIM=["uint+"],
                         READ_WRITE=[], DISCRETE=[]), {"IF_DATA"}),
}


class Problem(Exception):
    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


def tokenize(text):
    """(kind, value, line) for each token: kind is begin, end, string or word."""
    tokens, i, line = [], 0, 1
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise Problem(line, "comment not closed")
            line += text.count("\n", i, end)
            i = end + 2
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
        elif c == '"':
            i, value, start = i + 1, "", line
            while True:
                if i >= len(text):
                    raise Problem(start, "string not closed")
                if text[i] == "\\" and i + 1 < len(text):
                    value += {"n": "\n", "t": "\t", "r": "\r"}.get(text[i + 1], text[i + 1])
                    i += 2
                elif text.startswith('""', i):
                    value += '"'
                    i += 2
                elif text[i] == '"':
                    i += 1
                    break
                else:
                    line += text[i] == "\n"
                    value += text[i]
                    i += 1
            tokens.append(("string", value, start))
        else:
            match = re.compile(r"[^\s\"]+").match(text, i)
            word = match.group(0)
            i = match.end()
            if word in ("/begin", "/end"):
                tokens.append((word[1:], word, line))
            else:
                tokens.append(("word", word, line))
    return tokens


class Node:
    def __init__(self, name, line):
        self.name, self.line, self.fields, self.keywords, self.blocks = name, line, [], [], []

    def keyword(self, name):
        return [k for k in self.keywords if k[0] == name]

    def children(self, name):
        return [b for b in self.blocks if b.name == name]


class Parser:
    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else ("eof", "end of file", self.last_line())

    def last_line(self):
        return self.tokens[-1][2] if self.tokens else 1

    def take(self):
        token = self.peek()
        if token[0] == "eof":
            raise Problem(token[2], "unexpected end of file")
        self.i += 1
        return token

    def field(self, spec, where):
        kind, value, line = self.take()
        if isinstance(spec, (set, dict)):
            if kind != "word" or value not in spec:
                raise Problem(line, f"{where}: '{value}' is not one of {', '.join(sorted(spec))}")
            return value
        if spec == "string":
            if kind != "string":
                raise Problem(line, f"{where}: expected a string, found '{value}'")
            return value
        if kind != "word":
            raise Problem(line, f"{where}: expected {spec}, found {kind} '{value}'")
        if spec == "ident":
            if not IDENT.match(value) or len(value) > 1024:
                raise Problem(line, f"{where}: '{value}' is not an identifier")
            return value
        if not NUMBER.match(value):
            raise Problem(line, f"{where}: expected a number ({spec}), found '{value}'")
        number = int(value, 16) if value.lower().lstrip("+-").startswith("0x") else float(value)
        if spec in ("uint", "ulong", "int", "long") and number != int(number):
            raise Problem(line, f"{where}: expected an integer, found '{value}'")
        if spec in ("uint", "ulong") and number < 0:
            raise Problem(line, f"{where}: expected an unsigned integer, found '{value}'")
        return number

    def fields(self, specs, where):
        values = []
        for spec in specs:
            if spec == "pairs":  # (number, string) while a number follows
                pairs = []
                while self.peek()[0] == "word" and NUMBER.match(self.peek()[1]):
                    pairs.append((self.field("float", where), self.field("string", where)))
                values.append(pairs)
            elif isinstance(spec, str) and spec.endswith("+"):
                values.append(self.field(spec[:-1], where))
                while self.peek()[0] == "word" and NUMBER.match(self.peek()[1]):
                    values.append(self.field(spec[:-1], where))
            else:
                values.append(self.field(spec, where))
        return values

    def skip_block(self, name, line):
        depth = 1
        while depth:
            kind, value, _ = self.take()
            if kind == "begin":
                depth += 1
            elif kind == "end":
                depth -= 1
        word = self.take()
        if word[1] != name:
            raise Problem(word[2], f"/end {word[1]} closes /begin {name} of line {line}")

    def block(self, name, line):
        """The block `name` after its /begin, up to and with its /end."""
        positional, keywords, blocks = BLOCKS[name]
        node = Node(name, line)
        node.fields = self.fields(positional, name)
        while True:
            kind, value, at = self.take()
            if kind == "end":
                closing = self.take()
                if closing[1] != name:
                    raise Problem(closing[2], f"/end {closing[1]} closes /begin {name} of line {line}")
                return node
            if kind == "begin":
                child = self.take()
                if child[1] not in blocks:
                    raise Problem(child[2], f"/begin {child[1]}: not a block of {name} here (missing /end {name}?)")
                if child[1] in ("IF_DATA", "A2ML"):
                    self.skip_block(child[1], child[2])
                else:
                    node.blocks.append(self.block(child[1], child[2]))
            elif kind == "word" and value in keywords:
                node.keywords.append((value, self.fields(keywords[value], value), at))
            else:
                raise Problem(at, f"'{value}' is not a keyword of {name}")

    def file(self):
        kind, value, line = self.take()
        if value != "ASAP2_VERSION":
            raise Problem(line, "the file must start with ASAP2_VERSION")
        version = self.fields(["uint", "uint"], "ASAP2_VERSION")
        if version != [1, 71]:
            raise Problem(line, f"ASAP2_VERSION {version[0]:g} {version[1]:g}, expected 1 71")
        if self.peek()[1] == "A2ML_VERSION":
            self.take()
            self.fields(["uint", "uint"], "A2ML_VERSION")
        begin, project = self.take(), self.take()
        if begin[0] != "begin" or project[1] != "PROJECT":
            raise Problem(begin[2], "expected /begin PROJECT")
        node = self.block("PROJECT", project[2])
        if self.peek()[0] != "eof":
            raise Problem(self.peek()[2], f"'{self.peek()[1]}' after /end PROJECT")
        return node


def unique(nodes, what, problems):
    """The nodes by name (their first field), a problem for each name given twice."""
    names = {}
    for node in nodes:
        if node.fields[0] in names:
            problems.append((node.line, f"{what} {node.fields[0]} is defined twice (first on line "
                                        f"{names[node.fields[0]].line})"))
        else:
            names[node.fields[0]] = node
    return names


def check_limits(node, lower, upper, problems):
    if lower > upper:
        problems.append((node.line, f"{node.name} {node.fields[0]}: lower limit {lower:g} > upper limit {upper:g}"))


def check_axis(owner, axis, names, conversions, problems):
    attribute, quantity, conversion, points, lower, upper = axis.fields
    where = f"AXIS_DESCR of {owner}"
    if quantity != "NO_INPUT_QUANTITY" and names.get(quantity) is None:
        problems.append((axis.line, f"{where}: input quantity {quantity} is not defined"))
    if conversion != "NO_COMPU_METHOD" and conversion not in conversions:
        problems.append((axis.line, f"{where}: conversion {conversion} is not a COMPU_METHOD"))
    if lower > upper:
        problems.append((axis.line, f"{where}: lower limit {lower:g} > upper limit {upper:g}"))
    if attribute != "FIX_AXIS":
        return
    lists = axis.children("FIX_AXIS_PAR_LIST")
    given = len(lists) + len(axis.keyword("FIX_AXIS_PAR")) + len(axis.keyword("FIX_AXIS_PAR_DIST"))
    if given != 1:
        problems.append((axis.line, f"{where}: a FIX_AXIS needs one FIX_AXIS_PAR, FIX_AXIS_PAR_DIST or "
                                    f"FIX_AXIS_PAR_LIST, found {given}"))
        return
    if lists:
        values = lists[0].fields
        if len(values) != points:
            problems.append((lists[0].line, f"{where}: {len(values)} axis points, MaxAxisPoints is {points:g}"))
        if any(b <= a for a, b in zip(values, values[1:])):
            problems.append((lists[0].line, f"{where}: the axis points do not increase strictly"))
        if values and (min(values) < lower or max(values) > upper):
            problems.append((lists[0].line, f"{where}: axis points outside [{lower:g}, {upper:g}]"))


def check_characteristic(c, names, conversions, layouts, problems):
    name, _, kind, _, deposit, _, conversion, lower, upper = c.fields
    if deposit not in layouts:
        problems.append((c.line, f"CHARACTERISTIC {name}: record layout {deposit} is not a RECORD_LAYOUT"))
    elif not layouts[deposit].keyword("FNC_VALUES"):
        problems.append((c.line, f"CHARACTERISTIC {name}: record layout {deposit} has no FNC_VALUES"))
    if conversion != "NO_COMPU_METHOD" and conversion not in conversions:
        problems.append((c.line, f"CHARACTERISTIC {name}: conversion {conversion} is not a COMPU_METHOD"))
    check_limits(c, lower, upper, problems)
    axes = c.children("AXIS_DESCR")
    if len(axes) != CHARACTERISTIC_TYPES[kind]:
        problems.append((c.line, f"CHARACTERISTIC {name}: a {kind} has {CHARACTERISTIC_TYPES[kind]} AXIS_DESCR, "
                                 f"found {len(axes)}"))
    if kind in ("VAL_BLK", "ASCII") and not (c.keyword("NUMBER") or c.keyword("MATRIX_DIM")):
        problems.append((c.line, f"CHARACTERISTIC {name}: a {kind} needs NUMBER or MATRIX_DIM"))
    for axis in axes:
        check_axis(name, axis, names, conversions, problems)


def check_module(module, problems):
    for block in ("MOD_COMMON", "MOD_PAR"):
        if len(module.children(block)) > 1:
            problems.append((module.children(block)[1].line, f"MODULE {module.fields[0]}: {block} given twice"))
    conversions = unique(module.children("COMPU_METHOD"), "COMPU_METHOD", problems)
    tables = unique(module.children("COMPU_VTAB"), "COMPU_VTAB", problems)
    for table in tables.values():
        pairs = table.fields[4]
        if len(pairs) != table.fields[3]:
            problems.append((table.line, f"COMPU_VTAB {table.fields[0]}: {len(pairs)} pairs, NumberValuePairs is "
                                         f"{table.fields[3]:g}"))
        if len({value for value, _ in pairs}) != len(pairs):
            problems.append((table.line, f"COMPU_VTAB {table.fields[0]}: an input value is given twice"))
    layouts = unique(module.children("RECORD_LAYOUT"), "RECORD_LAYOUT", problems)
    names = unique(module.children("CHARACTERISTIC") + module.children("MEASUREMENT"), "object", problems)
    for method in conversions.values():
        kind = method.fields[2]
        needs = {"LINEAR": "COEFFS_LINEAR", "RAT_FUNC": "COEFFS", "TAB_INTP": "COMPU_TAB_REF",
                 "TAB_NOINTP": "COMPU_TAB_REF", "TAB_VERB": "COMPU_TAB_REF"}.get(kind)
        if needs and not method.keyword(needs):
            problems.append((method.line, f"COMPU_METHOD {method.fields[0]}: {kind} needs {needs}"))
        for ref in method.keyword("COMPU_TAB_REF"):
            if kind == "TAB_VERB" and ref[1][0] not in tables:
                problems.append((ref[2], f"COMPU_METHOD {method.fields[0]}: COMPU_TAB_REF {ref[1][0]} is not a "
                                         "COMPU_VTAB"))
        if not re.match(r"%[0-9]+\.[0-9]+$", method.fields[3]):
            problems.append((method.line, f"COMPU_METHOD {method.fields[0]}: format '{method.fields[3]}' is not "
                                          "%Length.Layout"))
    for c in module.children("CHARACTERISTIC"):
        check_characteristic(c, names, conversions, layouts, problems)
    for m in module.children("MEASUREMENT"):
        if m.fields[3] != "NO_COMPU_METHOD" and m.fields[3] not in conversions:
            problems.append((m.line, f"MEASUREMENT {m.fields[0]}: conversion {m.fields[3]} is not a COMPU_METHOD"))
        check_limits(m, m.fields[6], m.fields[7], problems)
    for par in module.children("MOD_PAR"):
        if bool(par.keyword("EPK")) != bool(par.keyword("ADDR_EPK")):
            problems.append((par.line, "MOD_PAR: EPK and ADDR_EPK go together"))
    for c in module.children("CHARACTERISTIC"):
        for fmt in c.keyword("FORMAT"):
            if not re.match(r"%[0-9]+\.[0-9]+$", fmt[1][0]):
                problems.append((fmt[2], f"CHARACTERISTIC {c.fields[0]}: format '{fmt[1][0]}' is not %Length.Layout"))
    segments = [s for par in module.children("MOD_PAR") for s in par.children("MEMORY_SEGMENT")]
    if segments:
        spans = [(int(s.fields[5]), int(s.fields[5]) + int(s.fields[6])) for s in segments]
        for kind, name, address, size in objects(module):
            if kind == "CHARACTERISTIC" and not any(lo <= address and address + size <= hi for lo, hi in spans):
                problems.append((module.line, f"CHARACTERISTIC {name} lies outside every MEMORY_SEGMENT"))


def objects(module):
    """(kind, name, address, bytes) of each object with an address."""
    layouts = {r.fields[0]: r for r in module.children("RECORD_LAYOUT")}
    out = []
    for c in module.children("CHARACTERISTIC"):
        name, _, kind, address, deposit = c.fields[:5]
        if deposit not in layouts or not layouts[deposit].keyword("FNC_VALUES"):
            continue  # a problem of its own (check_characteristic)
        count = 1
        for axis in c.children("AXIS_DESCR"):
            count *= int(axis.fields[3])
        for number in c.keyword("NUMBER"):
            count = int(number[1][0])
        size = DATATYPES[layouts[deposit].keyword("FNC_VALUES")[0][1][1]]
        out.append(("CHARACTERISTIC", name, int(address), count * size))
    for m in module.children("MEASUREMENT"):
        count = 1
        for dims in m.keyword("MATRIX_DIM") + m.keyword("ARRAY_SIZE"):
            for d in dims[1]:
                count *= int(d)
        for address in m.keyword("ECU_ADDRESS"):
            out.append(("MEASUREMENT", m.fields[0], int(address[1][0]), count * DATATYPES[m.fields[2]]))
    for par in module.children("MOD_PAR"):
        for epk, address in zip(par.keyword("EPK"), par.keyword("ADDR_EPK")):
            out.append(("EPK", "EPK", int(address[1][0]), len(epk[1][0]) + 1))
    return out


def check(text):
    """The problems of an A2L text, as (line, message), and its PROJECT (None when it does not parse)."""
    try:
        project = Parser(tokenize(text)).file()
    except Problem as p:
        return [(p.line, str(p))], None
    problems = []
    if not project.children("MODULE"):
        problems.append((project.line, "PROJECT has no MODULE"))
    if len(project.children("HEADER")) > 1:
        problems.append((project.line, "PROJECT has two HEADERs"))
    for module in project.children("MODULE"):
        check_module(module, problems)
    return problems, project


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--objects"):
        sys.exit("usage: check_a2l.py FILE [--objects]")
    path = sys.argv[1]
    problems, project = check(open(path, encoding="utf-8").read())
    for line, message in problems:
        print(f"{path}:{line}: {message}")
    if problems:
        return 1
    if len(sys.argv) == 3:
        for module in project.children("MODULE"):
            for kind, name, address, size in objects(module):
                print(f"{kind} {name} {address:#x} {size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
