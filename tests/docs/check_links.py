#!/usr/bin/python3
"""Checks that every relative link of the documentation resolves.

Pages: README.md, docs/**/*.md and tests/reproductions/*/REPORT.md under SOURCE_DIR. A link
[text](target) resolves when the file or folder `target` exists relative to its page and, with
a `#anchor`, the target page (or the page itself for `#anchor` alone) has a heading whose
GitHub anchor is `anchor` (lowercase; spaces to '-'; characters other than letters, digits,
'-' and '_' dropped; a repeated heading gets -1, -2, ...). Web and mail links and anything in
fenced code blocks or inline code are not checked.
Usage: check_links.py SOURCE_DIR. Prints each broken link as PAGE:LINE: broken link TARGET (why);
exit status 1 if there is one.
"""
import glob
import os
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def lines_outside_code(path):
    """(line number, text) of a page's lines outside fenced code blocks, inline code blanked."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield number, re.sub(r"`[^`]*`", "``", line.rstrip("\n"))


def anchor(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading counts by its text
    text = text.strip().lower().replace(" ", "-")
    return re.sub(r"[^\w\-]", "", text)


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        for _, line in lines_outside_code(path):
            m = HEADING.match(line)
            if not m:
                continue
            a = anchor(m.group(2))
            n = seen.get(a, 0)
            seen[a] = n + 1
            found.add(a if n == 0 else f"{a}-{n}")
        cache[path] = found
    return cache[path]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_links.py SOURCE_DIR")
    root = os.path.abspath(sys.argv[1])
    pages = [os.path.join(root, "README.md")]
    pages += glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)
    pages += glob.glob(os.path.join(root, "tests", "reproductions", "*", "REPORT.md"))
    pages = sorted(p for p in pages if os.path.isfile(p))
    broken, checked = [], 0
    for page in pages:
        # Links may wrap: match over the page's text outside code, then find each one's line.
        numbered = list(lines_outside_code(page))
        text = "\n".join(line for _, line in numbered)
        for m in LINK.finditer(text):
            number = numbered[text.count("\n", 0, m.start())][0]
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            checked += 1
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = f"{os.path.relpath(page, root)}:{number}: broken link {target}"
            if not os.path.exists(resolved):
                broken.append(f"{where} (no {os.path.relpath(resolved, root)})")
            elif fragment and (not resolved.endswith(".md") or fragment not in anchors(resolved)):
                broken.append(f"{where} (no heading #{fragment} in {os.path.relpath(resolved, root)})")
    for b in broken:
        print(b)
    if broken:
        print(f"{len(broken)} broken of {checked} links in {len(pages)} pages")
        return 1
    print(f"{checked} links in {len(pages)} pages resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
