#!/usr/bin/env bash
# Runs the restoration benchmark (restoration-bench) in release and prints a Markdown
# report on stdout: saving and restoring a 10,000-node tree with Stasis beside Foundation's
# NSKeyedArchiver / NSKeyedUnarchiver archiving the same state, in the same run.
#
#   Benchmarks/Restoration/run.sh [--tree | --snapshot REV] [--rounds N]
#   Benchmarks/Restoration/run.sh [--tree] --build-only     (prints the binary's path)
#
# By default the library is measured as committed at HEAD (exported with `git archive`); --tree
# measures the working tree as it is on disk.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../Support/build-bench.sh"
prepare_bench Restoration restoration-bench "$here/.build-restoration-bench" "$@"
# The command, printed by the benchmark beside its figures.
export BENCH_COMMAND="Benchmarks/Restoration/run.sh${*:+ $*}"
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/restoration-bench.json}"
"$binary" --source "$source_note" "${bench_args[@]+"${bench_args[@]}"}"
