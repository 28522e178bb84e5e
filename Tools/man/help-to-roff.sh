#!/usr/bin/env bash
# Writes a man page (roff) on standard output from a tool's own help text on standard input:
#   help-to-roff.sh NAME "one-line summary" < help.txt
# The help's "usage:" line and the lines indented under it become SYNOPSIS; the rest is
# DESCRIPTION, kept as the tool lays it out (no fill), with roff's special characters escaped.
set -euo pipefail
name=$1 summary=$2
upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
printf '.\\" %s(1), generated from "%s --help" by Tools/man/help-to-roff.sh.\n' "$name" "$name"
printf '.TH %s 1 "" "Stasis" "User Commands"\n.SH NAME\n%s \\- %s\n' "$upper" "$name" "$summary"
awk '
  function escape(line) {
    gsub(/\\/, "\\e", line); gsub(/-/, "\\-", line)
    if (line ~ /^[.\047]/) line = "\\&" line
    return line
  }
  BEGIN { section = "" }
  /^usage: / && section == "" {
    print ".SH SYNOPSIS\n.nf"; sub(/^usage: /, ""); print escape($0); section = "synopsis"; next
  }
  section == "synopsis" && /^ +[^ ]/ { sub(/^ +/, ""); print escape($0); next }
  section != "description" {
    if (section == "synopsis") print ".fi"
    print ".SH DESCRIPTION\n.nf"; section = "description"
    if ($0 == "") next
  }
  { print escape($0) }
  END { if (section != "") print ".fi" }
'
