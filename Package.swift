// swift-tools-version: 6.0

import PackageDescription

let package = Package(
  name: "ScreenTimeKit",
  platforms: [.iOS(.v16), .macOS(.v13), .watchOS(.v9), .tvOS(.v16)],
  products: [
    .library(name: "ScreenTimeKit", targets: ["ScreenTimeKit"]),
    .library(name: "SharedStore", targets: ["SharedStore"]),
    .library(name: "SharedStoreTesting", targets: ["SharedStoreTesting"]),
    .library(name: "UsageModel", targets: ["UsageModel"]),
    .library(name: "BudgetMath", targets: ["BudgetMath"]),
    .library(name: "SignalValues", targets: ["SignalValues"]),
    .library(name: "SequenceTracking", targets: ["SequenceTracking"]),
    .library(name: "TrackerSignals", targets: ["TrackerSignals"]),
    .library(name: "GapDetection", targets: ["GapDetection"]),
    .library(name: "ActivityWatchInterop", targets: ["ActivityWatchInterop"]),
    .library(name: "AppPipeline", targets: ["AppPipeline"]),
    .library(name: "ActivityPlanning", targets: ["ActivityPlanning"]),
    .library(name: "Shielding", targets: ["Shielding"]),
    .executable(name: "screen-time-demo", targets: ["screen-time-demo"]),
    .executable(name: "usage-report", targets: ["usage-report"]),
    .executable(name: "gap-check", targets: ["gap-check"]),
    .executable(name: "store-tool", targets: ["store-tool"]),
  ],
  targets: [
    // MARK: Library modules (each depends only on modules declared above it, and nothing else)
    .target(name: "SharedStore"),
    // The SharedStore contract as checks a backend of an integrator's own runs; no test framework.
    .target(name: "SharedStoreTesting", dependencies: ["SharedStore"]),
    .target(name: "UsageModel"),
    .target(name: "BudgetMath", dependencies: ["UsageModel"]),
    // The values the extension records and the app analyses, without any I/O.
    .target(name: "SignalValues", dependencies: ["UsageModel"]),
    .target(name: "SequenceTracking", dependencies: ["SharedStore", "SignalValues"]),
    .target(
      name: "TrackerSignals",
      dependencies: ["SharedStore", "UsageModel", "SignalValues", "SequenceTracking"]),
    .target(name: "GapDetection", dependencies: ["UsageModel", "SignalValues"]),
    .target(
      name: "ActivityWatchInterop", dependencies: ["GapDetection", "SignalValues", "UsageModel"]),
    // The app side of the pipeline: drains the extension's facts and derives the dashboard.
    .target(
      name: "AppPipeline",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "SignalValues", "SequenceTracking",
        "TrackerSignals", "GapDetection",
      ]
    ),
    // What to monitor: goals in, a DeviceActivity plan that fits the platform's limits out, and
    // its re-arming under new generations.
    .target(name: "ActivityPlanning", dependencies: ["UsageModel", "BudgetMath"]),
    // What to shield: restriction sources and the app's intents in, the stores to apply and the
    // instant of the next change out. The monitor extension imports it and applies the result.
    .target(
      name: "Shielding",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "ActivityPlanning", "TrackerSignals",
      ]
    ),
    // The umbrella: re-exports every module and holds nothing but documentation.
    .target(
      name: "ScreenTimeKit",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "SignalValues", "SequenceTracking",
        "TrackerSignals", "GapDetection", "ActivityWatchInterop", "AppPipeline",
        "ActivityPlanning", "Shielding",
      ]
    ),

    // MARK: Examples and tools
    .executableTarget(
      name: "screen-time-demo",
      dependencies: ["ScreenTimeKit"],
      path: "Examples/screen-time-demo"
    ),
    // Each example showcases one module through its public API, and imports only what it shows.
    .executableTarget(
      name: "usage-report",
      dependencies: ["UsageModel", "BudgetMath"],
      path: "Examples/usage-report",
      exclude: ["README.md", "Samples"]
    ),
    .executableTarget(
      name: "gap-check",
      dependencies: ["GapDetection", "SignalValues", "UsageModel", "ActivityWatchInterop"],
      path: "Examples/gap-check",
      exclude: ["README.md", "Samples"]
    ),
    // SharedStore's inspection of a store folder; it decodes the library's own keys with the
    // modules that write them.
    .executableTarget(
      name: "store-tool",
      dependencies: [
        "SharedStore", "UsageModel", "SignalValues", "SequenceTracking", "TrackerSignals",
        "GapDetection", "BudgetMath", "AppPipeline", "Shielding",
      ],
      path: "Examples/store-tool",
      exclude: ["README.md"]
    ),
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "SignalValues", "SequenceTracking",
        "TrackerSignals", "GapDetection", "ActivityWatchInterop", "AppPipeline", "TestSupport",
        "ActivityPlanning", "Shielding",
      ],
      path: "Benchmarks"
    ),

    // MARK: Tests
    // A helper executable that the multi-process and kill-safety suites spawn.
    .executableTarget(
      name: "stk-test-helper",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "SignalValues", "SequenceTracking",
        "TrackerSignals", "GapDetection", "AppPipeline", "TestSupport",
      ],
      path: "Tests/Helpers/stk-test-helper"
    ),
    // AppPipeline: the accuracy corpus is read through the library's pipeline here, once, for
    // both AppPipelineTests and the Benchmarks' accuracy suite.
    .target(
      name: "TestSupport",
      dependencies: [
        "SharedStore", "UsageModel", "SignalValues", "SequenceTracking", "TrackerSignals",
        "AppPipeline",
      ],
      path: "Tests/TestSupport"
    ),
    // The stored formats' fuzzing harness: each format planted as a hostile file and driven
    // through the public API. `StoredFormatFuzzTests` runs it as a seeded mutation loop, and
    // Scripts/fuzz.sh links it with a target of Fuzz/Targets into a libFuzzer executable.
    .target(
      name: "StoredFormatFuzzing",
      dependencies: [
        "SharedStore", "UsageModel", "BudgetMath", "SignalValues", "SequenceTracking",
        "TrackerSignals", "GapDetection", "AppPipeline", "TestSupport",
      ],
      path: "Fuzz/StoredFormatFuzzing"
    ),
    // Another module whose public types share names with SharedStore's, as an integrator's own
    // module or Apple's System framework (Errno) may.
    .target(name: "NameClash", path: "Tests/NameClash"),
    .testTarget(
      name: "SharedStoreTests",
      dependencies: [
        "SharedStore", "SharedStoreTesting", "TestSupport", "stk-test-helper", "NameClash",
      ]
    ),
    .testTarget(
      name: "SharedStoreTestingTests",
      dependencies: ["SharedStoreTesting", "SharedStore", "TestSupport"]
    ),
    .testTarget(name: "UsageModelTests", dependencies: ["UsageModel", "TestSupport"]),
    .testTarget(
      name: "BudgetMathTests",
      dependencies: ["BudgetMath", "UsageModel", "TestSupport"]
    ),
    // The values' own tests; the suites of the types that moved here stay with the modules that
    // record them, where they also check the recorders.
    .testTarget(name: "SignalValuesTests", dependencies: ["SignalValues", "TestSupport"]),
    .testTarget(
      name: "SequenceTrackingTests",
      dependencies: [
        "SequenceTracking", "SignalValues", "SharedStore", "TestSupport", "stk-test-helper",
      ]
    ),
    .testTarget(
      name: "TrackerSignalsTests",
      dependencies: [
        "TrackerSignals", "SignalValues", "GapDetection", "UsageModel", "SharedStore",
        "SequenceTracking",
        "TestSupport",
      ]
    ),
    .testTarget(
      name: "GapDetectionTests",
      dependencies: [
        "GapDetection", "SignalValues", "UsageModel", "TestSupport",
        // A few suites check the report against what the extension's recorders stored.
        "SharedStore", "TrackerSignals",
      ]
    ),
    .testTarget(
      name: "ActivityWatchInteropTests",
      dependencies: [
        "ActivityWatchInterop", "GapDetection", "SignalValues", "UsageModel", "TestSupport",
      ],
      // ActivityWatch's own output on fixed inputs, so that the comparison needs no Python.
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "ActivityPlanningTests",
      dependencies: ["ActivityPlanning", "UsageModel", "BudgetMath"]
    ),
    .testTarget(
      name: "AppPipelineTests",
      dependencies: [
        "AppPipeline", "ActivityPlanning", "SharedStore", "UsageModel", "BudgetMath",
        "SignalValues",
        "SequenceTracking", "TrackerSignals", "GapDetection", "TestSupport",
      ]
    ),
    .testTarget(
      name: "ShieldingTests",
      dependencies: [
        "Shielding", "SharedStore", "UsageModel", "BudgetMath", "ActivityPlanning",
        "TrackerSignals", "TestSupport",
      ]
    ),
    .testTarget(name: "ScreenTimeKitTests", dependencies: ["ScreenTimeKit"]),
    // Runs each example as a process on its samples and on bad input; depending on the examples
    // makes SwiftPM build them beside the test bundle.
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "usage-report", "gap-check", "store-tool", "SharedStore", "UsageModel", "BudgetMath",
        "SignalValues", "SequenceTracking", "TrackerSignals", "GapDetection", "AppPipeline",
        "TestSupport", "Shielding",
      ]
    ),
    // The whole pipeline, extension and app in their own processes, killed at random.
    .testTarget(
      name: "PipelineKillTests",
      dependencies: [
        "AppPipeline", "SharedStore", "UsageModel", "SignalValues", "SequenceTracking",
        "TrackerSignals", "BudgetMath", "GapDetection", "TestSupport", "stk-test-helper",
      ]
    ),
    // Every stored format fuzzed, and every input that ever failed replayed.
    .testTarget(
      name: "StoredFormatFuzzTests",
      dependencies: ["StoredFormatFuzzing", "TestSupport"],
      resources: [.copy("Replays")]
    ),
    // A monitor extension's work, with the extension-side products only: it does not compile if
    // that work needs anything more.
    .testTarget(
      name: "ExtensionSideTests",
      dependencies: [
        "SharedStore", "UsageModel", "SignalValues", "SequenceTracking", "TrackerSignals",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .binary && target.type != .plugin {
  var settings = target.swiftSettings ?? []
  // Require `any` for existential types (SE-0335).
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // A file sees only the modules it imports itself (SE-0444).
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
