#!/usr/bin/env bash
# The full process-death harness: the sample app (Tests/RestorationSampleApp) in a real
# process (stasis-restoration-child), driven to random states and saved again and again, SIGKILLed
# at random moments (in saves, while restoring), its snapshot torn every tenth launch — LAUNCHES
# times (default 500). Every relaunch must restore the last completed save exactly, node by node,
# or the save before it after a tear. The test suite runs the same harness with 40 launches.
#
#   Tools/restoration-harness.sh [LAUNCHES] [SEED]
set -euo pipefail
case "${1:-}" in
  -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  "" | *[!0-9]*) [[ -z "${1:-}" ]] || { echo "restoration-harness.sh: LAUNCHES must be a number, not '$1' (see --help)" >&2; exit 64; } ;;
esac
cd "$(dirname "$0")/.."
launches="${1:-500}"
seed="${2:-18}"
swift build --build-tests --scratch-path .build-harness >&2
STASIS_RESTORATION_KILLS="$launches" STASIS_RESTORATION_SEED="$seed" \
  swift test --skip-build --scratch-path .build-harness --filter "ProcessDeathTests" 2>&1 |
  grep -E "process-death harness|✔|✘|recorded an issue"
