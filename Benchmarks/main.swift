import Foundation

// Benchmarks for ScreenTimeKit: each row compares an operation with a baseline measured in the
// same run, and prints the ratio. Run in release mode:
//
//   swift run -c release Benchmarks [suite ...] [--quick] [--scratch DIR]
//
// With no suite names every suite runs. The table is Markdown, ready for
// Documentation/Performance.md.

let suites: [BenchmarkSuite] = [
  SharedStoreBenchmarks.suite,
  UsageModelBenchmarks.suite,
  SequenceTrackingBenchmarks.suite,
  GapDetectionBenchmarks.suite,
  BytesWrittenBenchmarks.suite,
]

@MainActor func usage() -> String {
  """
  usage: Benchmarks [suite ...] [--quick] [--scratch DIR]

  Suites:
  \(suites.map { "  \($0.name.padding(toLength: 14, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

  Options:
    --quick        fewer iterations; a smoke run whose figures are not for recording
    --scratch DIR  directory for benchmark files (default: .build/benchmark-scratch)
  """
}

var selected: [String] = []
var options = BenchmarkOptions(
  scratchDirectory: URL(fileURLWithPath: ".build/benchmark-scratch", isDirectory: true))
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--help", "-h":
    print(usage())
    exit(0)
  case "--quick":
    options.quick = true
  case "--scratch":
    guard let path = arguments.popFirst() else {
      FileHandle.standardError.write(Data("--scratch needs a directory\n\n\(usage())\n".utf8))
      exit(2)
    }
    options.scratchDirectory = URL(fileURLWithPath: path, isDirectory: true)
  default:
    guard suites.contains(where: { $0.name == argument }) else {
      FileHandle.standardError.write(Data("unknown suite '\(argument)'\n\n\(usage())\n".utf8))
      exit(2)
    }
    selected.append(argument)
  }
}

#if DEBUG
print("warning: a debug build; run `swift run -c release Benchmarks` for figures worth recording")
#endif

do {
  try FileManager.default.createDirectory(
    at: options.scratchDirectory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: options.scratchDirectory) }
  var report = Report()
  print(Report.header)
  for suite in suites where selected.isEmpty || selected.contains(suite.name) {
    try suite.run(options, &report)
  }
  print(report.allTargetsMet ? "\nAll targets met." : "\nSome targets were NOT met.")
} catch {
  FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
  exit(1)
}
