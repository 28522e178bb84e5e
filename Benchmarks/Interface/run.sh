#!/usr/bin/env bash
# Runs the interface-file benchmark (interface-bench) and prints a Markdown report on
# stdout (progress on stderr): whole-process `ibtool --compile` on the corpus xibs and storyboards,
# NIBArchive read/write MB/s against the Python `nibarchive` package, peak memory.
#
#   Benchmarks/Interface/run.sh [--tree | --snapshot REV] [--wait-quiet] [interface-bench options…]
#   Benchmarks/Interface/run.sh [--tree | --snapshot REV] --build-only   (prints the two binaries' paths)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk, --snapshot REV another commit. Both the benchmark and the root package's
# `ibtool` are built in release in the same scratch folder. --wait-quiet waits, after building,
# until no swift-build or swift-frontend process has been seen for 60 s (polled every 10 s; after
# 25 minutes it measures anyway and the report says the machine was busy). Options after that go
# to interface-bench: --runs N (≥ 20 per file) --loop-rounds N --rounds N --min-time S
# --objects N --corpus DIR --python PATH --keep.
#
# The corpus is the repository's Tests/Fixtures/corpus (or $STASIS_CORPUS). Installs the Python
# `nibarchive` package with pip if it is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/../Support/build-bench.sh"
help_if_asked "$0" -- "$@"

mode=snapshot
revision=HEAD
if [[ "${1:-}" == "--tree" ]]; then
  mode=tree; shift
elif [[ "${1:-}" == "--snapshot" ]]; then
  revision="${2:?--snapshot needs a revision}"; shift 2
fi
wait_quiet=0
if [[ "${1:-}" == "--wait-quiet" ]]; then wait_quiet=1; shift; fi

# 1. Build interface-bench and the root package's ibtool (release, niced).
export_bench Interface "$here/.build-interface-bench" "$mode" "$revision"
# ibtool as Docs/ibtool.md says to install it: the Swift runtime linked in (--static-swift-stdlib),
# which starts a process about 5 ms sooner than loading it from shared libraries. The benchmark
# is built the same way so that the two share one build.
compile_bench interface-bench --static-swift-stdlib
bench="$binary"
compile_bench ibtool --static-swift-stdlib
ibtool="$binary"
if [[ "${1:-}" == "--build-only" ]]; then
  echo "$bench"
  echo "$ibtool"
  exit 0
fi

# 2. The corpus and the Python peer.
corpus="${STASIS_CORPUS:-}"
if [[ -z "$corpus" ]]; then
  for candidate in "$root/Tests/Fixtures/corpus"; do
    if [[ -d "$candidate/xib" ]]; then corpus="$(cd "$candidate" && pwd)"; break; fi
  done
fi
[[ -n "$corpus" && -d "$corpus/xib" ]] || { echo "run.sh: cannot find the corpus (set STASIS_CORPUS)" >&2; exit 2; }
python="${PYTHON:-python3}"
if ! "$python" -c "import nibarchive" 2>/dev/null; then
  echo "installing the Python nibarchive package" >&2
  "$python" -m pip install -q nibarchive >&2 || echo "run.sh: pip install nibarchive failed; Python is left out" >&2
fi

# 3. Wait for a quiet machine (other engineers build on the same 2 cores).
note=""
if [[ "$wait_quiet" == 1 ]]; then
  quiet_polls=0 waited=0
  echo "waiting until no swift-build/swift-frontend process has run for 60 s" >&2
  while (( quiet_polls < 7 )); do
    if pgrep -x swift-build >/dev/null || pgrep -x swift-frontend >/dev/null; then
      quiet_polls=0
    else
      quiet_polls=$((quiet_polls + 1))
    fi
    (( quiet_polls >= 7 )) && break
    if (( waited >= 1500 )); then break; fi
    sleep 10
    waited=$((waited + 10))
  done
  if (( quiet_polls >= 7 )); then
    note="no swift-build or swift-frontend process seen for 60 s before the run (waited ${waited} s)"
  else
    note="machine busy: other engineers' swift-build/swift-frontend kept running through 25 minutes of waiting, measured anyway"
  fi
  echo "$note" >&2
fi

# 4. Run.
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/interface-bench.json}"
"$bench" --ibtool "$ibtool" --corpus "$corpus" --python "$python" \
  --python-script "$here/python/nibarchive_bench.py" --source "$source_note" --note "$note" "$@"
