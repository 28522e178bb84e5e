#!/usr/bin/env bash
# Installs what the tests need on a fresh machine of the project's kind (Debian, root), and says
# what it could not install (the tests that need it then skip, and the test summary lists them).
#   libxml2-dev   the xib/storyboard reader's XML parser (the CLibXML2 system-library target)
#   python3       plistlib and the benchmark's data generator, used as oracles
#   babel 2.18.0  CLDR 47's plural rules, the oracle for .stringsdict plural categories
#   nibarchive    an independent NIBArchive reader the nib tests compare with
#   tmux          drives the Homepwner terminal app in its end-to-end tests
#   librsvg2-bin  rsvg-convert: ibtool --render's PNG output and the reference-image tests
set -uo pipefail

apt_updated=0
apt_install() {
  if [[ "$apt_updated" == 0 ]]; then apt-get update -qq >/dev/null 2>&1; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}

if [[ ! -f /usr/include/libxml2/libxml/parser.h ]]; then
  apt_install libxml2-dev || { echo "install: libxml2-dev could not be installed; nothing builds without it" >&2; exit 1; }
fi
if ! command -v python3 >/dev/null 2>&1; then
  apt_install python3 python3-pip || echo "note: python3 could not be installed; the Python oracle tests will skip" >&2
fi
if ! command -v tmux >/dev/null 2>&1; then
  apt_install tmux || echo "note: tmux could not be installed; the Homepwner terminal tests will skip" >&2
fi
if ! command -v rsvg-convert >/dev/null 2>&1; then
  apt_install librsvg2-bin || echo "note: librsvg2-bin could not be installed; ibtool --render writes SVG only and the PNG reference tests will skip" >&2
fi
if ! command -v gnustep-config >/dev/null 2>&1; then
  apt_install gobjc libgnustep-base-dev ||
    echo "note: gobjc/libgnustep-base-dev could not be installed; the GNUstep keyed-archive interoperability tests will skip" >&2
fi
pip_install() {
  python3 -m pip install -q "$1" >/dev/null 2>&1 ||
    python3 -m pip install -q --break-system-packages "$1" >/dev/null 2>&1
}
if command -v python3 >/dev/null 2>&1; then
  python3 -c "import babel" >/dev/null 2>&1 || pip_install babel==2.18.0 ||
    echo "note: pip could not install babel; the CLDR plural oracle test will skip" >&2
  python3 -c "import nibarchive" >/dev/null 2>&1 || pip_install nibarchive ||
    echo "note: pip could not install nibarchive; the NIBArchive oracle test will skip" >&2
fi
plutil_path="$(dirname "$(command -v swift)")/plutil"
[[ -x "$plutil_path" ]] || echo "note: the toolchain's plutil is not at $plutil_path; the tests comparing with it will skip" >&2
exit 0
