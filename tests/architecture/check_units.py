#!/usr/bin/python3
"""Checks the generator's sources (generator/src) at the level of units and functions.

A unit is a header and its source file taken together (registry/registry.hpp and
registry/registry.cpp are the unit registry/registry): what one library member provides and
needs. Checked:
  - the units include each other without a cycle (unit A depends on unit B when a file of A
    includes B's header): docs/architecture.md's layer rule sees folders, a cycle between the
    units of one folder it cannot see;
  - no function is over MAX_FUNCTION_LINES lines. A function, as the sources are formatted
    (clang-format, Google style), starts at a line in column 0 that ends in `{` after a
    parameter list and ends at the next line in column 0 that starts with `}`; namespaces,
    classes, structs and enums are not functions.
Usage: check_units.py SOURCE_DIR. Prints each violation as FILE:LINE: what; exit 1 if any.
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 80
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
NOT_A_FUNCTION = re.compile(r"(namespace|struct|class|enum|extern|union)\b")


def sources(src):
    for folder, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            if name.endswith((".cpp", ".hpp")):
                path = os.path.join(folder, name)
                yield path, os.path.relpath(path, src)


def unit_of(rel):
    return os.path.splitext(rel)[0]


def include_graph(src):
    """unit -> {unit it includes: (file, line) of the first such include}."""
    graph = {}
    for path, rel in sources(src):
        edges = graph.setdefault(unit_of(rel), {})
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            m = INCLUDE.match(line)
            if m and os.path.isfile(os.path.join(src, m.group(1))):
                target = unit_of(m.group(1))
                if target != unit_of(rel):
                    edges.setdefault(target, (path, number))
    return graph


def cycles(graph):
    """The strongly connected components of more than one unit (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def long_functions(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    start = None
    for i, line in enumerate(lines):
        if start is None:
            head = " ".join(lines[max(0, i - 5):i + 1])
            if (line and not line[0].isspace() and line.rstrip().endswith("{") and "(" in head
                    and not NOT_A_FUNCTION.match(line)):
                start = i
        elif line.startswith("}"):
            length = i - start + 1
            if length > MAX_FUNCTION_LINES:
                yield start + 1, length, lines[start].strip()
            start = None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_units.py SOURCE_DIR")
    src = os.path.join(sys.argv[1], "generator", "src")
    problems = []
    graph = include_graph(src)
    for component in cycles(graph):
        members = set(component)
        steps = [f"{a} -> {b} ({graph[a][b][0]}:{graph[a][b][1]})"
                 for a in component for b in sorted(graph[a]) if b in members]
        problems.append(f"{os.path.join(src, component[0])}: units include each other in a cycle: "
                        + "; ".join(steps))
    functions = 0
    for path, _ in sources(src):
        for line, length, text in long_functions(path):
            problems.append(f"{path}:{line}: a function of {length} lines (at most {MAX_FUNCTION_LINES}): {text}")
        functions += 1
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} violations among {len(graph)} units of generator/src")
        return 1
    print(f"{len(graph)} units of generator/src: no include cycle, no function over {MAX_FUNCTION_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
