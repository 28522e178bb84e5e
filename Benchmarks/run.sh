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
# Installs libplist-dev if missing (and cargo and the Rust plist crate's Debian sources, for the Rust
# peer in Benchmarks/RustPeer), generates Benchmarks/data/ if missing, builds release.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

source "$here/Support/build-bench.sh"
help_if_asked "$0" "$here/.build-bench/snapshot-build/release/plist-bench" "$here/.build-bench/tree/release/plist-bench" -- "$@"

mode=snapshot
revision=HEAD
# The command, written beside the figures (Benchmarks/results/plist-bench.json).
export BENCH_COMMAND="Benchmarks/run.sh${*:+ $*}"
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

# 1b. The Rust peer (Benchmarks/RustPeer): the `plist` crate, built offline against Debian's crate
# sources (.cargo/config.toml points crates.io at /usr/share/cargo/registry). Without cargo or the
# crates the Rust columns read n/a.
rust_crates=(librust-plist-dev librust-serde-derive-dev librust-serde-json-dev)
if ! command -v cargo >/dev/null 2>&1 || ! compgen -G "/usr/share/cargo/registry/plist-1.*" >/dev/null \
  || ! compgen -G "/usr/share/cargo/registry/serde_derive-1.*" >/dev/null \
  || ! compgen -G "/usr/share/cargo/registry/serde_json-1.*" >/dev/null; then
  echo "installing cargo and the plist crate's Debian sources" >&2
  sudo_cmd=""
  if [[ "$(id -u)" != 0 ]]; then sudo_cmd="sudo"; fi
  packages=("${rust_crates[@]}")
  command -v cargo >/dev/null 2>&1 || packages+=(cargo)
  $sudo_cmd apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${packages[@]}" >&2 || echo "run.sh: could not install ${packages[*]}" >&2
fi
rust_peer="$here/RustPeer/target/release/plist-rust-peer"
if command -v cargo >/dev/null 2>&1; then
  echo "building the Rust peer (cargo, release, offline)" >&2
  (cd "$here/RustPeer" && nice -n 10 cargo build --release --offline -q >&2) || echo "run.sh: the Rust peer did not build; its columns will read n/a" >&2
fi

# 2. The documents (git-ignored; deterministic, checked by sha256 in manifest.tsv).
data="$here/data"
generator=""
for candidate in "${STASIS_BENCH_GENERATOR:-}" "$root/Tests/Fixtures/bench/gen_data.py"; do
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
  [[ -n "$generator" ]] || { echo "run.sh: cannot find Tests/Fixtures/bench/gen_data.py (set STASIS_BENCH_GENERATOR)" >&2; exit 2; }
  echo "generating $data with $generator" >&2
  python3 "$generator" --out "$data" >&2
fi

# 3. The library to measure (Support/build-bench.sh exports it for a snapshot).
export_bench "" "$here/.build-bench" "$mode" "$revision"
library="$package/.."

# 4. Stasis's Codable coders join the table once they exist.
flags=()
if grep -rqsE "(class|struct) PropertyListDecoder" "$library/Sources/PropertyLists/Codable" \
  && grep -rqsE "(class|struct) PropertyListEncoder" "$library/Sources/PropertyLists/Codable"; then
  flags+=(-Xswiftc -DSTASIS_CODABLE)
fi

# 5. Build (release; niced, the machine is shared).
compile_bench plist-bench "${flags[@]}"

# 6. Run (or, with --build-only, print the binary's path: for profilers, see Docs/benchmarks.md).
if [[ "${1:-}" == "--build-only" ]]; then
  echo "$binary"
  exit 0
fi
peer_flags=()
if [[ -x "$rust_peer" ]]; then peer_flags=(--rust-peer "$rust_peer"); fi
# The figures as JSON for Tools/benchmark-charts.py (BENCH_RESULTS= writes none).
export BENCH_RESULTS="${BENCH_RESULTS-$(cd "$here/results" && pwd)/plist-bench.json}"
"$binary" --data "$data" --source "$source_note" "${peer_flags[@]}" "$@"
