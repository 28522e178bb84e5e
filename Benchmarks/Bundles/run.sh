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
root="$(cd "$here/../.." && pwd)"
scratch_root="$here/.build-bundles-bench"

mode=snapshot
if [[ "${1:-}" == "--tree" ]]; then mode=tree; shift; fi

if [[ "$mode" == tree ]]; then
  package="$here"
  scratch="$scratch_root/tree"
  dirty="$(git -C "$root" status --porcelain -- Sources Package.swift | wc -l)"
  source_note="working tree of $(git -C "$root" rev-parse --short HEAD) ($dirty library files with uncommitted changes)"
else
  snapshot="$scratch_root/snapshot"
  export_dir="$scratch_root/export"
  rm -rf "$export_dir"
  mkdir -p "$export_dir/Benchmarks/Bundles" "$snapshot"
  git -C "$root" archive HEAD Package.swift Sources Tools Tests | tar -x -C "$export_dir"
  cp -R "$here/Package.swift" "$here/Sources" "$export_dir/Benchmarks/Bundles/"
  # Copy only what changed, so that the release build stays incremental between runs.
  replan=0
  while read -r file; do
    if ! cmp -s "$export_dir/$file" "$snapshot/$file"; then
      [[ -f "$snapshot/$file" ]] || replan=1
      mkdir -p "$(dirname "$snapshot/$file")"
      cp "$export_dir/$file" "$snapshot/$file"
    fi
  done < <(cd "$export_dir" && find . -type f)
  while read -r file; do
    if [[ ! -f "$export_dir/$file" ]]; then rm -f "$snapshot/$file"; replan=1; fi
  done < <(cd "$snapshot" && find . -type f -not -path '*/.build*')
  rm -rf "$export_dir"
  # SwiftPM does not always notice files added to or removed from a path dependency.
  if [[ "$replan" == 1 ]]; then touch "$snapshot/Package.swift" "$snapshot/Benchmarks/Bundles/Package.swift"; fi
  package="$snapshot/Benchmarks/Bundles"
  scratch="$scratch_root/snapshot-build"
  source_note="commit $(git -C "$root" rev-parse --short HEAD) of the library, exported clean"
fi

echo "building bundle-bench (release) against the $source_note" >&2
(cd "$package" && nice -n 10 swift build -c release --scratch-path "$scratch" --product bundle-bench >&2)
binary="$scratch/release/bundle-bench"

if [[ "${1:-}" == "--build-only" ]]; then
  echo "$binary"
  exit 0
fi
"$binary" --source "$source_note" "$@"
