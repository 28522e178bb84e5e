#!/bin/sh
# Builds the fault-injection shim: Tools/faultshim/build.sh [OUTPUT] (default .build/faultshim.so).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
output=${1:-"$here/../../.build/faultshim.so"}
mkdir -p "$(dirname "$output")"
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$output" "$here/faultshim.c" -ldl
echo "$output"
