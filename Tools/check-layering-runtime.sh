#!/usr/bin/env bash
# The runtime half of the layering check: no module reads the clock, the process environment,
# signals or the terminal on its own — only Sources/StasisSystem does (HostEnvironment's clock,
# signal port, terminal device and variables), and Sources/StasisSystemTesting (its test doubles).
#
#   Tools/check-layering-runtime.sh            counts the calls in the working tree; fails if any
#   Tools/check-layering-runtime.sh REVISION   counts them at a git revision (e.g. a641cfe), never fails
#
# A pattern counts in code only: the part of a line before `//` (comments and doc comments that
# name the call they stand for do not count).
set -uo pipefail
cd "$(dirname "$0")/.."

# One pattern a line: a name, a tab, an extended regular expression.
patterns=$(
  cat <<'LIST'
ProcessInfo	\bProcessInfo\b
Date()	\bDate\(\)
DispatchTime.now	\bDispatchTime\.now\b
clock_gettime	\bclock_gettime\b
getenv	\bgetenv\(
sigaction	\bsigaction\b
tcsetattr	\btcsetattr\b
LIST
)
allowed='^Sources/(StasisSystem|StasisSystemTesting)/'

revision="${1:-}"
if [[ -n "$revision" ]]; then
  files=$(git ls-tree -r --name-only "$revision" -- Sources | grep '\.swift$' | grep -Ev "$allowed")
  show() { git show "$revision:$1"; }
else
  files=$(git ls-files --cached --others --exclude-standard -- Sources | grep '\.swift$' | grep -Ev "$allowed")
  show() { cat "$1"; }
fi

total=0
while IFS=$'\t' read -r name regex; do
  count=0
  places=()
  for file in $files; do
    hits=$(show "$file" | sed -E 's#//.*$##' | grep -cE "$regex")
    if ((hits > 0)); then
      count=$((count + hits))
      places+=("$file ($hits)")
    fi
  done
  printf '%-18s %4d  %s\n' "$name" "$count" "${places[*]:-}"
  total=$((total + count))
done <<<"$patterns"
printf '%-18s %4d\n' "total" "$total"

if [[ -z "$revision" && $total -gt 0 ]]; then
  echo "check-layering-runtime: $total call(s) outside Sources/StasisSystem; take them from HostEnvironment" >&2
  exit 1
fi
