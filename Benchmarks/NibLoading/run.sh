#!/usr/bin/env bash
# Runs the nib-loading benchmark (nib-bench) and prints a Markdown report on stdout
# (progress on stderr): a generated 1,000-object macOS nib instantiated again and again from its
# graph and from its bytes, KeyedArchive and Foundation decoding graphs of as many objects, and
# the first load of a storyboard scene.
#
#   Benchmarks/NibLoading/run.sh [--tree] [nib-bench options…]
#   Benchmarks/NibLoading/run.sh [--tree] --build-only        (prints the binary's path)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk. The benchmark package itself is always the one on disk. Options after that
# go to nib-bench: --objects 1000 --seed N --dense-attributes --scene-panels N --min-time S --min-iterations N
# --warm-up S --rounds N --first-runs N --cells KEY,… --corpus DIR --keep DIR, and --loop CELL
# [--iterations K] to run one cell alone for a profiler (perf record -g BINARY --loop nib-graph).
#
# The corpus (for the storyboard scenes) is the repository's Tests/Fixtures/corpus, or
# $STASIS_CORPUS.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/../Support/build-bench.sh"
prepare_bench NibLoading nib-bench "$here/.build-nib" "$@"
corpus="${STASIS_CORPUS:-}"
if [[ -z "$corpus" ]]; then
  for candidate in "$root/Tests/Fixtures/corpus"; do
    if [[ -d "$candidate/xib" ]]; then corpus="$(cd "$candidate" && pwd)"; break; fi
  done
fi
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/nib-bench.json}"
"$binary" --source "$source_note" ${corpus:+--corpus "$corpus"} "${bench_args[@]}"
