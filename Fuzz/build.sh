#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer.
#
#   Fuzz/build.sh                  build against the working tree (Fuzz/.. as it is on disk)
#   Fuzz/build.sh --snapshot [REV] build against a clean export of REV (default HEAD), so that
#                                  files other people are editing cannot break or skew the build
#   Fuzz/build.sh ... --product FuzzXMLPlist   extra arguments go to `swift build`
#
# Binaries land in Fuzz/.build-fuzz/release/ (working tree) or
# Fuzz/.build-fuzz/snapshot/Fuzz/.build-fuzz/release/ (snapshot); the path is printed at the end.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$here"
if [[ "${1:-}" == "--snapshot" ]]; then
  shift
  revision="HEAD"
  if [[ $# -gt 0 && "$1" != -* ]]; then revision="$1"; shift; fi
  snapshot="$here/.build-fuzz/snapshot"
  rm -rf "$snapshot"
  mkdir -p "$snapshot"
  # The library at REV; the fuzz package itself always as it is on disk (it may be newer).
  git -C "$here/.." archive "$revision" | tar -x -C "$snapshot"
  rm -rf "$snapshot/Fuzz"
  mkdir -p "$snapshot/Fuzz"
  cp -R "$here/Package.swift" "$here/Sources" "$snapshot/Fuzz/"
  echo "building against $(git -C "$here/.." rev-parse --short "$revision") exported to $snapshot"
  package="$snapshot/Fuzz"
fi
cd "$package"
nice -n 10 swift build -c release --scratch-path "$package/.build-fuzz" \
  -Xswiftc -sanitize=fuzzer,address "$@"
echo "fuzzers: $package/.build-fuzz/release"
