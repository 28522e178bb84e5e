#!/usr/bin/env bash
# The fault-injection harness: every write path of Stasis's tools run in a real process under
# Tools/faultshim (an LD_PRELOAD library), which fails the Nth file-system call under the
# scenario's folder with EIO, ENOSPC, EACCES, EINTR or a short write, or SIGKILLs the process just
# before it — for every N. After each trial:
#
#   - exit 0 means the whole, correct new output (the target byte-identical to a clean run's);
#   - a failure exits non-zero with a message naming the file that failed, and the target is
#     byte-identical to before or to the correct new content (never torn, never missing);
#   - a kill leaves the target as before or as the new content;
#   - the next clean run succeeds, and after it the folder is exactly what a clean run leaves
#     (whatever the failed run left, the next run swept).
#
#   Tools/fault-harness.sh [--quick] [--seed N] [--bin DIR] [--only SCENARIO[,…]] [--modes M,…]
#
# Modes: EIO, ENOSPC, EACCES, EINTR, SHORT (a write writes half its bytes) and KILL go through the
# shim, one trial per counted call. Three more put the watched folder in a real condition for one
# trial each (they need root, as the acceptance check and the developer containers run; without
# root they are reported as skipped):
#
#   FULL     the folder on a small tmpfs (64 KiB more than twice its files), filled to the last block
#   ROFS     the folder on a tmpfs remounted read-only
#   NOWRITE  the folder the write lands in (its files stay writable) without write permission
#            (mode 0555), the tool run as the unprivileged user nobody (root ignores the bits)
#
# after which the condition is lifted (filler removed, remounted read-write, permission back) for
# the clean rerun.
#
# --quick tries a seeded subset of the shim's points (4 per scenario and mode; the real
# conditions always run): the test suite runs that (FaultHarnessTests); without it every point is
# tried. Prints one table row per scenario × mode: points tried (of all), violations, debris left
# after the clean rerun, run time. Exit 1 on any violation or debris. The details of each
# violation go to $FAULT_LOG (default /tmp/fault-harness.log).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
seed=1
bin=""
only=""
modes="EIO,ENOSPC,EACCES,EINTR,SHORT,KILL,FULL,ROFS,NOWRITE"
per_quick=4
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) quick=1 ;;
  --seed) seed=$2; shift ;;
  --bin) bin=$2; shift ;;
  --only) only=$2; shift ;;
  --modes) modes=$2; shift ;;
  --per) per_quick=$2; shift ;;
  *) echo "usage: $0 [--quick] [--seed N] [--bin DIR] [--only S,…] [--modes M,…] [--per N]" >&2; exit 64 ;;
  esac
  shift
done
if [ -z "$bin" ]; then
  bin=$(cd "$root" && swift build --show-bin-path 2>/dev/null) || { echo "no build folder; pass --bin" >&2; exit 2; }
fi
for tool in plutil defaults ibtool stasis-restoration-child stasis-crash-writer; do
  [ -x "$bin/$tool" ] || { echo "missing $bin/$tool (swift build first)" >&2; exit 2; }
done
log=${FAULT_LOG:-/tmp/fault-harness.log}
: >"$log"
work=$(mktemp -d "${TMPDIR:-/tmp}/fault-harness.XXXXXX")
# NOWRITE runs the tools as nobody, who must reach the trial folders.
chmod 755 "$work"
unmount_under() { awk -v w="$1/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done; }
trap 'unmount_under "$work"; rm -rf "$work"' EXIT
shim="$work/faultshim.so"
"$root/Tools/faultshim/build.sh" "$shim" >/dev/null || { echo "cannot build the shim" >&2; exit 2; }
fixtures="$root/Tests/Fixtures/fault-harness"

# ---------------------------------------------------------------------------------------------
# Scenarios. Each has: setup_S DIR (makes DIR/in, the inputs, and DIR/w, the watched folder, in
# its state before the write), run_S DIR (the write, run from DIR), target_S (the path under w
# compared with the old and new content; a folder is compared whole), names_S (an extended regex
# a failure message must match: the file that failed).
# ---------------------------------------------------------------------------------------------
scenarios="plutil-inplace plutil-output atomic-files defaults-write defaults-import defaults-delete ibtool-nib ibtool-storyboardc restoration homepwner-items homepwner-images"

setup_plutil-inplace() { mkdir -p "$1/in" "$1/w"; cp "$fixtures/Info.plist" "$1/w/Info.plist"; }
run_plutil-inplace() { tool "$bin/plutil" -convert binary1 w/Info.plist; }
target_plutil-inplace() { echo Info.plist; }
names_plutil-inplace() { echo 'w/Info\.plist'; }
folder_plutil-inplace() { echo .; }

setup_plutil-output() {
  mkdir -p "$1/in" "$1/w/out"
  "$bin/plutil" -convert binary1 -o "$1/in/Info.bplist" "$fixtures/Info.plist"
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict/>\n</plist>\n' >"$1/w/out/Info.plist"
}
run_plutil-output() { tool "$bin/plutil" -convert xml1 -o w/out/Info.plist in/Info.bplist; }
target_plutil-output() { echo out/Info.plist; }
names_plutil-output() { echo 'w/out/Info\.plist'; }
folder_plutil-output() { echo out; }

setup_atomic-files() { mkdir -p "$1/in" "$1/w/files"; "$bin/stasis-crash-writer" --mode files --folder "$1/w/files" --versions 1 >/dev/null; }
run_atomic-files() { tool "$bin/stasis-crash-writer" --mode files --folder w/files --versions 1; }
target_atomic-files() { echo files; }
# Four files written one after the other, each atomically: each is old or new, the folder may mix.
perfile_atomic-files() { :; }
# Each run writes the next version: a rerun's content is not the golden run's.
advancing_atomic-files() { :; }
names_atomic-files() { echo 'w/files/(small|large)\.(raw|plist)'; }
folder_atomic-files() { echo files; }

domain=com.example.harness
prefs="containers/$domain/Library/Preferences/$domain.plist"
defaults_env() { STASIS_CONTAINERS_ROOT="$PWD/w/containers" HOME="$PWD/w/home" "$@"; }
# A tool run with a time limit (a hang is a failure, not a stuck harness).
tool() { timeout 120 $as_user "$@"; }
setup_defaults() {
  mkdir -p "$1/in" "$1/w/home"
  (cd "$1" && defaults_env "$bin/defaults" write $domain Kept -string kept && defaults_env "$bin/defaults" write $domain Key -string old) >/dev/null
}
setup_defaults-write() { setup_defaults "$1"; }
run_defaults-write() { defaults_env tool "$bin/defaults" write $domain Key -string new; }
target_defaults-write() { echo "$prefs"; }
names_defaults-write() { echo "$domain"; }
folder_defaults-write() { dirname "$prefs"; }

setup_defaults-import() { setup_defaults "$1"; cp "$fixtures/Info.plist" "$1/in/import.plist"; }
run_defaults-import() { defaults_env tool "$bin/defaults" import $domain in/import.plist; }
target_defaults-import() { echo "$prefs"; }
names_defaults-import() { echo "$domain"; }
folder_defaults-import() { dirname "$prefs"; }

setup_defaults-delete() { setup_defaults "$1"; }
run_defaults-delete() { defaults_env tool "$bin/defaults" delete $domain Key; }
target_defaults-delete() { echo "$prefs"; }
# Deleting a key that is gone fails: a rerun after a trial that deleted it may fail.
once_defaults-delete() { :; }
names_defaults-delete() { echo "$domain"; }
folder_defaults-delete() { dirname "$prefs"; }

setup_ibtool-nib() {
  mkdir -p "$1/in" "$1/w"
  cp "$fixtures/window.xib" "$1/in/new.xib"
  "$bin/ibtool" --compile "$1/w/out.nib" "$fixtures/menu.xib" >/dev/null
}
run_ibtool-nib() { tool "$bin/ibtool" --compile w/out.nib in/new.xib; }
target_ibtool-nib() { echo out.nib; }
names_ibtool-nib() { echo 'w/out\.nib'; }
folder_ibtool-nib() { echo .; }

setup_ibtool-storyboardc() {
  mkdir -p "$1/in" "$1/w"
  cp "$fixtures/basic.storyboard" "$1/in/new.storyboard"
  "$bin/ibtool" --compile "$1/w/out.storyboardc" "$fixtures/textview.storyboard" >/dev/null
}
run_ibtool-storyboardc() { tool "$bin/ibtool" --compile w/out.storyboardc in/new.storyboard; }
target_ibtool-storyboardc() { echo out.storyboardc; }
names_ibtool-storyboardc() { echo 'w/out\.storyboardc'; }
folder_ibtool-storyboardc() { echo .; }

# Restoration: two saves made cleanly; the trial restores them and saves once more. Its target is
# the state a clean relaunch restores (STATE lines), not bytes (a snapshot holds its save time).
setup_restoration() {
  mkdir -p "$1/in" "$1/w/state"
  "$bin/stasis-restoration-child" --folder "$1/w/state" --saves 2 --seed 5 --items 20 >"$1/in/setup.out"
}
run_restoration() { tool "$bin/stasis-restoration-child" --folder w/state --saves 1 --seed 6 --items 20 >out.txt; }
target_restoration() { echo state; }
names_restoration() { echo 'state/(data|previous)\.archive|savedState|w/state'; }
folder_restoration() { echo state; }

# Homepwner's stores, through stasis-crash-writer's homepwner mode: the item store launched and
# its list made 10 items (of 12) with new fields, then saved; the image store replacing 4 photos
# and deleting 2.
homepwner() { "$1" "$bin/stasis-crash-writer" --mode homepwner --documents "$2" --what "$3" --count "$4" --seed "$5"; }
setup_homepwner-items() { mkdir -p "$1/in" "$1/w/Documents"; homepwner command "$1/w/Documents" items 12 1 >/dev/null; }
run_homepwner-items() { homepwner tool w/Documents items 10 2; }
target_homepwner-items() { echo Documents/items.archive; }
names_homepwner-items() { echo 'w/Documents/items\.archive'; }
folder_homepwner-items() { echo Documents; }

setup_homepwner-images() { mkdir -p "$1/in" "$1/w/Documents"; homepwner command "$1/w/Documents" images 6 1 >/dev/null; }
run_homepwner-images() { homepwner tool w/Documents images 4 2; }
target_homepwner-images() { echo Documents; }
# Six photos replaced or deleted one after the other, each atomically: each is old or new.
perfile_homepwner-images() { :; }
names_homepwner-images() { echo 'w/Documents/item-[0-9]+\.image'; }
folder_homepwner-images() { echo Documents; }

# ---------------------------------------------------------------------------------------------
# The real conditions (FULL, ROFS, NOWRITE): put the trial's watched folder w in it, and lift it.
as_user=""
can_mount=0
if [ "$(id -u)" = 0 ]; then
  probe="$work/mount-probe"
  mkdir -p "$probe" && mount -t tmpfs -o size=64k tmpfs "$probe" 2>/dev/null && umount "$probe" && can_mount=1
  rmdir "$probe" 2>/dev/null
fi
is_condition() { [[ "$1" =~ ^(FULL|ROFS|NOWRITE)$ ]]; }
condition_available() { # MODE
  case $1 in
  FULL | ROFS) [ "$can_mount" = 1 ] ;;
  NOWRITE) [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null ;;
  esac
}
impose() { # TRIAL MODE
  local trial=$1 kb
  case $2 in
  FULL | ROFS)
    mv "$trial/w" "$trial/w.orig" && mkdir "$trial/w" || return 1
    # 64 KiB more than twice what the files take in 4 KiB pages (the clean rerun, once the
    # filler is gone, needs room for a new copy beside the old one).
    kb=$((2 * $(find "$trial/w.orig" -mindepth 1 -printf '%s\n' | awk '{ k += int(($1 + 4095) / 4096) * 4 + 4 } END { print k + 0 }') + 64))
    mount -t tmpfs -o "size=${kb}k,mode=0755" tmpfs "$trial/w" || return 1
    cp -a "$trial/w.orig/." "$trial/w/" && rm -rf "$trial/w.orig" || return 1
    if [ "$2" = FULL ]; then
      dd if=/dev/zero of="$trial/w/.filler" bs=4k 2>/dev/null
      dd if=/dev/zero of="$trial/w/.filler-tail" bs=512 2>/dev/null
      true
    else
      mount -o remount,ro "$trial/w"
    fi
    ;;
  NOWRITE)
    chown -R 65534:65534 "$trial" && chmod a-w "$trial/w/$("folder_$scenario")" || return 1
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    ;;
  esac
}
lift() { # TRIAL MODE
  case $2 in
  FULL) rm -f "$1/w/.filler" "$1/w/.filler-tail" ;;
  ROFS) mount -o remount,rw "$1/w" ;;
  NOWRITE) as_user="" && chmod u+w "$1/w/$("folder_$scenario")" && chown -R 0:0 "$1" ;;
  esac
}
run_condition() { # DIR SCENARIO
  (cd "$1" && "run_$2") >"$1/stdout.txt" 2>"$1/stderr.txt"
}

# ---------------------------------------------------------------------------------------------

# A manifest of a path: every entry's relative name and type, and each file's checksum.
manifest() {
  local path=$1
  if [ -d "$path" ]; then
    (cd "$path" && find . -mindepth 1 -printf '%P %y\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r md5sum)
  elif [ -e "$path" ]; then
    md5sum <"$path"
  else
    echo missing
  fi
}

# Whether every file under the target (a folder) is as before or as after the golden run.
each_file_old_or_new() { # TRIAL
  local name now
  while IFS= read -r name; do
    now=$(md5sum <"$1/w/$target/$name" 2>/dev/null || echo missing)
    [ "$now" = "$(md5sum <"$base/initial/w/$target/$name" 2>/dev/null || echo missing)" ] && continue
    [ "$now" = "$(md5sum <"$base/golden-once/w/$target/$name" 2>/dev/null || echo missing)" ] && continue
    return 1
  done < <(cd "$base/golden-once/w/$target" && find . -type f -printf '%P\n')
}
has() { declare -F "$1_$scenario" >/dev/null; }

# The restored state a clean launch sees (its STATE lines) and its outcome; the launch saves once.
restored_state() { grep '^STATE ' "$1" | sed 's/^STATE //'; }

run_shimmed() { # DIR SCENARIO AT MODE COUNTFILE HITFILE
  (cd "$1" && LD_PRELOAD="$shim" FAULT_DIR="$1/w" FAULT_AT="$3" FAULT_MODE="$4" FAULT_COUNT="$5" FAULT_HIT="$6" \
    "run_$2") >"$1/stdout.txt" 2>"$1/stderr.txt"
}
run_clean() { (cd "$1" && "run_$2") 2>"$1/clean-stderr.txt"; }

# A listing of the folder after the clean rerun, without what varies from run to run.
listing() { (cd "$1/w" && find . -mindepth 1 -printf '%P\n' | grep -v -E '(^|/)(LastRestore\.plist)$' | LC_ALL=C sort); }

total_violations=0
total_debris=0
printf '%-20s %-7s %8s %8s %10s %11s %8s\n' scenario mode points tried violations "debris left" seconds
for scenario in $scenarios; do
  if [ -n "$only" ] && ! [[ ",$only," == *",$scenario,"* ]]; then continue; fi
  base="$work/$scenario"
  mkdir -p "$base/initial"
  "setup_$scenario" "$base/initial" || { echo "$scenario: setup failed" >&2; total_violations=$((total_violations + 1)); continue; }
  target=$("target_$scenario")
  names=$("names_$scenario")
  old=$(manifest "$base/initial/w/$target")
  # The golden run: the new content, the folder a clean run leaves, the state it restores next.
  cp -a "$base/initial" "$base/golden"
  if ! run_clean "$base/golden" "$scenario" >/dev/null; then
    echo "$scenario: the clean run failed: $(cat "$base/golden/clean-stderr.txt")" >&2
    total_violations=$((total_violations + 1))
    continue
  fi
  new=$(manifest "$base/golden/w/$target")
  cp -a "$base/golden" "$base/golden-once"
  run_clean "$base/golden" "$scenario" >/dev/null 2>&1
  golden_listing=$(listing "$base/golden")
  if [ "$scenario" = restoration ]; then
    old_state=$(grep '^EXPECT 2 ' "$base/initial/in/setup.out" | sed 's/^EXPECT 2 //')
    cp -a "$base/initial" "$base/golden-state"
    run_clean "$base/golden-state" "$scenario"
    new_state=$(grep '^EXPECT 3 ' "$base/golden-state/out.txt" | sed 's/^EXPECT 3 //')
  fi
  for mode in ${modes//,/ }; do
    started=$(date +%s.%N)
    if is_condition "$mode"; then
      if ! condition_available "$mode"; then
        printf '%-20s %-7s %8s\n' "$scenario" "$mode" "skipped (needs root, mount and setpriv)"
        continue
      fi
      points=1
    else
      countdir="$base/count-$mode"
      cp -a "$base/initial" "$countdir"
      run_shimmed "$countdir" "$scenario" 0 "$mode" "$countdir/count" "$countdir/hit" >/dev/null 2>&1
      points=$(cat "$countdir/count" 2>/dev/null || echo 0)
    fi
    if [ "$quick" = 1 ] && [ "$points" -gt "$per_quick" ]; then
      # A seeded subset: the same points for the same seed, scenario and mode.
      chosen=$(awk -v n="$points" -v k="$per_quick" -v s="$seed$(printf '%s%s' "$scenario" "$mode" | cksum | cut -d' ' -f1)" \
        'BEGIN { srand(s % 2147483647); while (c < k) { p = int(rand() * n) + 1; if (!(p in seen)) { seen[p] = 1; c++; print p } } }' | sort -n)
    else
      chosen=$(seq 1 "$points")
    fi
    tried=0 violations=0 debris=0
    for at in $chosen; do
      tried=$((tried + 1))
      trial="$base/trial"
      unmount_under "$base"
      rm -rf "$trial"
      cp -a "$base/initial" "$trial"
      problem=""
      if is_condition "$mode"; then
        if impose "$trial" "$mode"; then
          run_condition "$trial" "$scenario"
          status=$?
        else
          status=0
          problem="the condition could not be set up"
        fi
        lift "$trial" "$mode"
        hit="$mode"
        # What the tool said under the condition, for the record (not a violation).
        echo "$scenario $mode: exit $status: $(cat "$trial/stdout.txt" "$trial/stderr.txt" "$trial/out.txt" 2>/dev/null | grep -v -E '^(READY|STATE|EXPECT|OUTCOME)' | head -c 400 | tr '\n' ' ')" >>"$log"
      else
        run_shimmed "$trial" "$scenario" "$at" "$mode" "$trial/count" "$trial/hit" >/dev/null
        status=$?
        hit=$(cat "$trial/hit" 2>/dev/null)
      fi
      if [ "$scenario" = restoration ]; then
        # The trial itself: what it restored must be the last save (a read error is retried).
        if grep -q '^READY' "$trial/out.txt" 2>/dev/null && [ "$(restored_state "$trial/out.txt")" != "$old_state" ]; then
          problem="restored $(grep '^OUTCOME' "$trial/out.txt") instead of the last save"
        fi
        if failed=$(grep '^SAVE-FAILED' "$trial/out.txt" 2>/dev/null) && ! grep -q -E "$names" <<<"$failed"; then
          problem="save failure names no file: $failed"
        fi
        rm -f "$trial/out.txt"
        run_clean "$trial" "$scenario" || problem="${problem:+$problem; }the clean rerun failed"
        state=$(restored_state "$trial/out.txt")
        if [ "$state" != "$old_state" ] && [ "$state" != "$new_state" ]; then
          problem="${problem:+$problem; }the clean rerun restored neither the old nor the new state ($(grep '^OUTCOME' "$trial/out.txt"))"
        fi
        if [ -d "$trial/w/state/Set Aside" ]; then problem="${problem:+$problem; }an intact snapshot was set aside"; fi
        extra=$(comm -13 <(listing "$base/golden" | grep -v '^state/Set Aside') <(listing "$trial" | grep -v '^state/Set Aside'))
      else
        now=$(manifest "$trial/w/$target")
        if has perfile; then
          whole() { each_file_old_or_new "$trial"; }
        else
          whole() { [ "$now" = "$old" ] || [ "$now" = "$new" ]; }
        fi
        if [ "$status" = 0 ] && has advancing; then
          # The writer numbers its versions from the files it finds: one it could not read
          # starts it over, so a success may rewrite an old version — whole, as every file must be.
          whole || problem="exit 0 but a file is neither old nor new"
        elif [ "$status" = 0 ]; then
          [ "$now" = "$new" ] || problem="exit 0 but the target is not the new content"
        elif [ "$status" = 137 ] || [ "$mode" = KILL ]; then
          whole || problem="killed: the target is neither old nor new"
        else
          whole || problem="exit $status: the target is neither old nor new"
          cat "$trial/stdout.txt" "$trial/stderr.txt" | grep -q -E "$names" ||
            problem="${problem:+$problem; }exit $status: the message names no file ($(cat "$trial/stdout.txt" "$trial/stderr.txt" | head -c 300))"
        fi
        # A flush of the folder that failed is reported: the new file is in place, but its name
        # may not survive a power cut.
        if [ "$status" = 0 ] && [[ "$mode" =~ ^(EIO|ENOSPC|EACCES)$ ]] && [[ "$hit" == *" fsync folder"* ]]; then
          problem="${problem:+$problem; }a failed flush of the folder exited 0"
        fi
        was_new=0
        [ "$now" = "$new" ] && was_new=1
        if ! run_clean "$trial" "$scenario" >/dev/null && ! { has once && [ "$was_new" = 1 ]; }; then
          problem="${problem:+$problem; }the clean rerun failed: $(head -c 300 "$trial/clean-stderr.txt")"
        fi
        if ! has advancing; then
          [ "$(manifest "$trial/w/$target")" = "$new" ] || problem="${problem:+$problem; }the clean rerun did not write the new content"
        fi
        extra=$(comm -13 <(echo "$golden_listing") <(listing "$trial"))
      fi
      if [ -n "$extra" ]; then
        debris=$((debris + 1))
        echo "$scenario $mode #$at ($hit): debris after the clean rerun: $(echo $extra)" >>"$log"
      fi
      if [ -n "$problem" ]; then
        violations=$((violations + 1))
        echo "$scenario $mode #$at ($hit): $problem" >>"$log"
      fi
    done
    unmount_under "$base"
    seconds=$(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { print a - b }')
    printf '%-20s %-7s %8s %8s %10s %11s %8.1f\n' "$scenario" "$mode" "$points" "$tried" "$violations" "$debris" "$seconds"
    total_violations=$((total_violations + violations))
    total_debris=$((total_debris + debris))
  done
done
echo "violations $total_violations, debris left $total_debris (details: $log)"
[ "$total_violations" = 0 ] && [ "$total_debris" = 0 ]
