#!/usr/bin/env bash
# Builds Homepwner: Stasis's ibtool compiles the app's interface (Base.lproj/Main.storyboard, an
# iOS storyboard) into Base.lproj/Main.storyboardc in Apple's UIKit encoding, as Xcode's ibtool
# writes it (Info.plist, a nib per scene and one per controller's view, which the nib loader
# reads on first use as UIKit does) — then the app is built.
# Run it with `swift run homepwner` in a terminal. (Without the compiled folder the app compiles
# the storyboard itself at launch.) Arguments go to every `swift build`:
#
#   Examples/Homepwner/build.sh [--scratch-path .build-app]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
swift build "$@" --product ibtool
bundle="Examples/Homepwner/Homepwner.app"
rm -rf "$bundle/Base.lproj/Main.storyboardc"
"$(swift build "$@" --show-bin-path)/ibtool" --errors --compile "$bundle/Base.lproj/Main.storyboardc" "$bundle/Base.lproj/Main.storyboard"
swift build "$@" --product homepwner
