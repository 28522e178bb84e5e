#!/usr/bin/env bash
# Fills the git-ignored seed folders Fuzz/corpus-<target>/ from the shared corpus of Apple-format
# files, sorting each file by its first bytes (a `bplist0` file seeds the binary target even
# when it sits in a folder of XML keyed archives). Nothing here is ever committed.
#
#   Fuzz/seed.sh                   seed every target
#   Fuzz/seed.sh FuzzXMLPlist ...  seed only these targets
#
# STASIS_CORPUS overrides the corpus location (default: the repository's Tests/Fixtures/corpus).
# Files already in a seed folder are kept, so libFuzzer's discoveries survive re-seeding.
#
# FuzzKeyedUnarchiver reads a mode byte before the archive (see
# Tests/KeyedArchiveFuzzChecks/KeyedFuzzChecks.swift in the root package), so its seeds are the keyed archives with a
# few mode bytes put in front, plus small XML archives of the harness's own test classes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="${STASIS_CORPUS:-$here/../Tests/Fixtures/corpus}"
if [[ ! -f "$corpus/README.md" ]]; then
  echo "seed.sh: shared corpus not found at $corpus (set STASIS_CORPUS)" >&2
  exit 1
fi
all_targets=(FuzzBinaryPlist FuzzXMLPlist FuzzOpenStepPlist FuzzStringsFile FuzzJSONPlist FuzzAnyPlist
  FuzzKeyedUnarchiver FuzzNIBArchive FuzzNibLoader FuzzTypedStream FuzzXibDocument FuzzSnapshot)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

# kind FILE: binary, xml or text, from the first bytes (after a UTF-8 byte-order mark and blanks).
kind() {
  local head
  head="$(head -c 256 "$1" | LC_ALL=C tr -d '\000' | sed -e '1s/^\xEF\xBB\xBF//' | LC_ALL=C tr -d ' \t\r\n' | head -c 16)"
  case "$head" in
    bplist0*) echo binary ;;
    "<?xml"* | "<!DOCTYPE"* | "<plist"*) echo xml ;;
    *) echo text ;;
  esac
}

# copy TARGET KIND FOLDER...: every file of KIND under the folders into corpus-TARGET/.
copy() {
  local target="$1" wanted="$2"
  shift 2
  local destination="$here/corpus-$target" folder file name count=0
  mkdir -p "$destination"
  for folder in "$@"; do
    [[ -d "$corpus/$folder" ]] || continue
    while IFS= read -r -d '' file; do
      [[ "$(basename "$file")" == MANIFEST.tsv ]] && continue
      [[ "$wanted" == any || "$(kind "$file")" == "$wanted" ]] || continue
      name="${file#"$corpus"/}"
      cp -n "$file" "$destination/seed_${name//\//_}"
      count=$((count + 1))
    done < <(find "$corpus/$folder" -type f -print0 | sort -z)
  done
  echo "$target: $count seed files from $* ($wanted) in corpus-$target/"
}

# Mode bytes for keyed-archive seeds: 00 plain decodeObject, 01 the same in secure mode,
# 0d secure decodeObject(of:) with many types, 12 plain decode(KeyedFuzzNode) with the
# cannotDecodeClass delegate.
keyed_modes=(00 01 0d 12 40 41)  # 0x40: the archived form kept (preservesArchivedForm)

# copy_keyed FOLDER...: every file under the folders, once per mode byte, into corpus-FuzzKeyedUnarchiver/.
copy_keyed() {
  local destination="$here/corpus-FuzzKeyedUnarchiver" folder file name mode count=0
  mkdir -p "$destination"
  for folder in "$@"; do
    [[ -d "$corpus/$folder" ]] || continue
    while IFS= read -r -d '' file; do
      [[ "$(basename "$file")" == MANIFEST.tsv ]] && continue
      name="${file#"$corpus"/}"
      for mode in "${keyed_modes[@]}"; do
        [[ -e "$destination/seed_${mode}_${name//\//_}" ]] && continue
        { printf "\\x$mode"; cat "$file"; } > "$destination/seed_${mode}_${name//\//_}"
      done
      count=$((count + 1))
    done < <(find "$corpus/$folder" -type f -print0 | sort -z)
  done
  echo "FuzzKeyedUnarchiver: $count archives from $* (x ${#keyed_modes[@]} mode bytes) in corpus-FuzzKeyedUnarchiver/"
}

# typed_stream_seeds: every corpus file that starts with a typedstream header (a version byte,
# 0x0b and streamtyped or typedstream) into corpus-FuzzTypedStream/.
typed_stream_seeds() {
  local destination="$here/corpus-FuzzTypedStream" file name count=0
  mkdir -p "$destination"
  while IFS= read -r -d '' file; do
    case "$(head -c 13 "$file" | tail -c 11 | LC_ALL=C tr -d '\000')" in
      streamtyped | typedstream) ;;
      *) continue ;;
    esac
    name="${file#"$corpus"/}"
    cp -n "$file" "$destination/seed_${name//\//_}"
    count=$((count + 1))
  done < <(find "$corpus" -type f -size -1024k -print0 | sort -z)
  echo "FuzzTypedStream: $count typedstream seed files in corpus-FuzzTypedStream/"
}

# keyed_test_archive ROOT_UID: an XML keyed archive of the harness's classes: a KeyedFuzzNode (1)
# whose link is itself and whose children array holds itself, with a KeyedFuzzLeaf (6) as extra;
# the leaf's owner is the node and its point a KeyedFuzzPoint (8). $top.root is ROOT_UID.
keyed_test_archive() {
  uid() { printf '<dict><key>CF$UID</key><integer>%s</integer></dict>' "$1"; }
  class() { printf '<dict><key>$classname</key><string>%s</string><key>$classes</key><array><string>%s</string><string>NSObject</string></array></dict>\n' "$1" "$1"; }
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
  printf '<plist version="1.0">\n<dict>\n<key>$archiver</key><string>NSKeyedArchiver</string>\n<key>$objects</key>\n<array>\n'
  printf '<string>$null</string>\n'
  printf '<dict><key>$class</key>%s<key>name</key>%s<key>link</key>%s<key>children</key>%s<key>extra</key>%s</dict>\n' \
    "$(uid 5)" "$(uid 2)" "$(uid 1)" "$(uid 3)" "$(uid 6)"
  printf '<string>root node</string>\n'
  printf '<dict><key>$class</key>%s<key>NS.objects</key><array>%s</array></dict>\n' "$(uid 4)" "$(uid 1)"
  class NSArray
  class KeyedFuzzNode
  printf '<dict><key>$class</key>%s<key>count</key><integer>3</integer><key>flag</key><true/><key>ratio</key><real>0.5</real><key>bytes</key><data>AAEC</data><key>label</key>%s<key>owner</key>%s<key>point</key>%s</dict>\n' \
    "$(uid 7)" "$(uid 2)" "$(uid 1)" "$(uid 8)"
  class KeyedFuzzLeaf
  printf '<dict><key>$class</key>%s<key>x</key><real>1.5</real><key>y</key><real>2.5</real><key>small</key><integer>7</integer><key>tag</key>%s<key>leaf</key>%s</dict>\n' \
    "$(uid 9)" "$(uid 2)" "$(uid 0)"
  class KeyedFuzzPoint
  printf '</array>\n<key>$top</key><dict><key>root</key>%s</dict>\n<key>$version</key><integer>100000</integer>\n</dict>\n</plist>\n' "$(uid "$1")"
}

for target in "${targets[@]}"; do
  case "$target" in
    FuzzSnapshot)
      # Restoration snapshots: the repo's format-1 and format-2 examples, and the saves the sample
      # app writes (the current format) when it has been built (swift build; its saves are what
      # the kill harness reads).
      mkdir -p "$here/corpus-FuzzSnapshot"
      cp -n "$here/../Examples/Notes.savedState/data.archive" "$here/corpus-FuzzSnapshot/seed_format1_notes.archive"
      cp -n "$here/../Examples/Snapshots/format2.archive" "$here/corpus-FuzzSnapshot/seed_format2_sample.archive"
      child="$(find "$here/.." -path '*/debug/stasis-restoration-child' -type f 2>/dev/null | head -1)"
      if [[ -n "$child" ]]; then
        scratch="$(mktemp -d)"
        timeout 30 "$child" --folder "$scratch" --saves 3 --seed 5 > /dev/null 2>&1 || true
        for file in "$scratch"/*.archive; do [[ -f "$file" ]] && cp -n "$file" "$here/corpus-FuzzSnapshot/seed_current_$(basename "$file")"; done
        rm -rf "$scratch"
      fi
      echo "FuzzSnapshot: $(ls "$here/corpus-FuzzSnapshot" | wc -l) seed files in corpus-FuzzSnapshot/"
      ;;
    FuzzBinaryPlist) copy "$target" binary bplist keyedarchive openstep xmlplist ;;
    FuzzXMLPlist) copy "$target" xml xmlplist keyedarchive strings ;;
    FuzzOpenStepPlist) copy "$target" text openstep strings ;;
    FuzzStringsFile) copy "$target" text strings openstep ;;
    FuzzJSONPlist)
      # The shared corpus holds no JSON property lists; start from a few small documents of ours
      # (libFuzzer and the JSON dictionary grow the rest).
      mkdir -p "$here/corpus-FuzzJSONPlist"
      printf '%s' '{"name": "Stasis", "count": 3, "ratio": -0.25e+2, "ok": true, "no": false}' \
        > "$here/corpus-FuzzJSONPlist/seed_object.json"
      printf '%s' '[1, [2, [3, []]], {"": {}}, "tab\t\u00e9\ud83d\ude00\"\\\/", 18446744073709551615, -9223372036854775808]' \
        > "$here/corpus-FuzzJSONPlist/seed_array.json"
      printf '%s' '  "just a string"  ' > "$here/corpus-FuzzJSONPlist/seed_string.json"
      printf '%s' '1.5e308' > "$here/corpus-FuzzJSONPlist/seed_number.json"
      echo "FuzzJSONPlist: 4 seed documents written in corpus-FuzzJSONPlist/"
      ;;
    FuzzAnyPlist) copy "$target" any bplist xmlplist openstep strings keyedarchive ;;
    FuzzNIBArchive) copy "$target" text nib ;;   # NIBArchives sniff as "text"; keyed-archive nibs are left out
    FuzzNibLoader) copy "$target" text nib ;;    # the same compiled nibs, instantiated
    FuzzTypedStream) typed_stream_seeds ;;        # NeXT typedstream nibs (by their signature)
    FuzzXibDocument) copy "$target" xml xib ios_pairs ;;   # the .xib and .storyboard files (all start with <?xml)
    FuzzKeyedUnarchiver)
      copy_keyed keyedarchive
      # The harness's own classes: the node (mode 02: decode(KeyedFuzzNode), 03: the same,
      # secure), the leaf (04: decode(KeyedFuzzLeaf)) and the point (07: decode(KeyedFuzzPoint), secure).
      for seed in 1:02 1:03 1:0c 6:04 6:0d 8:07; do
        { printf "\\x${seed#*:}"; keyed_test_archive "${seed%%:*}"; } \
          > "$here/corpus-FuzzKeyedUnarchiver/seed_${seed#*:}_harness_root${seed%%:*}.plist"
      done
      echo "FuzzKeyedUnarchiver: 6 archives of the harness's classes written in corpus-FuzzKeyedUnarchiver/"
      ;;
    *) echo "seed.sh: unknown target $target (one of: ${all_targets[*]})" >&2; exit 1 ;;
  esac
done
