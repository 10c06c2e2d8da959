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

# The control: a page with a snippet that does not compile, an iOS snippet that is in no example
# and a fragment without its reason must fail with exactly those three problems.
control=$(mktemp -d)
trap 'rm -rf "$control"' EXIT
cat >"$control/Control.md" <<'MARKDOWN'
```swift
let broken: Int = "not a number"
```

<!-- snippet: ios Examples/iOS/App/ScreenTimeApp.swift -->
```swift
let notInTheExample = true
```

<!-- snippet: fragment -->
```swift
.package(path: "..")
```

<!-- snippet: given
let store: FileStore
-->
```swift
_ = try store.read("compiles")
```
MARKDOWN
if swift Scripts/check-snippets.swift "$modules_dir" .build/snippets-control "$control/Control.md" \
  >"$control/output" 2>&1 || ! grep -q '^snippets: 3 problems$' "$control/output"; then
  cat "$control/output"
  echo "check-snippets: the control did not fail with its three problems: the checker is broken" >&2
  exit 1
fi

shopt -s nullglob
files=(Sources/*/*.docc/*.md Sources/*/*.docc/Articles/*.md README.md Examples/*/README.md)
swift Scripts/check-snippets.swift "$modules_dir" .build/snippets "${files[@]}"
