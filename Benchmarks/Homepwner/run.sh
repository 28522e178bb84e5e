#!/usr/bin/env bash
# Runs Homepwner's benchmark in release: a 10,000-item store saved and loaded beside
# Foundation, and the release `homepwner` started to its first frame on that store.
#
#   Benchmarks/Homepwner/run.sh [--rounds N]
# Measures the working tree (the app's bundle is read from Examples/Homepwner/Homepwner.app).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
scratch="$here/.build-homepwner-bench"
swift build -c release --package-path "$here" --scratch-path "$scratch" --product homepwner-bench >&2
swift build -c release --package-path "$root" --scratch-path "$scratch/app" --product homepwner >&2
note="working tree of $(git -C "$root" rev-parse --short HEAD)"
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/homepwner-bench.json}"
HOMEPWNER_BUNDLE="$root/Examples/Homepwner/Homepwner.app" \
  "$scratch/release/homepwner-bench" --app "$scratch/app/release/homepwner" --source "$note" "$@"
