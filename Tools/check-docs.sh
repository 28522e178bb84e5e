#!/usr/bin/env bash
# Builds the DocC documentation of every library target and fails on any warning.
#
# "Library target" means every regular (non-test, non-executable, non-plugin) target of the root
# Package.swift whose sources live under Sources/ — read from `swift package dump-package`, so a
# module added to the manifest is checked without editing this script. TestSupport (under Tests/)
# and the executables' thin `@main` targets (under Tools/) are not documented.
#
# Exits non-zero when `generate-documentation` fails or when any line of its output (compiler or
# DocC, stdout or stderr) contains "warning:" — broken ``symbol`` links and unresolved
# <doc:article> references are reported by DocC as warnings.
#
# Usage: Tools/check-docs.sh [scratch-path]     (default .build, the test build's own folder: the
# documentation then reuses the modules that build compiled instead of building them again)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${1:-.build}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

targets="$(swift package --scratch-path "$scratch" dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    path = target.get("path") or "Sources/" + target["name"]
    if target["type"] == "regular" and path.startswith("Sources/"):
        print(target["name"])
')"
if [ -z "$targets" ]; then
  echo "check-docs: no library targets found in Package.swift" >&2
  exit 1
fi

target_flags=()
for target in $targets; do target_flags+=(--target "$target"); done
echo "check-docs: documenting" $targets >&2

status=0
swift package --scratch-path "$scratch" generate-documentation \
  "${target_flags[@]}" >"$log" 2>&1 || status=$?
cat "$log"

warnings="$(grep -c 'warning:' "$log" || true)"
if [ "$status" -ne 0 ]; then
  echo "check-docs: FAILED: generate-documentation exited with status $status ($warnings warning lines)" >&2
  exit 1
fi
if [ "$warnings" -ne 0 ]; then
  echo "check-docs: FAILED: $warnings warning line(s) above" >&2
  exit 1
fi
echo "check-docs: OK: $(echo $targets | wc -w) targets, no warnings" >&2
