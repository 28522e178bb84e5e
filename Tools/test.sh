#!/usr/bin/env bash
# The test command (README, .ci/run): a build of everything with zero compiler warnings, the
# tests, then the documentation with zero warnings.
#
#   Tools/test.sh [swift test options…]
set -euo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The same flags as `swift test` uses, so its build is reused. Only files that compile print
# warnings, so a clean checkout (as CI has) checks every file.
if ! swift build --build-tests 2>&1 | tee "$log"; then
  echo "test.sh: the build failed" >&2
  exit 1
fi
if grep -q "warning:" "$log"; then
  echo "test.sh: FAILED: the build printed $(grep -c "warning:" "$log") warning line(s):" >&2
  grep "warning:" "$log" | sort -u >&2
  exit 1
fi
swift test "$@"
Tools/check-docs.sh
