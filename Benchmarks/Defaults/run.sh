#!/usr/bin/env bash
# Runs the user-defaults benchmark (defaults-bench) and prints a Markdown report on stdout
# (progress on stderr).
#
#   Benchmarks/Defaults/run.sh [--tree] [defaults-bench options…]
#   Benchmarks/Defaults/run.sh [--tree] --build-only        (prints the binary's path)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk. Options after that go to defaults-bench:
# --keys 1000 --reads 2000000 --burst 10000 --syncs 200.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../Support/build-bench.sh"
prepare_bench Defaults defaults-bench "$here/.build-defaults-bench" "$@"
# Foundation's UserDefaults writes to $XDG_CONFIG_HOME on Linux: keep it out of the real one.
foundation_home="$(mktemp -d)"
trap 'rm -rf "$foundation_home"' EXIT
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/defaults-bench.json}"
XDG_CONFIG_HOME="$foundation_home" "$binary" --source "$source_note" "${bench_args[@]}"
