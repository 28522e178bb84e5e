#!/usr/bin/env bash
# Builds gnustep-archive-peer (GNUstep Base's NSKeyedArchiver on GRAPH.md's item-store graph) into
# OUTPUT-DIR (default: this folder's build/) and prints the executable's path. Needs gobjc and
# libgnustep-base-dev (Debian); exits 3 with a message when gnustep-config is missing.
#
#   Benchmarks/GNUstepPeer/build.sh [OUTPUT-DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/build}"
if ! command -v gnustep-config >/dev/null 2>&1; then
  echo "gnustep-config not found: apt-get install gobjc libgnustep-base-dev" >&2
  exit 3
fi
mkdir -p "$out"
binary="$out/gnustep-archive-peer"
if [[ ! -x "$binary" || "$here/main.m" -nt "$binary" || "$here/graph.m" -nt "$binary" || "$here/graph.h" -nt "$binary" ]]; then
  # shellcheck disable=SC2046
  gcc -std=gnu11 -O2 -Wall -Werror $(gnustep-config --objc-flags) -fobjc-exceptions -o "$binary.tmp" "$here/main.m" "$here/graph.m" \
    $(gnustep-config --base-libs) >&2
  mv "$binary.tmp" "$binary"
fi
echo "$binary"
