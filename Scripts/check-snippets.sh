#!/usr/bin/env bash
# Every ```swift block of the documentation compiles, or is found verbatim in the iOS examples:
# the DocC catalogs' pages and articles, the README, and the examples' READMEs. The markers that
# say how each block is checked are described at the top of Scripts/check-snippets.swift.
#
#   Scripts/check-snippets.sh
#
# It builds the library modules (not the tests) and type-checks each snippet on its own against
# them, in Swift 6 language mode; a few seconds a snippet on 2 busy cores.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target ScreenTimeKit >/dev/null
swift build --target SharedStoreTesting >/dev/null  # not re-exported by ScreenTimeKit
bin=$(swift build --show-bin-path)
modules_dir="$bin/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin"  # toolchains before 6.0 keep modules in the bin folder

shopt -s nullglob
files=(Sources/*/*.docc/*.md Sources/*/*.docc/Articles/*.md README.md Examples/*/README.md)
swift Scripts/check-snippets.swift "$modules_dir" .build/snippets "${files[@]}"
