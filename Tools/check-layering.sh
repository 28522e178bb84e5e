#!/usr/bin/env bash
# Fails when code outside Sources/StasisSystem reaches the operating system directly instead of
# through the HostEnvironment (Docs/architecture.md, decision 5: "inject the outside world").
#
#   Tools/check-layering.sh [--root DIR] [--all]
#
# Scans the Swift files of Sources/, Tools/ and Examples/ under DIR (default: the repository),
# Sources/StasisSystem and Sources/StasisSystemTesting (the in-memory file system) excepted, for the patterns below (comment lines are skipped), and prints
# one line per hit and the count per pattern. A file in the allowed list below is counted but
# does not fail the check; its reason says why it may stay. --all lists the allowed hits too.
#
# Patterns are one list: add a line to `pattern` for each new kind of file-system call (the clock,
# signals, the terminal and the process environment are Tools/check-layering-runtime.sh's). libc
# math and number formatting are not patterns and may stay.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
show_allowed=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --all) show_allowed=1; shift ;;
    *) echo "usage: $0 [--root DIR] [--all]" >&2; exit 2 ;;
  esac
done

# A call, not a method of the same name: not after a dot or an identifier character (but
# `Glibc.write(` is a call).
call='(^|[^.[:alnum:]_]|Glibc\.|Musl\.|Darwin\.)'

names=()
regexes=()
pattern() { names+=("$1"); regexes+=("$2"); }

# The file system.
pattern "FileManager" 'FileManager'
pattern "Foundation file reads" 'String\(contentsOfFile|Data\(contentsOf|contents\(atPath'
pattern "folder listing" "${call}(opendir|readdir|closedir|scandir)\("
pattern "stat" "${call}(stat|lstat|fstat|fstatat|statx)\("
pattern "open" "${call}(open|openat|creat|fopen)\([^)]*(O_RDONLY|O_WRONLY|O_RDWR|O_CREAT|\"[rwa]\")"
pattern "mkdir/rmdir" "${call}(mkdir|mkdirat|rmdir)\("
pattern "rename/link/unlink" "${call}(rename|renameat|renameat2|link|linkat|symlink|unlink|unlinkat)\("
pattern "access/realpath/readlink" "${call}(access|faccessat|realpath|readlink)\("
pattern "chmod/chown" "${call}(chmod|fchmod|chown|fchown|lchown)\("
pattern "fsync/truncate/flock" "${call}(fsync|fdatasync|truncate|ftruncate|flock)\("
pattern "StasisSystem's POSIX types" '(AtomicFile|AtomicFolder)\.|FileLock\(|POSIXFileSystem\('

# Files that may keep direct calls, and why (path prefix, then the reason).
allowed=(
  "Sources/Restoration/SavedStateFolder.swift	the restoration marker: a descriptor kept open so that the crash handler can append 'crash NN' with write(2) from a signal handler, where no FileSystem call (it allocates and locks) is safe; it is opened, read and removed on the real disk together, or the crash it records would be lost"
  "Tools/stasis-	child processes of the real-process tests: they make real files, locks and processes on purpose, to be killed mid-write"
  "Examples/	example apps and plug-ins written as an app author would write them, with the public API (AtomicFile, FileManager) a reader copies"
)

allowed_reason() {
  local file="$1" entry
  for entry in "${allowed[@]}"; do
    [[ "$file" == "${entry%%	*}"* ]] && { echo "${entry#*	}"; return 0; }
  done
  return 1
}

cd "$root" || exit 2
files=$(find Sources Tools Examples -name '*.swift' -not -path 'Sources/StasisSystem/*' -not -path 'Sources/StasisSystemTesting/*' -not -path '*/.build/*' 2>/dev/null | sort)
total=0
failing=0
for index in "${!names[@]}"; do
  count=0
  while IFS= read -r hit; do
    [[ -z "$hit" ]] && continue
    file="${hit%%:*}"
    text="${hit#*:*:}"
    [[ "$text" =~ ^[[:space:]]*// ]] && continue
    # A declaration of a function or case of the same name is no call.
    stripped=$(sed -E 's/(func|case)[[:space:]]+[[:alnum:]_]+\(//g' <<< "$text")
    grep -qE "${regexes[$index]}" <<< "$stripped" || continue
    count=$((count + 1))
    if reason=$(allowed_reason "$file"); then
      [[ $show_allowed == 1 ]] && echo "allowed: $hit  ($reason)"
    else
      failing=$((failing + 1))
      echo "direct call (${names[$index]}): $hit"
    fi
  done < <([[ -n "$files" ]] && grep -nE "${regexes[$index]}" $files)
  printf 'check-layering: %-28s %4d\n' "${names[$index]}" "$count"
  total=$((total + count))
done
echo "check-layering: $total direct operating-system call line(s) outside Sources/StasisSystem, $failing outside the allowed files"
if [[ $failing -ne 0 ]]; then
  echo "check-layering: FAILED: go through the HostEnvironment (environment.fileSystem, ...) or add the file to the allowed list with a reason" >&2
  exit 1
fi
