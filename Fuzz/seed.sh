#!/usr/bin/env bash
# Fills the git-ignored seed folders Fuzz/corpus-<target>/ from the shared corpus of Apple-format
# files, sorting each file by its first bytes (a `bplist0` file seeds the binary target even
# when it sits in a folder of XML keyed archives). Nothing here is ever committed.
#
#   Fuzz/seed.sh                   seed every target
#   Fuzz/seed.sh FuzzXMLPlist ...  seed only these targets
#
# STASIS_CORPUS overrides the corpus location (default: ../shared/corpus beside the checkout).
# Files already in a seed folder are kept, so libFuzzer's discoveries survive re-seeding.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="${STASIS_CORPUS:-$here/../../shared/corpus}"
if [[ ! -f "$corpus/README.md" ]]; then
  echo "seed.sh: shared corpus not found at $corpus (set STASIS_CORPUS)" >&2
  exit 1
fi
all_targets=(FuzzBinaryPlist FuzzXMLPlist FuzzOpenStepPlist FuzzStringsFile FuzzJSONPlist FuzzAnyPlist)
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

for target in "${targets[@]}"; do
  case "$target" in
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
    *) echo "seed.sh: unknown target $target (one of: ${all_targets[*]})" >&2; exit 1 ;;
  esac
done
