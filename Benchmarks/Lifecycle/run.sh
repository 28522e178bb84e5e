#!/usr/bin/env bash
# Runs the lifecycle benchmark (lifecycle-bench) and prints a Markdown report on stdout
# (progress on stderr): the cost of a lifecycle notification posted to 1,000 observers through
# ApplicationLifecycle beside Foundation's NotificationCenter alone, and the memory-warning latency
# of the root package's stasis-lifecycle-child in a fresh 160 MiB cgroup, 20 times.
#
#   Benchmarks/Lifecycle/run.sh [--tree | --snapshot REV] [lifecycle-bench options…]
#   Benchmarks/Lifecycle/run.sh [--tree | --snapshot REV] --build-only   (prints the two binaries' paths)
#
# By default the library is measured as committed at HEAD (exported with `git archive`, so that
# files other engineers are editing cannot break or skew the build); --tree measures the working
# tree as it is on disk, --snapshot REV another commit. The benchmark package itself is always the
# one on disk. Both lifecycle-bench and the root package's stasis-lifecycle-child (an executable
# target without a product, so it is built from the root package, which shares the scratch folder
# and its compiled modules) are built in release in the same scratch. Options after that go to
# lifecycle-bench: --observers N --pairs N --fixed-pairs N --min-time S --min-iterations N
# --warm-up S --rounds N --warning-runs N --limit-mib N --allocate MIB --child-timeout S
# --no-notifications --no-warnings --keep.
#
# The warning runs make cgroups under this process's memory cgroup (root, or a delegated cgroup);
# without one they are skipped and the report says why.
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

# A release build inlines code of the modules a target builds on (cross-module optimization), but
# SwiftPM recompiles the target only when a module it names directly changes. The child names
# Lifecycle and InterfaceObjects, not Interface, ObjectModel and the rest below them; when one of
# those changes and Lifecycle's module file comes out the same, the child would keep stale inlined
# code (an object's old size: heap corruption). So: when any library module is newer than the
# product's last compile (its dependency file, written by every compile; the compiler leaves
# object files whose bytes did not change alone), its objects are removed and it is compiled again.
compile_fresh() {
  local product="$1" module="$2" objects stale
  compile_bench "$product"
  objects="$scratch/release/$module.build"
  stale="$(find "$scratch/release/Modules" -maxdepth 1 -name '*.swiftmodule' \
    ! -name "$module.swiftmodule" ! -name 'lifecycle_bench.swiftmodule' ! -name 'stasis_lifecycle_child.swiftmodule' \
    -newer "$objects/$module.d" | head -3)"
  if [[ -n "$stale" ]]; then
    echo "$product is older than $(echo "$stale" | xargs -n1 basename | tr '\n' ' ')— compiling it again" >&2
    rm -f "$objects"/*.o
    compile_bench "$product"
  fi
}

# 1. Build lifecycle-bench, then the child from the root package in the same scratch.
scratch_root="$here/.build-lifecycle-bench"
export_bench Lifecycle "$scratch_root" "$mode" "$revision"
compile_fresh lifecycle-bench lifecycle_bench
bench="$binary"
bench_package="$package"
if [[ "$mode" == tree ]]; then
  package="$root"
else
  # The export holds what the library's targets need, not the root manifest's examples target;
  # as the root package, the snapshot must have every target's folder.
  if git -C "$root" cat-file -e "$revision:Examples" 2>/dev/null; then
    git -C "$root" archive "$revision" Examples | tar -x -C "$scratch_root/snapshot"
  fi
  package="$scratch_root/snapshot"
fi
compile_fresh stasis-lifecycle-child stasis_lifecycle_child
child="$binary"
package="$bench_package"
if [[ "${1:-}" == "--build-only" ]]; then
  echo "$bench"
  echo "$child"
  exit 0
fi

# 2. Run.
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/../results" && pwd)/lifecycle-bench.json}"
"$bench" --child "$child" --source "$source_note" "$@"
