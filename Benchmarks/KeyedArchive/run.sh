#!/usr/bin/env bash
# Runs the keyed-archive benchmark (archive-bench) and prints a Markdown report on stdout
# (progress on stderr).
#
#   Benchmarks/KeyedArchive/run.sh [--tree] [--no-gnustep] [archive-bench options…]
#   Benchmarks/KeyedArchive/run.sh [--tree] --build-only        (prints the binary's path)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk. The benchmark package itself is always the one on disk. Options after that
# go to archive-bench: --sizes 10000,100000 --min-time S --warm-up S --no-memory (Docs/benchmarks.md).
#
# GNUstep Base's archiver is measured beside them when gnustep-config is installed (gobjc and
# libgnustep-base-dev; Benchmarks/GNUstepPeer) at the sizes Foundation is measured at, unless
# --no-gnustep is given.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../Support/build-bench.sh"
arguments=() gnustep=1
for argument in "$@"; do
  if [[ "$argument" == --no-gnustep ]]; then gnustep=0; else arguments+=("$argument"); fi
done
prepare_bench KeyedArchive archive-bench "$here/.build-archive" "${arguments[@]+"${arguments[@]}"}"
if [[ $gnustep == 1 ]] && command -v gnustep-config >/dev/null 2>&1; then
  bench_args=(--gnustep "$("$here/../GNUstepPeer/build.sh")" "${bench_args[@]+"${bench_args[@]}"}")
elif [[ $gnustep == 1 ]]; then
  echo "run.sh: gnustep-config not found, GNUstep not measured (apt-get install gobjc libgnustep-base-dev)" >&2
fi
# The command, printed by the benchmark beside its figures.
export BENCH_COMMAND="Benchmarks/KeyedArchive/run.sh${*:+ $*}"
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/archive-bench.json}"
"$binary" --source "$source_note" "${bench_args[@]+"${bench_args[@]}"}"
