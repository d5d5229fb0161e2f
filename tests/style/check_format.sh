#!/bin/sh
# CTest `style.format`: every C and C++ file of the tree is as clang-format formats it with the
# tree's .clang-format (Google style, 120 columns). The formatting depends on clang-format's
# major version: the check runs with Debian 12's clang-format 14 (scripts/deps installs it) and
# is skipped (exit 77) with another. Prints each misformatted file and the command that formats
# it; exit 1 if any.
# Usage: check_format.sh SOURCE_DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 SOURCE_DIR" >&2; exit 2; }
cd "$1"
format=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$format" ] || { echo "no clang-format (scripts/deps installs it)" >&2; exit 1; }
version=$("$format" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "clang-format $version: the tree is formatted with clang-format 14; not checked" >&2
  exit 77
fi
if [ -d .git ] || [ -f .git ]; then
  files=$(git ls-files '*.cpp' '*.hpp' '*.h')
else
  files=$(find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi
count=$(echo "$files" | wc -l)
# shellcheck disable=SC2016,SC2086
bad=$(printf '%s\n' $files | xargs -P "$(nproc)" -I{} sh -c '"$0" --dry-run --Werror "$1" >/dev/null 2>&1 || echo "$1"' "$format" {} | sort)
if [ -n "$bad" ]; then
  for f in $bad; do echo "$f: not formatted (clang-format -i $f)"; done
  echo "$(echo "$bad" | wc -l) of $count files not formatted as .clang-format says"
  exit 1
fi
echo "$count files formatted as .clang-format says"
