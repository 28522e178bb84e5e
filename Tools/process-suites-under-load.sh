#!/usr/bin/env bash
# The process-level lifecycle and restoration suites, run RUNS times in a row (default 50) while
# a competing load keeps every core busy: real child processes moved by real signals, killed and
# relaunched, whose waits must be event-driven (a fixed budget flakes on a loaded machine).
#
#   Tools/process-suites-under-load.sh [RUNS] [--scratch-path DIR] [--filter REGEX] [--no-load]
#
# The load is `stress-ng --cpu N` (or `stress --cpu N`) when installed, else N `yes > /dev/null`,
# N being the number of cores. The tests must be built (`swift build --build-tests`). Prints one
# line per run and then "RUNS runs, F failed"; exit 1 when any failed. The output of a failed run
# is kept in $LOAD_LOG_DIR (default /tmp/process-suites-under-load).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=50
scratch=.build
filter='ProcessLifecycleTests|SignalRaceTests|ProcessDeathTests'
load=1
while [ $# -gt 0 ]; do
  case "$1" in
  --scratch-path) scratch=$2; shift ;;
  --filter) filter=$2; shift ;;
  --no-load) load=0 ;;
  --help | -h) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *)
    [[ "$1" =~ ^[0-9]+$ ]] || { echo "usage: $0 [RUNS] [--scratch-path DIR] [--filter REGEX] [--no-load]" >&2; exit 64; }
    runs=$1
    ;;
  esac
  shift
done
logs=${LOAD_LOG_DIR:-/tmp/process-suites-under-load}
mkdir -p "$logs"
cores=$(nproc)
loaders=()
stop_load() { [ ${#loaders[@]} -gt 0 ] && kill "${loaders[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_load EXIT
if [ "$load" = 1 ]; then
  if command -v stress-ng >/dev/null; then
    stress-ng --cpu "$cores" --quiet >/dev/null 2>&1 & loaders+=($!)
    echo "load: stress-ng --cpu $cores"
  elif command -v stress >/dev/null; then
    stress --cpu "$cores" >/dev/null 2>&1 & loaders+=($!)
    echo "load: stress --cpu $cores"
  else
    for _ in $(seq "$cores"); do
      yes >/dev/null & loaders+=($!)
    done
    echo "load: $cores × yes > /dev/null"
  fi
fi
failed=0
started=$(date +%s)
for run in $(seq "$runs"); do
  begun=$(date +%s)
  out="$logs/run-$run.log"
  swift test --skip-build --scratch-path "$scratch" --filter "$filter" >"$out" 2>&1
  status=$?
  passed=$(grep -E '✔ Test .* passed' "$out" | grep -c -v '✔ Test run ')
  if [ "$status" != 0 ] || [ "$passed" = 0 ] || grep -q -E '✘|recorded an issue' "$out"; then
    failed=$((failed + 1))
    echo "run $run: FAILED ($(($(date +%s) - begun)) s; $out)"
    grep -E '✘|recorded an issue' "$out" | head -5
  else
    echo "run $run: passed, $passed tests ($(($(date +%s) - begun)) s, load $(cut -d' ' -f1 /proc/loadavg))"
    rm -f "$out"
  fi
done
echo "$runs runs, $failed failed ($(($(date +%s) - started)) s under load)"
[ "$failed" = 0 ]
