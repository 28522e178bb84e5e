#!/usr/bin/env bash
# Builds every target and test with the flags `swift test` uses (so its build is reused) and fails
# on any compiler warning. Part of the README's test command:
#
#   Tools/check-warnings.sh && Tools/time-limit.sh swift test && Tools/check-docs.sh
#
# Only files that compile print warnings, so a clean checkout (as CI has) checks every file.
set -euo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log"; then
  echo "check-warnings: the build failed" >&2
  exit 1
fi
if grep -q "warning:" "$log"; then
  echo "check-warnings: FAILED: the build printed $(grep -c "warning:" "$log") warning line(s):" >&2
  grep "warning:" "$log" | sort -u >&2
  exit 1
fi
echo "check-warnings: OK: no compiler warnings"
