#!/usr/bin/env bash
# The test command (README and .ci/run run exactly this):
#
#   Tools/test.sh
#
# 1. installs what the tests need on a fresh machine (Tools/install-test-prerequisites.sh);
#    checks that no code outside StasisSystem reaches the operating system directly: files
#    (Tools/check-layering.sh), the clock, signals, the terminal and the process environment
#    (Tools/check-layering-runtime.sh);
# 2. builds every target and test once, and fails on any compiler warning in that build;
# 3. runs the tests from that build (`swift test --skip-build`, under Tools/time-limit.sh);
# 4. builds the DocC documentation of every library target and fails on any warning;
# then prints the time of each step and one closing line with the counts.
#
#   STASIS_SKIP_INSTALL=1   do not install anything (the tests that need a missing tool skip and
#                           say so)
#   STASIS_SKIP_DOCS=1      steps 1-3 only
#   Extra arguments go to `swift test` (e.g. --filter PropertyListsTests).
set -uo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
step_times=()
mark() { step_times+=("$1 $(($(date +%s) - $2)) s"); }

if [[ "${STASIS_SKIP_INSTALL:-}" != 1 ]]; then
  t=$(date +%s)
  Tools/install-test-prerequisites.sh || { echo "test.sh: installing the prerequisites failed" >&2; exit 1; }
  mark install "$t"
fi

# 1b. The layering: the operating system only through StasisSystem (a few seconds, no build).
t=$(date +%s)
for check in Tools/check-layering.sh Tools/check-layering-runtime.sh; do
  layering_log="$(mktemp "${TMPDIR:-/tmp}/stasis-layering-log.XXXXXX")"
  if ! "$check" > "$layering_log" 2>&1; then
    cat "$layering_log" >&2
    rm -f "$layering_log"
    echo "test.sh: FAILED: direct operating-system calls outside StasisSystem ($check)" >&2
    exit 1
  fi
  tail -1 "$layering_log"
  rm -f "$layering_log"
done
mark layering "$t"

build_log="$(mktemp "${TMPDIR:-/tmp}/stasis-build-log.XXXXXX")"
test_log="$(mktemp "${TMPDIR:-/tmp}/stasis-test-log.XXXXXX")"
trap 'rm -f "$build_log" "$test_log"' EXIT

# 2. One build. Only files that compile print warnings, so a clean clone checks every file.
t=$(date +%s)
if ! swift build --build-tests 2>&1 | tee "$build_log"; then
  echo "test.sh: the build failed" >&2
  exit 1
fi
mark build "$t"
warnings=$(grep -c "warning:" "$build_log" || true)
if [[ "$warnings" -ne 0 ]]; then
  echo "test.sh: FAILED: the build printed $warnings warning line(s):" >&2
  grep "warning:" "$build_log" | sort -u >&2
  exit 1
fi
echo "test.sh: build OK, no compiler warnings"

# 3. The tests, from that build.
t=$(date +%s)
Tools/time-limit.sh swift test --skip-build "$@" 2>&1 | tee "$test_log"
test_status=${PIPESTATUS[0]}
mark tests "$t"

# 4. The documentation.
docs_status=0
if [[ "${STASIS_SKIP_DOCS:-}" != 1 && $# -eq 0 ]]; then
  t=$(date +%s)
  Tools/check-docs.sh || docs_status=$?
  mark docs "$t"
fi

# The counts: the total from Swift Testing's closing line ("Test run with N tests in M suites"),
# the failed and skipped tests from their own lines (distinct names), the rest passed.
total=$(grep -aoE 'Test run with [0-9]+ tests?' "$test_log" | tail -1 | grep -oE '[0-9]+' || true)
total=${total:-0}
failed=$(grep -aE '✘ Test .* failed after' "$test_log" | grep -av '✘ Test run with' |
  sed -E 's/^.*✘ Test (.*) failed after.*$/\1/' | sort -u | wc -l)
skipped=$(grep -aE '➜ Test .* skipped' "$test_log" | sed -E 's/^.*➜ Test //' | sort -u | wc -l)
passed=$((total - failed - skipped))
[[ "$passed" -ge 0 ]] || passed=0
echo
echo "test.sh: steps: ${step_times[*]}; total $(($(date +%s) - started)) s"
if [[ "$skipped" -ne 0 ]]; then
  echo "test.sh: skipped tests and why:"
  grep -aE '➜ Test .* skipped' "$test_log" | sed -E 's/^.*➜ Test /  /' | sort -u | head -40
fi
if [[ "$failed" -ne 0 ]]; then
  # The issues the failed tests recorded, at the end where a short log excerpt still shows them.
  echo "test.sh: what the failed tests recorded:"
  grep -aE -A3 '✘ Test .* recorded an issue' "$test_log" | grep -avE '^(--|[✔◇]|.*✘ Test .* failed after)' |
    sed -E 's/^.*✘ Test /  /' | cut -c1-2000 | head -40
fi
[[ "$docs_status" -eq 0 ]] || echo "test.sh: FAILED: the documentation has warnings or did not build" >&2
[[ "$test_status" -eq 0 ]] || echo "test.sh: FAILED: swift test exited with status $test_status" >&2
echo "tests: $passed passed, $failed failed, $skipped skipped"
[[ "$test_status" -eq 0 && "$docs_status" -eq 0 ]]
