#!/usr/bin/env bash
# Homepwner's kill test at full length: the real app in tmux, driven to random screens,
# sent to the background with Ctrl-Z, SIGKILLed, relaunched — RUNS times (default 50); every
# relaunch must show the same screen, data and unsaved text. The test suite runs 10.
#
#   Tools/homepwner-kills.sh [RUNS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-50}"
seed="${2:-19}"
swift build --build-tests --scratch-path .build-harness >&2
STASIS_HOMEPWNER_KILLS="$runs" STASIS_HOMEPWNER_SEED="$seed" \
  swift test --skip-build --scratch-path .build-harness --filter "TerminalSessionTests/killedAndRestored" 2>&1 |
  grep -E "homepwner kill test|✔|✘|recorded an issue"
