#!/usr/bin/env bash
# Compiles Examples/iOS — the app, the DeviceActivity monitor extension and the widget that
# Getting started shows — for the iOS simulator, against the library built for it. macOS with
# Xcode 16 or later only; the Linux build never sees these files (they belong to no target of
# Package.swift).
#
#   Scripts/build-ios-examples.sh [DERIVED_DATA]     (default: .build/ios-examples)
#
#   1. `xcodebuild` builds the ScreenTimeKit library product (every module it re-exports) for
#      generic/platform=iOS Simulator into DERIVED_DATA;
#   2. `swiftc -typecheck` checks each target's sources against the modules it built, in Swift 6
#      language mode, for the package's oldest iOS (16.0): the app (App/ and Shared/), the
#      monitor extension (Monitor/ and Shared/ScreenTimeGroup.swift) and the widget (Widget/
#      and Shared/), the two extensions with -application-extension, as Xcode builds them.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" != Darwin ]; then
  echo "build-ios-examples: needs macOS with Xcode (the iOS SDK); nothing was checked on $(uname -s)" >&2
  exit 2
fi

derived=${1:-.build/ios-examples}
products="$derived/Build/Products/Debug-iphonesimulator"

# 1. The library, for the simulator. The ScreenTimeKit scheme is the umbrella product's: it
# builds every library module and no executable (the examples and tools use Foundation.Process,
# which iOS does not have).
xcodebuild build -quiet -scheme ScreenTimeKit -destination 'generic/platform=iOS Simulator' \
  -derivedDataPath "$derived"
[ -d "$products/ScreenTimeKit.swiftmodule" ] || {
  echo "build-ios-examples: no ScreenTimeKit.swiftmodule in $products" >&2
  exit 1
}

# 2. Each target's sources, as one module each.
sdk=$(xcrun --sdk iphonesimulator --show-sdk-path)
target="$(uname -m)-apple-ios16.0-simulator"  # arm64 on Apple silicon, x86_64 on Intel Macs
typecheck() {  # typecheck MODULE_NAME [FLAGS...] -- FILES...
  local module=$1
  shift
  local flags=()
  while [ "$1" != -- ]; do
    flags+=("$1")
    shift
  done
  shift
  xcrun --sdk iphonesimulator swiftc -typecheck -parse-as-library -swift-version 6 \
    -module-name "$module" -target "$target" -sdk "$sdk" -I "$products" -F "$products" \
    ${flags[@]+"${flags[@]}"} "$@"
  echo "ios examples: $module type-checks"
}

typecheck ScreenTimeExampleApp -- Examples/iOS/App/*.swift Examples/iOS/Shared/*.swift
typecheck ScreenTimeExampleMonitor -application-extension -- \
  Examples/iOS/Monitor/*.swift Examples/iOS/Shared/ScreenTimeGroup.swift
typecheck ScreenTimeExampleWidget -application-extension -- \
  Examples/iOS/Widget/*.swift Examples/iOS/Shared/*.swift
