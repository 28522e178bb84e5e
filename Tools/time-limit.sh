#!/usr/bin/env bash
# Runs a test command (the README's: `swift test`, with any arguments) under a time limit, so that
# a test that hangs fails the run with its name instead of running CI into its own limit in
# silence.
#
#   Tools/time-limit.sh swift test [arguments]
#   STASIS_TEST_TIME_LIMIT=SECONDS (default 2700: the whole suite takes about 5 minutes here)
#
# Near the limit the test process's threads are printed; on the timeout every process of the run
# is ended and the tests not reported finished are listed; the exit status is then 124, as
# timeout(1)'s.
set -uo pipefail
cd "$(dirname "$0")/.."
limit="${STASIS_TEST_TIME_LIMIT:-2700}"
log="$(mktemp "${TMPDIR:-/tmp}/stasis-test-log.XXXXXX")"
trap 'rm -f "$log"' EXIT

# A minute before the limit, the stacks of the test process's threads (through gdb, when there
# is one): the frames in this project's code name what is stuck.
dump_stacks() {
  # In the background and waited for, so that ending it below prints no "Terminated" line and
  # returns here instead of dumping stacks.
  sleep "$((limit > 120 ? limit - 60 : limit / 2))" &
  wait $! || return
  for pid in $(pgrep -f 'PackageTests\.xctest'); do
    [ "$(readlink "/proc/$pid/cwd")" = "$PWD" ] || continue
    echo "error: the tests are still running near the limit; the threads of the test process $pid:" >&2
    if command -v gdb >/dev/null 2>&1; then
      gdb -p "$pid" -batch -ex "thread apply all bt 40" 2>/dev/null | grep -E "^Thread |/(Tests|Sources|Examples)/" >&2
    else
      echo "  (no gdb to show them)" >&2
    fi
  done
}
dump_stacks &
dumper=$!
disown "$dumper"   # no job-status line from this shell either

# timeout(1) puts the command in a process group of its own and signals the whole group, so the
# test process is ended with it.
timeout --kill-after=30 "$limit" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
pkill -P "$dumper" 2>/dev/null; kill "$dumper" 2>/dev/null
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "error: the tests did not finish within $limit s and were ended. Started and not reported finished" >&2
  echo "(Swift Testing reports some tests finished only when their suite ends):" >&2
  # Swift Testing prints "◇ Test NAME started." and "✔/✘ Test NAME passed/failed ..." per test.
  awk '
    /◇ Test .* started\./ {
      name = $0; sub(/^.*◇ Test /, "", name); sub(/ started\.$/, "", name)
      if (name !~ /^case / && name != "run") { open[name] = 1; order[++count] = name }
    }
    /[✔✘] Test .* (passed|failed)/ {
      name = $0; sub(/^.*[✔✘] Test /, "", name)
      sub(/ (passed|failed|with [0-9]+ test case).*$/, "", name)
      delete open[name]
    }
    END { for (i = 1; i <= count; i++) if (order[i] in open) print "  " order[i] }
  ' "$log" >&2
  exit 124
fi
exit "$status"
