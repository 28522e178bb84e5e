#!/usr/bin/env bash
# Runs one fuzz target in the background-friendly way the team uses: one job, low priority,
# seeded corpus, the format's dictionary, a log and crash artifacts under Fuzz/logs/.
#
#   Fuzz/run.sh TARGET [SECONDS] [more libFuzzer flags]
#
# SECONDS defaults to 600. The binary is taken from FUZZ_BIN_DIR, else from the snapshot build
# (Fuzz/build.sh --snapshot), else from the working-tree build (Fuzz/build.sh).
# Output: Fuzz/logs/TARGET/<time>/fuzz-0.log, crash-*/leak-*/timeout-* files beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${1:?usage: run.sh TARGET [SECONDS] [libFuzzer flags]}"
seconds="${2:-600}"
shift $(( $# >= 2 ? 2 : 1 ))
bin_dir="${FUZZ_BIN_DIR:-}"
if [[ -z "$bin_dir" ]]; then
  for candidate in "$here/.build-fuzz/snapshot/Fuzz/.build-fuzz/release" "$here/.build-fuzz/release"; do
    if [[ -x "$candidate/$target" ]]; then bin_dir="$candidate"; break; fi
  done
fi
binary="$bin_dir/$target"
[[ -x "$binary" ]] || { echo "run.sh: no $target binary; run Fuzz/build.sh first" >&2; exit 1; }

"$here/seed.sh" "$target"
out="$here/logs/$target/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
case "$target" in
  FuzzBinaryPlist) dict="$here/dictionaries/bplist.dict" ;;
  FuzzXMLPlist) dict="$here/dictionaries/xml.dict" ;;
  FuzzOpenStepPlist) dict="$here/dictionaries/openstep.dict" ;;
  FuzzStringsFile) dict="$here/dictionaries/strings.dict" ;;
  FuzzJSONPlist) dict="$here/dictionaries/json.dict" ;;
  FuzzAnyPlist) dict="$out/all.dict"; cat "$here"/dictionaries/*.dict > "$dict" ;;
  FuzzKeyedUnarchiver | FuzzSnapshot) dict="$here/dictionaries/keyedarchive.dict" ;;
  FuzzNIBArchive | FuzzNibLoader) dict="$here/dictionaries/nib.dict" ;;
  FuzzTypedStream) dict="$here/dictionaries/typedstream.dict" ;;
  FuzzXibDocument) dict="$here/dictionaries/xib.dict" ;;
  *) echo "run.sh: unknown target $target" >&2; exit 1 ;;
esac

echo "$target: $seconds s, log $out/fuzz-0.log"
cd "$out"  # -jobs writes fuzz-<n>.log into the current folder
status=0
nice -n 10 "$binary" -max_len=65536 -max_total_time="$seconds" -jobs=1 -timeout=10 -rss_limit_mb=2560 \
  -dict="$dict" -artifact_prefix="$out/" -print_final_stats=1 "$@" "$here/corpus-$target" || status=$?
echo "$target: exit status $status"
grep -h -E "INITED|DONE|stat::|ERROR|SUMMARY|Fatal error|round-trip failure" "$out/fuzz-0.log" | tail -15 || true
ls "$out" | grep -E "^(crash|leak|timeout|oom|slow-unit)-" || echo "$target: no artifacts"
