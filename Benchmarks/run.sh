#!/usr/bin/env bash
# Runs the property-list benchmark and prints a Markdown report on stdout (progress on stderr).
#
#   Benchmarks/run.sh [--tree | --snapshot REV] [plist-bench options…]
#   Benchmarks/run.sh [--tree | --snapshot REV] --build-only      (prints the binary's path)
#
# By default the library is measured as committed at HEAD (a clean export, so that files other
# engineers are editing cannot break or skew the build); --tree measures the working tree as it is
# on disk, --snapshot REV another commit. The benchmark package itself is always the one on disk.
# Options after that go to plist-bench (see Docs/benchmarks.md), e.g. --datasets small --min-time 0.3.
#
# Installs libplist-dev if missing, generates Benchmarks/data/ if missing, builds release.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

mode=snapshot
revision=HEAD
if [[ "${1:-}" == "--tree" ]]; then
  mode=tree; shift
elif [[ "${1:-}" == "--snapshot" ]]; then
  revision="${2:?--snapshot needs a revision}"; shift 2
fi

# 1. libplist, the C peer.
if ! pkg-config --exists libplist-2.0 2>/dev/null; then
  echo "installing libplist-dev" >&2
  sudo_cmd=""
  if [[ "$(id -u)" != 0 ]]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq libplist-dev pkg-config >&2
fi

# 2. The documents (git-ignored; deterministic, checked by sha256 in manifest.tsv).
data="$here/data"
generator=""
for candidate in "${STASIS_BENCH_GENERATOR:-}" "$root/../shared/bench/gen_data.py" /work/shared/bench/gen_data.py; do
  if [[ -n "$candidate" && -f "$candidate" ]]; then generator="$candidate"; break; fi
done
missing=0
for name in small medium large; do
  for ext in bplist xml; do
    [[ -f "$data/plist-$name.$ext" ]] || missing=1
  done
done
[[ -f "$data/manifest.tsv" ]] || missing=1
if [[ "$missing" == 1 ]]; then
  [[ -n "$generator" ]] || { echo "run.sh: cannot find shared/bench/gen_data.py (set STASIS_BENCH_GENERATOR)" >&2; exit 2; }
  echo "generating $data with $generator" >&2
  python3 "$generator" --out "$data" >&2
fi

# 3. The library to measure.
if [[ "$mode" == tree ]]; then
  package="$here"
  scratch="$here/.build-bench/tree"
  source_note="working tree of $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?') (uncommitted changes included)"
else
  snapshot="$here/.build-bench/snapshot"
  export_dir="$here/.build-bench/export"
  rm -rf "$export_dir"
  mkdir -p "$export_dir" "$snapshot"
  git -C "$root" archive "$revision" Package.swift Sources Tools Tests | tar -x -C "$export_dir"
  [[ -f "$root/Package.resolved" ]] && cp "$root/Package.resolved" "$export_dir/"
  mkdir -p "$export_dir/Benchmarks"
  cp -R "$here/Package.swift" "$here/Sources" "$export_dir/Benchmarks/"
  mkdir -p "$export_dir/Benchmarks/Support/BenchSupport"
  cp -R "$here/Support/BenchSupport/Package.swift" "$here/Support/BenchSupport/Sources" "$export_dir/Benchmarks/Support/BenchSupport/"
  # Copy only what changed, so that the release build stays incremental between runs.
  changed="$here/.build-bench/files-added-or-removed"
  rm -f "$changed"
  (cd "$export_dir" && find . -type f) | while read -r file; do
    if ! cmp -s "$export_dir/$file" "$snapshot/$file"; then
      [[ -f "$snapshot/$file" ]] || touch "$changed"
      mkdir -p "$(dirname "$snapshot/$file")"
      cp "$export_dir/$file" "$snapshot/$file"
    fi
  done
  (cd "$snapshot" && find . -type f -not -path './Benchmarks/.build*' -not -path './.build*') | while read -r file; do
    if [[ ! -f "$export_dir/$file" ]]; then rm -f "$snapshot/$file"; touch "$changed"; fi
  done
  rm -rf "$export_dir"
  # SwiftPM does not always notice files added to or removed from a path dependency: make it
  # plan the build again.
  if [[ -f "$changed" ]]; then
    touch "$snapshot/Package.swift" "$snapshot/Benchmarks/Package.swift"
    rm -f "$changed"
  fi
  package="$snapshot/Benchmarks"
  scratch="$here/.build-bench/snapshot-build"
  source_note="commit $(git -C "$root" rev-parse --short "$revision") of the library, exported clean"
fi
library="$package/.."

# 4. Stasis's Codable coders join the table once they exist.
flags=()
if grep -rqsE "(class|struct) PropertyListDecoder" "$library/Sources/PropertyLists/Codable" \
  && grep -rqsE "(class|struct) PropertyListEncoder" "$library/Sources/PropertyLists/Codable"; then
  flags+=(-Xswiftc -DSTASIS_CODABLE)
fi

# 5. Build (release; niced, the machine is shared).
echo "building plist-bench (release) against the $source_note" >&2
(cd "$package" && nice -n 10 swift build -c release --scratch-path "$scratch" --product plist-bench "${flags[@]}" >&2)
binary="$scratch/release/plist-bench"

# 6. Run (or, with --build-only, print the binary's path: for profilers, see Docs/benchmarks.md).
if [[ "${1:-}" == "--build-only" ]]; then
  echo "$binary"
  exit 0
fi
"$binary" --data "$data" --source "$source_note" "$@"
