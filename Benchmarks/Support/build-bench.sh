#!/usr/bin/env bash
# Shared by the benchmark packages' run.sh scripts (Benchmarks/ and Bundles, Defaults, Interface, KeyedArchive): builds
# one benchmark product in release against the library and sets two variables for the caller.
#
#   source Benchmarks/Support/build-bench.sh
#   build_bench FOLDER PRODUCT SCRATCH_ROOT MODE     (MODE: snapshot | tree)
#   → $binary (the built executable) and $source_note (what was measured, for the report)
#
#   or in two steps, for a caller that looks at the exported library before building:
#   export_bench FOLDER SCRATCH_ROOT MODE [REVISION] → $package (the benchmark package to build),
#                                                      $scratch and $source_note
#   compile_bench PRODUCT [swift build flags…]       → $binary
#
#   FOLDER "" is Benchmarks/ itself (plist-bench).
#
#   prepare_bench FOLDER PRODUCT SCRATCH_ROOT "$@"   (the run.sh's own arguments)
#   → takes a leading --tree or --snapshot REVISION (default: HEAD), builds, prints the binary and exits on --build-only, and otherwise
#     leaves the arguments that remain in the array $bench_args
#
# snapshot: the library as committed at HEAD, exported with `git archive` into SCRATCH_ROOT and
# copied over the previous export file by file (so the release build stays incremental), so that
# files other engineers are editing cannot break or skew the build. tree: the working tree as it
# is on disk. The benchmark package itself (Benchmarks/FOLDER) is always the one on disk.
# Shared by Benchmarks/run.sh too.

# help_if_asked SCRIPT [BUILT_BINARY…] -- "$@": on --help or -h anywhere in the arguments, prints
# the script's opening comment (its usage) and the options of the first BUILT_BINARY that exists
# (the benchmark's own --help), then exits without building anything.
help_if_asked() {
  local script="$1" candidate argument
  shift
  local binaries=()
  while [[ $# -gt 0 && "$1" != -- ]]; do binaries+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  for argument in "$@"; do
    [[ "$argument" == --help || "$argument" == -h ]] || continue
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$script"
    for candidate in "${binaries[@]+"${binaries[@]}"}"; do
      if [[ -x "$candidate" ]]; then
        echo
        echo "The benchmark's own options ($candidate --help):"
        "$candidate" --help
        exit 0
      fi
    done
    if [[ ${#binaries[@]} -gt 0 ]]; then
      echo
      echo "The benchmark's own options: build it once (--build-only prints its path), then run that binary with --help."
    fi
    exit 0
  done
}

export_bench() {
  local folder="$1" scratch_root="$2" mode="$3" revision="${4:-HEAD}"
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  local relative="Benchmarks${folder:+/$folder}"
  local here="$root/$relative"
  if [[ "$mode" == tree ]]; then
    package="$here"
    scratch="$scratch_root/tree"
    local dirty
    dirty="$(git -C "$root" status --porcelain -- Sources Package.swift | wc -l)"
    source_note="working tree of $(git -C "$root" rev-parse --short HEAD) ($dirty library files with uncommitted changes)"
    # SwiftPM does not always notice library files added or removed since the last build of a
    # path dependency: when the list of source files changed, make it plan again.
    local listing
    mkdir -p "$scratch"
    listing="$(cd "$root" && find Sources Examples -name '*.swift' | sort | cksum)"
    if [[ "$(cat "$scratch/.source-files" 2>/dev/null)" != "$listing" ]]; then
      touch "$root/Package.swift" "$here/Package.swift"
      echo "$listing" > "$scratch/.source-files"
    fi
  else
    local snapshot="$scratch_root/snapshot" export_dir="$scratch_root/export" replan=0 file
    rm -rf "$export_dir"
    mkdir -p "$export_dir/$relative" "$snapshot"
    git -C "$root" archive "$revision" Package.swift Sources Tools Tests Examples $(git -C "$root" ls-tree --name-only "$revision" Plugins) | tar -x -C "$export_dir"
    if [[ -f "$root/Package.resolved" ]]; then cp "$root/Package.resolved" "$export_dir/"; fi
    cp -R "$here/Package.swift" "$here/Sources" "$export_dir/$relative/"
    mkdir -p "$export_dir/Benchmarks/Support/BenchSupport"
    cp -R "$root/Benchmarks/Support/BenchSupport/Package.swift" "$root/Benchmarks/Support/BenchSupport/Sources" \
      "$export_dir/Benchmarks/Support/BenchSupport/"
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
    if [[ "$replan" == 1 ]]; then touch "$snapshot/Package.swift" "$snapshot/$relative/Package.swift"; fi
    package="$snapshot/$relative"
    scratch="$scratch_root/snapshot-build"
    source_note="commit $(git -C "$root" rev-parse --short "$revision") of the library, exported clean"
  fi
}

compile_bench() {
  local product="$1"
  shift
  echo "building $product (release) against the $source_note" >&2
  (cd "$package" && nice -n 10 swift build -c release --scratch-path "$scratch" --product "$product" "$@" >&2)
  binary="$scratch/release/$product"
}

build_bench() {
  export_bench "$1" "$3" "$4" "${5:-HEAD}"
  compile_bench "$2"
}

prepare_bench() {
  local folder="$1" product="$2" scratch_root="$3" mode=snapshot revision=HEAD
  shift 3
  help_if_asked "$0" -- "$@"
  if [[ "${1:-}" == "--tree" ]]; then mode=tree; shift
  elif [[ "${1:-}" == "--snapshot" ]]; then
    [[ $# -ge 2 ]] || { echo "--snapshot needs a revision" >&2; exit 2; }
    revision="$2"; shift 2
  fi
  build_bench "$folder" "$product" "$scratch_root" "$mode" "$revision"
  if [[ "${1:-}" == "--build-only" ]]; then
    echo "$binary"
    exit 0
  fi
  bench_args=("$@")
}
