#!/usr/bin/python3
"""Checks the generator's sources (generator/src) against the layering in docs/architecture.md.

The page's block between `<!-- layers -->` and `<!-- /layers -->` is the rule, one line a
folder: `FOLDER: FOLDERS IT MAY INCLUDE` (its own files are always allowed), and lines
`scheme FOLDER: NAMES` give the scheme names each folder of schemes/ registers. Checked:
  - every `#include "..."` of a file names a header of generator/src, from its own folder or
    one the rule allows (an include that names no file is an error too);
  - a scheme folder (schemes/X/) includes no other scheme folder; nothing else includes one but
    the registry (registry/registry.cpp): a scheme is reached through the registry;
  - no circle among the folders (schemes/X/ a folder of its own): folder A depends on folder
    B when a file of A includes a header of B;
  - each scheme name appears as a string literal ("sp_ll") only in its own folder and the
    registry;
  - a line `word WORD: PLACES` (folders or files of generator/src): WORD, in any case, appears
    only in those places (sp_ll's "frozen" where the linearization is read or written as text);
  - a file over 500 lines says why in a `// Size:` comment within its first 10 lines.
Usage: check_layers.py SOURCE_DIR. Prints each violation as FILE:LINE: what; exit 1 if any.
"""
import os
import re
import sys

MAX_LINES = 500


def read_rules(page):
    text = open(page, encoding="utf-8").read()
    match = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", text, re.S)
    if not match:
        sys.exit(f"{page}: no <!-- layers --> block")
    allowed, schemes, owned = {}, {}, {}
    for line in match.group(1).splitlines():
        line = line.strip().strip("`")
        if not line or line.startswith("```"):
            continue
        key, _, rest = line.partition(":")
        words = rest.split()
        if key.startswith("scheme "):
            schemes[key.split()[1]] = words
        elif key.startswith("word "):
            owned[key.split()[1].lower()] = words
        else:
            allowed[key.strip()] = set(words)
    for folder, deps in allowed.items():
        for d in deps:
            if d not in allowed:
                sys.exit(f"{page}: {folder} may include {d}, which is not a layer")
    return allowed, schemes, owned


def folder_circles(edges):
    """The circles of the folder graph {folder: {folder it includes: (file, line)}}, each as the
    list of its folders, found by a depth-first search (one circle per back edge)."""
    circles, state = [], {}

    def visit(folder, path):
        state[folder] = "open"
        path.append(folder)
        for target in sorted(edges.get(folder, {})):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path)
        path.pop()
        state[folder] = "done"

    for folder in sorted(edges):
        if folder not in state:
            visit(folder, [])
    return circles


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py SOURCE_DIR")
    root = sys.argv[1]
    src = os.path.join(root, "generator", "src")
    allowed, schemes, owned = read_rules(os.path.join(root, "docs", "architecture.md"))
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    problems, files, edges = [], 0, {}
    for folder, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp")):
                continue
            files += 1
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, src)
            parts = rel.split(os.sep)
            layer = parts[0]
            if len(parts) < 2 or layer not in allowed:
                problems.append(f"{path}:1: not in a folder of docs/architecture.md's layers")
                continue
            scheme_folder = parts[1] if layer == "schemes" and len(parts) > 2 else None
            registry = rel == os.path.join("registry", "registry.cpp")
            lines = open(path, encoding="utf-8").read().splitlines()
            rel_slash = rel.replace(os.sep, "/")
            for word, places in owned.items():
                if any(rel_slash == p or rel_slash.startswith(p.rstrip("/") + "/") for p in places):
                    continue
                for number, line in enumerate(lines, 1):
                    if word in line.lower():
                        problems.append(f"{path}:{number}: writes \"{word}\": only {', '.join(places)} may "
                                        "(docs/architecture.md)")
            if len(lines) > MAX_LINES and not any(l.startswith("// Size:") for l in lines[:10]):
                problems.append(f"{path}:1: {len(lines)} lines and no `// Size:` reason in its first 10 lines")
            for number, line in enumerate(lines, 1):
                m = include.match(line)
                if m:
                    target = m.group(1)
                    tparts = target.split("/")
                    if not os.path.isfile(os.path.join(src, target)):
                        problems.append(f"{path}:{number}: includes {target}, which is not a file of generator/src")
                        continue
                    tlayer = tparts[0]
                    source_folder, target_folder = os.path.dirname(rel), os.path.dirname(target)
                    if source_folder != target_folder:
                        edges.setdefault(source_folder, {}).setdefault(target_folder, f"{path}:{number}")
                    if tlayer != layer and tlayer not in allowed[layer]:
                        problems.append(f"{path}:{number}: {layer}/ includes {target}: {layer}/ may include "
                                        f"{', '.join(sorted(allowed[layer])) or 'nothing'} (docs/architecture.md)")
                    tscheme = tparts[1] if tlayer == "schemes" and len(tparts) > 2 else None
                    if tscheme and tscheme != scheme_folder and not registry:
                        problems.append(f"{path}:{number}: includes {target}: only schemes/{tscheme}/ and the "
                                        "registry name a scheme's folder")
                if registry:
                    continue
                for folder_name, scheme_names in schemes.items():
                    if folder_name == scheme_folder:
                        continue
                    for s in scheme_names:
                        if f'"{s}"' in line:
                            problems.append(f"{path}:{number}: names the scheme \"{s}\": only schemes/{folder_name}/ "
                                            "and the registry may")
    for circle in folder_circles(edges):
        steps = [f"{a}/ -> {b}/ ({edges[a][b]})" for a, b in zip(circle, circle[1:])]
        problems.append(f"{edges[circle[0]][circle[1]]}: a circle of folders: " + "; ".join(steps))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} violations of docs/architecture.md's layering in {files} files")
        return 1
    print(f"{files} files of generator/src follow docs/architecture.md's layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
