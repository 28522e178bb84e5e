#!/usr/bin/env bash
# Runs the bundle benchmark (bundle-bench) and prints a Markdown report on stdout
# (progress on stderr).
#
#   Benchmarks/Bundles/run.sh [--tree] [bundle-bench options…]
#   Benchmarks/Bundles/run.sh [--tree] --build-only        (prints the binary's path)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk. The benchmark package itself is always the one on disk. Options after that
# go to bundle-bench: --lookups N --resource-lookups N --resources N --runs K.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../Support/build-bench.sh"
prepare_bench Bundles bundle-bench "$here/.build-bundles-bench" "$@"
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/bundle-bench.json}"
"$binary" --source "$source_note" "${bench_args[@]}"
