import Foundation
import TestSupport

// Benchmarks for ScreenTimeKit: every row compares a figure with a baseline measured in the same
// run, and every target bounds that ratio. Run in release mode:
//
//   swift run -c release Benchmarks [--filter NAME]... [--quick] [--json FILE]
//     [--markdown FILE] [--accuracy-markdown FILE] [--scratch DIR] [--list]
//
// Progress goes to standard error; standard output gets one table and the line
// "N targets: P PASS, M MISS". The `accuracy` suite times nothing: it reads the platform
// simulator's corpus and prints a table of its own after the timing table, because its rows
// (seconds and errors against a known truth) have none of a timing row's columns
// (AccuracyBenchmarks.swift says more); `--accuracy-markdown` writes it into
// Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Accuracy.md. The exit status is 0 whatever the
// figures; 1 when a benchmark failed to run, 2 for bad arguments. The Performance article beside
// it describes every row.

let suites: [BenchmarkSuite] = [
  SharedStoreBenchmarks.suite,
  ExtensionBenchmarks.suite,
  UsageModelBenchmarks.suite,
  SequenceTrackingBenchmarks.suite,
  GapDetectionBenchmarks.suite,
  BytesWrittenBenchmarks.suite,
  AppSideBenchmarks.suite,
]

// A memory row's child process: the benchmark started by itself (ExtensionBenchmarks+Memory).
if CommandLine.arguments.dropFirst().first == ExtensionBenchmarks.MemoryChild.flag {
  exit(ExtensionBenchmarks.MemoryChild.main(Array(CommandLine.arguments.dropFirst(2))))
}
// The app side's memory row's child process (AppSideBenchmarks+Memory).
if CommandLine.arguments.dropFirst().first == AppSideBenchmarks.AppMemoryChild.flag {
  exit(AppSideBenchmarks.AppMemoryChild.main(Array(CommandLine.arguments.dropFirst(2))))
}

func usage() -> String {
  let names =
    (suites.map { ($0.name, $0.summary) } + [
      (AccuracyBenchmarks.name, AccuracyBenchmarks.summary)
    ]).map { "  " + $0.0.padding(toLength: 18, withPad: " ", startingAt: 0) + $0.1 }
  return """
    usage: Benchmarks [--filter NAME]... [--quick] [--json FILE] [--markdown FILE]
                      [--accuracy-markdown FILE] [--scratch DIR] [--list]

    Runs every suite and prints one table: scenario, work size, median, p99, the baseline
    measured in the same run, the ratio, the target and PASS or MISS; then the accuracy
    suite's table (scenario, truth, naive, lower and upper seconds, their errors, the worst
    ladder steps of each bound and the lower bound's phantom seconds); then "N targets:
    P PASS, M MISS". Exits 0 whatever the figures.

    Suites:
    \(names.joined(separator: "\n"))

    Options:
      --filter NAME    run only the scenarios of suite NAME, or whose name contains NAME
                       (ignoring case); repeatable; a bare NAME means the same
      --quick          smaller inputs and fewer iterations (the appside suite's histories
                       of 1 and 3 days instead of 1, 7 and 40), and a few of the accuracy
                       corpus's scenarios: a smoke run, not for recording
      --json FILE      also write the timing rows as JSON (format in
                       Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Performance.md)
      --markdown FILE  also write the machine, the table and the targets' limits into FILE,
                       between its BEGIN/END GENERATED BENCHMARKS markers
      --accuracy-markdown FILE
                       also write the accuracy suite's document (the ScreenTimeKit
                       catalog's Articles/Accuracy.md) into FILE (all of it); needs the
                       whole corpus: no --quick
      --scratch DIR    directory for benchmark files (default: .build/benchmark-scratch)
      --list           list the suites and their scenarios, and run nothing
    """
}

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(status)
}

func standardError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

var filter = Report.Filter()
var options = BenchmarkOptions(
  scratchDirectory: URL(fileURLWithPath: ".build/benchmark-scratch", isDirectory: true))
var jsonFile: URL?
var markdownFile: URL?
var accuracyMarkdownFile: URL?
var listOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func value() -> String {
    guard let value = arguments.popFirst(), !value.hasPrefix("--") else {
      fail("\(argument) needs a value\n\n\(usage())", status: 2)
    }
    return value
  }
  switch argument {
  case "--help", "-h":
    print(usage())
    exit(0)
  case "--quick": options.quick = true
  case "--list": listOnly = true
  case "--filter": filter.values.append(value())
  case "--json": jsonFile = URL(fileURLWithPath: value())
  case "--markdown": markdownFile = URL(fileURLWithPath: value())
  case "--accuracy-markdown": accuracyMarkdownFile = URL(fileURLWithPath: value())
  case "--scratch": options.scratchDirectory = URL(fileURLWithPath: value(), isDirectory: true)
  default:
    guard !argument.hasPrefix("-") else {
      fail("unknown option \(argument)\n\n\(usage())", status: 2)
    }
    filter.values.append(argument)
  }
}

let selected: [(suite: BenchmarkSuite, scenario: Scenario)] = suites.flatMap { suite in
  suite.scenarios.filter { scenario in
    scenario.rows.contains { filter.keeps(suite: suite.name, scenario: $0) }
  }.map { (suite, $0) }
}
let accuracySelected = AccuracyBenchmarks.selected(by: filter, quick: options.quick)

if listOnly {
  for suite in suites {
    print("\(suite.name): \(suite.summary)")
    for scenario in suite.scenarios {
      for row in scenario.rows where filter.keeps(suite: suite.name, scenario: row) {
        print("  \(row)")
      }
    }
  }
  print("\(AccuracyBenchmarks.name): \(AccuracyBenchmarks.summary)")
  for name in AccuracyBenchmarks.names
  where filter.keeps(suite: AccuracyBenchmarks.name, scenario: name) {
    print("  \(name)")
  }
  exit(0)
}
guard !selected.isEmpty || !accuracySelected.isEmpty else {
  fail(
    "no scenario matches \(filter.values.map { "'\($0)'" }.joined(separator: ", ")); "
      + "see --list", status: 2)
}
if let markdownFile {
  guard filter.values.isEmpty, !options.quick else {
    fail("--markdown writes the document of a whole run: drop --filter and --quick", status: 2)
  }
  guard Machine.isReleaseBuild else {
    fail("--markdown records figures: use a release build (swift run -c release)", status: 2)
  }
  // Checked before the run, not after it.
  do {
    try PerformanceDocument.check(markdownFile)
  } catch {
    fail("\(error)", status: 2)
  }
}

if accuracyMarkdownFile != nil, accuracySelected != AccuracyBenchmarks.names {
  fail(
    "--accuracy-markdown writes the document of the whole corpus: drop --quick, and any "
      + "--filter that leaves out one of its scenarios", status: 2)
}

#if DEBUG
standardError(
  "warning: a debug build; run `swift run -c release Benchmarks` for figures worth recording")
#endif

do {
  try FileManager.default.createDirectory(
    at: options.scratchDirectory, withIntermediateDirectories: true)
} catch {
  fail("cannot create the scratch directory: \(error)", status: 1)
}
var machine = Machine.describe(scratch: options.scratchDirectory, quick: options.quick)
standardError("machine: \(machine.summary)")
let clock = ContinuousClock()
let started = clock.now

var report = Report()
report.filter = filter
report.onAdd = { row in
  let ratio = row.ratio.map(ratioText) ?? "—"
  standardError("    \(row.scenario): \(ratio) \(row.result?.rawValue ?? "")")
}
var currentSuite = ""
for (suite, scenario) in selected {
  if suite.name != currentSuite {
    currentSuite = suite.name
    standardError("\(suite.name): \(suite.summary)")
  }
  report.expectedScenarios = Set(scenario.rows)
  do {
    try scenario.run(options, &report)
  } catch {
    report.fail("\(suite.name) / \(scenario.rows.joined(separator: ", "))", error: "\(error)")
    standardError("    FAILED: \(error)")
  }
}
var accuracyRows: [CorpusRow] = []
if !accuracySelected.isEmpty {
  standardError("\(AccuracyBenchmarks.name): \(AccuracyBenchmarks.summary)")
  do {
    accuracyRows = try AccuracyBenchmarks.read(accuracySelected) {
      standardError(AccuracyBenchmarks.progressLine($0))
    }
  } catch {
    report.fail(
      "\(AccuracyBenchmarks.name) / \(accuracySelected.joined(separator: ", "))",
      error: "\(error)")
    standardError("    FAILED: \(error)")
  }
}
try? FileManager.default.removeItem(at: options.scratchDirectory)
machine.loadAtEnd = Machine.loadAverage()
machine.seconds = (clock.now - started).seconds

if !selected.isEmpty {
  #if DEBUG
  print("A debug build: these figures, and any MISS, mean nothing. Use swift run -c release.\n")
  #endif
  print(report.table())
  print()
}
if !accuracyRows.isEmpty {
  print(AccuracyBenchmarks.table(accuracyRows))
  print()
}
for failure in report.failures { print("FAILED: \(failure.scenario): \(failure.error)") }
print(report.summaryLine)

do {
  if let jsonFile {
    try RunDocument(machine: machine, report: report).encoded().write(to: jsonFile)
  }
  if let markdownFile {
    // A table with scenarios missing must not replace the document of a whole run.
    guard report.failures.isEmpty else {
      fail("not rewriting \(markdownFile.path): a scenario failed to run", status: 1)
    }
    try PerformanceDocument.update(
      markdownFile, with: PerformanceDocument.section(machine: machine, report: report))
  }
  if let accuracyMarkdownFile {
    guard accuracyRows.count == AccuracyBenchmarks.names.count else {
      fail("not rewriting \(accuracyMarkdownFile.path): a scenario failed to read", status: 1)
    }
    let document = AccuracyBenchmarks.document(rows: accuracyRows, machine: machine)
    try Data(document.utf8).write(to: accuracyMarkdownFile, options: .atomic)
  }
} catch {
  fail("cannot write the results: \(error)", status: 1)
}
exit(report.failures.isEmpty ? 0 : 1)
