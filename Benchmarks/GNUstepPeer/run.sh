#!/usr/bin/env bash
# Runs GNUstep Base's NSKeyedArchiver on GRAPH.md's item-store graph at each size and prints the
# peer's tab-separated cells (gnustep-archive-peer bench, main.m). GNUstep's binary writer is
# quadratic, so the binary unarchive cell reads the graph's archive written by GNUstep as XML and
# converted to binary by Python's plistlib.
#
#   Benchmarks/GNUstepPeer/run.sh [--sizes 10000,100000] [--min-time S] [--warm-up S]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sizes=10000,100000 min_time=1.0 warm_up=0.2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --min-time) min_time="$2"; shift 2 ;;
    --warm-up) warm_up="$2"; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done
peer="$("$here/build.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for count in ${sizes//,/ }; do
  "$peer" write xml "$count" "$work/graph.xml" objc-names
  python3 -c 'import plistlib, sys
with open(sys.argv[1], "rb") as source, open(sys.argv[2], "wb") as target:
    target.write(plistlib.dumps(plistlib.load(source), fmt=plistlib.FMT_BINARY))' "$work/graph.xml" "$work/graph.bplist"
  "$peer" bench "$count" "$min_time" "$warm_up" "$work/graph.bplist"
done
