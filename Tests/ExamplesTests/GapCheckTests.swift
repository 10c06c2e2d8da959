import Foundation
import GapDetection
import TestSupport
import Testing

/// `gap-check`, run as a process on its samples and on bad input.
@Suite("gap-check")
struct GapCheckTests {
  let example = Example(name: "gap-check")

  /// The sample day's report, with the sample files.
  func sampleReport(_ extra: [String] = [], in directory: URL? = nil) throws -> Example.Outcome {
    try example.run(
      [
        "--day", "2026-03-29", "--time-zone", "Europe/Paris", "--heartbeats",
        example.sample("heartbeats.jsonl"), "--usage", example.sample("usage.jsonl"),
        "--sightings", example.sample("sightings.jsonl"),
      ] + extra, in: directory)
  }

  @Test("a 48-minute heartbeat silence is tracker down, raises the alert and exits with 3")
  func sampleDay() throws {
    let outcome = try sampleReport()
    #expect(outcome.status == 3)
    #expect(outcome.stderr == "")
    #expect(
      outcome.stdout == """
        Gap report for 2026-03-29 in Europe/Paris (23h 00m long: clocks changed)
        as of 2026-03-30 00:00:00 +02:00 (the end of the day; see --now)
        tracker: healthy, last heartbeat at 23:58, 2m before

        expected               16h 30m  07:30–24:00
          tracked               4h 09m
          idle                 10h 58m
          tracker down             48m  1 gap
          notification loss        35m  1 gap

        gaps:
          08:10–08:30  20m       idle               usage silence
          09:00–12:00  3h 00m    idle               usage silence
          12:40–13:30  50m       idle               usage silence
          14:04–14:52  48m       tracker down       heartbeat silence, usage silence
          14:52–15:10  18m       idle               usage silence
          15:40–16:00  20m       idle               usage silence
          16:00–16:35  35m       notification loss  usage silence, missed notifications 8...9
          16:35–20:00  3h 25m    idle               usage silence

        ALERT: the tracker was down for 48m between 07:30 and 24:00 (threshold 15m)

        """)
  }

  @Test("before the outage nothing is lost, no alert is raised and the exit status is 0")
  func beforeTheOutage() throws {
    let outcome = try sampleReport(["--now", "2026-03-29T14:00:00+02:00"])
    #expect(outcome.status == 0)
    #expect(outcome.lines[1] == "as of 2026-03-29 14:00:00 +02:00")
    #expect(outcome.lines[2] == "tracker: healthy, last heartbeat at 14:00, 0s before")
    #expect(outcome.lines.contains("  tracker down              0s  0 gaps"))
    #expect(outcome.lines.contains("no alert: tracker-down time stays under 15m in every window"))
  }

  @Test("heartbeats after --now are not seen: a report during the outage finds it ongoing")
  func duringTheOutage() throws {
    let outcome = try sampleReport(["--now", "2026-03-29T14:30:00+02:00"])
    #expect(outcome.status == 3)
    #expect(outcome.lines[2] == "tracker: stale, last heartbeat at 14:04, 26m before")
    #expect(
      outcome.lines.contains(
        "  14:04–14:30  26m       tracker down       heartbeat silence, usage silence (ongoing)"))
  }

  @Test("--svg draws the day, each gap coloured by its class")
  func svg() throws {
    let directory = try TemporaryDirectory()
    let outcome = try sampleReport(["--svg", "day.svg"], in: directory.url)
    #expect(outcome.status == 3)
    let svg = try String(
      contentsOf: directory.url.appendingPathComponent("day.svg"), encoding: .utf8)
    #expect(svg.hasPrefix("<?xml"))
    #expect(svg.contains("gap-tracker-down"))
    #expect(svg.contains("gap-notification-loss"))
  }

  @Test("--json is DiagnosticsReport's documented form")
  func json() throws {
    let outcome = try sampleReport(["--json"])
    #expect(outcome.status == 3)
    let report = try JSONDecoder().decode(DiagnosticsReport.self, from: Data(outcome.stdout.utf8))
    #expect(report.alerts.map(\.trackerDown) == [.seconds(48 * 60)])
    #expect(report.gaps.gaps(.notificationLoss).map(\.duration) == [.seconds(35 * 60)])
    #expect(report.gaps.expected == .seconds(990 * 60))
  }

  @Test("merge with a fixed pulse time writes ActivityWatch's events, one per line")
  func mergeFixed() throws {
    let directory = try TemporaryDirectory()
    let input = example.sample("aw-heartbeats.jsonl")
    let outcome = try example.run(
      ["merge", "--pulsetime", "31", input, "merged.jsonl"], in: directory.url)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "merged 30 heartbeats of \(input) into 11 events in merged.jsonl\n")
    let merged = try String(
      contentsOf: directory.url.appendingPathComponent("merged.jsonl"), encoding: .utf8)
    let lines = merged.split(separator: "\n")
    #expect(lines.count == 11)
    #expect(
      lines.first.map(String.init)
        == #"{"timestamp":"2026-03-29T07:00:00+00:00","duration":206.0,"#
        + #""data":{"app":"Safari","title":"ScreenTimeKit - GitHub"}}"#)
  }

  @Test("an adaptive merge follows the heartbeats' cadence and splits only where the app changes")
  func mergeAdaptive() throws {
    let directory = try TemporaryDirectory()
    let outcome = try example.run(
      ["merge", "--adaptive", example.sample("aw-heartbeats.jsonl"), "merged.jsonl"],
      in: directory.url)
    #expect(outcome.status == 0)
    let merged = try String(
      contentsOf: directory.url.appendingPathComponent("merged.jsonl"), encoding: .utf8)
    #expect(merged.split(separator: "\n").count == 3)
  }

  /// An export whose lines 4 and 5 are not events.
  func damagedExport(in directory: TemporaryDirectory) throws -> String {
    let lines = try String(contentsOfFile: example.sample("aw-heartbeats.jsonl"), encoding: .utf8)
      .split(separator: "\n")
    let damaged =
      lines.prefix(3) + [#"{"timestamp": "2026-03-29T07:02:00+00:00", "data": {}}"#, "garbage"]
      + lines.suffix(3)
    return try write(damaged.joined(separator: "\n") + "\n", to: "export.jsonl", in: directory)
  }

  @Test("a malformed line stops the merge, names its line, and leaves the output untouched")
  func mergeMalformed() throws {
    let directory = try TemporaryDirectory()
    _ = try damagedExport(in: directory)
    _ = try write("old\n", to: "merged.jsonl", in: directory)
    let outcome = try example.run(
      ["merge", "--adaptive", "export.jsonl", "merged.jsonl"], in: directory.url)
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr
        == "gap-check: export.jsonl:4: missing field \"duration\" (and 1 more malformed line); "
        + "nothing written (--skip-malformed merges the valid lines)\n")
    #expect(try directory.contents() == ["export.jsonl", "merged.jsonl"])
    #expect(
      try String(contentsOf: directory.url.appendingPathComponent("merged.jsonl"), encoding: .utf8)
        == "old\n")
  }

  @Test("--skip-malformed merges the valid lines and says which were skipped")
  func mergeSkipMalformed() throws {
    let directory = try TemporaryDirectory()
    _ = try damagedExport(in: directory)
    let outcome = try example.run(
      ["merge", "--adaptive", "--skip-malformed", "export.jsonl", "merged.jsonl"],
      in: directory.url)
    #expect(outcome.status == 0)
    #expect(
      outcome.stderr
        == "gap-check: export.jsonl:4: missing field \"duration\" (and 1 more malformed line); "
        + "skipped\n")
    #expect(outcome.stdout == "merged 6 heartbeats of export.jsonl into 2 events in merged.jsonl\n")
  }

  @Test("--help says what 'now' is by default, and shows examples and the exit statuses")
  func help() throws {
    let outcome = try example.run(["--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("as of the END of the day, as for a day that is over"))
    #expect(outcome.stdout.contains("examples:\n  swift run gap-check --day 2026-03-29"))
    #expect(
      outcome.stdout.contains("\n  3  the report was printed and raised a tracker-down alert"))
  }

  static let heartbeat = #"{"at": "2026-03-29T05:30:00Z", "source": "monitor"}"#

  /// Bad command lines and input, and the one line the program must print.
  static let badRuns: [(arguments: [String], status: Int32, message: String)] = [
    (
      ["frobnicate"], 2,
      "unknown subcommand frobnicate; the subcommand is merge, or none for a report (see --help)"
    ),
    (
      ["--day", "2026-03-29", "--heartbeats", "beats.jsonl", "--bogus"], 2,
      "unknown option --bogus (see --help)"
    ),
    (["--heartbeats", "beats.jsonl"], 2, "--day is required (see --help)"),
    (["--day", "2026-03-29"], 2, "--heartbeats is required (see --help)"),
    (
      ["--day", "2026-03-29", "--heartbeats", "beats.jsonl", "--time-zone", "Nowhere/Town"], 2,
      "--time-zone: Unknown time zone \"Nowhere/Town\"; use an IANA identifier. (see --help)"
    ),
    (
      ["--day", "2026-03-29", "--heartbeats", "missing.jsonl"], 1,
      "missing.jsonl: No such file or directory"
    ),
    (
      ["--day", "2026-03-29", "--heartbeats", "beats.jsonl", "--usage", "beats.jsonl"], 1,
      "beats.jsonl:1: missing field \"app\""
    ),
    (
      ["--day", "2026-03-29", "--heartbeats", "bad.jsonl"], 1,
      "bad.jsonl:2: field \"source\": Invalid heartbeat source \"monitor extension\": "
        + "use only A-Z, a-z, 0-9, '_' and '-'."
    ),
    (
      ["merge", "--adaptive", "missing.jsonl", "out.jsonl"], 1,
      "missing.jsonl: No such file or directory"
    ),
    (
      ["merge", "beats.jsonl", "out.jsonl"], 2,
      "merge needs --pulsetime SECONDS or --adaptive (see --help)"
    ),
    (
      ["merge", "--pulsetime", "soon", "beats.jsonl", "out.jsonl"], 2,
      "--pulsetime: \"soon\" is not a number of seconds such as 31 or 0.5 (see --help)"
    ),
    (
      ["merge", "--fast", "beats.jsonl", "out.jsonl"], 2,
      "unknown option --fast of merge (see --help)"
    ),
  ]

  @Test(
    "bad input or command line: one line on standard error, exit status 1 or 2", arguments: badRuns)
  func badRun(arguments: [String], status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    _ = try write(Self.heartbeat + "\n", to: "beats.jsonl", in: directory)
    _ = try write(
      Self.heartbeat + "\n" + #"{"at": "2026-03-29T05:32:00Z", "source": "monitor extension"}"#,
      to: "bad.jsonl", in: directory)
    let outcome = try example.run(arguments, in: directory.url)
    #expect(outcome.status == status)
    #expect(outcome.stderr == "gap-check: \(message)\n")
    #expect(outcome.stdout == "")
  }
}
