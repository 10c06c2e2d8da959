import Foundation
import SharedStore
import TestSupport
import Testing
import UsageModel

/// `store-tool`, run as a process on a sample folder made by the library (`SampleStore`).
@Suite("store-tool")
struct StoreToolTests {
  let example = Example(name: "store-tool")

  /// A line of a table, split into its cells (two or more spaces apart).
  static func cells(_ line: String) -> [String] {
    line.split(separator: "  ", omittingEmptySubsequences: true).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

  @Test("--help shows example invocations, says which subcommands are read-only, and the statuses")
  func help() throws {
    let outcome = try example.run(["--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "")
    #expect(outcome.stdout.contains("examples:\n  swift run screen-time-demo --directory"))
    #expect(outcome.stdout.contains("  swift run store-tool verify /tmp/stk-demo/pipeline\n"))
    #expect(outcome.stdout.contains("list, show and verify are read-only"))
    #expect(outcome.stdout.contains("\n  1  damage: verify found a file that is damaged"))
    #expect(outcome.stdout.contains("\n  3  bad input: DIR is missing"))
  }

  @Test("list shows each file's key, kind, size, format version, change token and state")
  func list() throws {
    let sample = try SampleStore(damaged: true, leftovers: true)
    let outcome = try example.run(["list", sample.path])
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "")
    let lines = outcome.lines
    #expect(
      lines.first
        == "\(sample.path): 11 keys — 9 ok, 1 corrupted, 1 of a newer format version; "
        + "1 leftover temporary file, 1 quarantined file, 1 foreign file")
    let rows = lines.dropFirst(2).filter { !$0.isEmpty }.map(Self.cells)
    #expect(rows.first == ["KEY OR FILE", "KIND", "BYTES", "FORMAT", "CHANGE TOKEN", "STATE"])
    func row(_ name: String) throws -> [String] {
      try #require(rows.first { $0.first == name }, "no row \(name)")
    }
    #expect(
      try row("app.settings")
        == [
          "app.settings", "value", "\(sample.size(of: "app.settings"))", "1",
          sample.token("app.settings"), "ok",
        ])
    #expect(
      try row("app.events")
        == [
          "app.events", "log", "\(sample.size(of: "app.events"))", "1",
          sample.token("app.events"), "ok, 2 records",
        ])
    #expect(
      try row("app.profile")
        == [
          "app.profile", "value", "\(sample.size(of: "app.profile"))", "1",
          sample.token("app.profile"), "corrupted: the payload checksum does not match",
        ])
    #expect(
      try row("app.cache")
        == ["app.cache", "value", "48", "2", "-", "newer format version 2 (this version reads 1)"])
    #expect(try row("stk.monitor.facts").last == "ok, 6 records")
    #expect(try row("stk.heartbeats.monitor").last == "ok, 7 records")
    #expect(try row("stk.diagnostics").last == "ok, 2 records")
    // The pipeline's consumer record, kept as versions: a log of its newest states.
    let state = try row("stk.pipeline.state")
    #expect(state[1] == "log" && state.last?.hasPrefix("ok, ") == true, "\(state)")
    #expect(try row("stk.pipeline.state.facts.2026-03-29").last == "ok, 4 records")
    #expect(try row("stk.pipeline.state.starts").last == "ok, 1 record")
    #expect(
      try row(".tmp.app.settings.5eed")
        == [
          ".tmp.app.settings.5eed", "temporary", "20", "1", "-",
          "leftover temporary file of app.settings",
        ])
    #expect(
      try row(".quarantined.app.old.1")
        == [
          ".quarantined.app.old.1", "quarantined", "37", "1", sample.quarantinedToken,
          "quarantined from app.old (ok)",
        ])
    #expect(
      try row(".DS_Store") == [".DS_Store", "foreign", "6", "-", "-", "not the store's; ignored"])
    #expect(try row(".lock") == [".lock", "lock", "0", "-", "-", "the store's lock file"])
    let keys = rows.dropFirst().prefix(8).map { $0[0] }
    #expect(keys == keys.sorted(), "keys first, sorted, then the other files")
  }

  @Test("show pretty-prints a JSON value with sorted keys")
  func showJSONValue() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "app.settings"])
    #expect(outcome.status == 0)
    #expect(
      try outcome.stdout == """
        app.settings: a value of 38 bytes, change token \(sample.token("app.settings")), JSON

        {
          "dailyGoalMinutes" : 30,
          "theme" : "dark"
        }

        """)
  }

  @Test("show decodes a ThresholdAccountant kept under an app's own key: intervals and apps")
  func showAccountantValue() throws {
    let sample = try SampleStore()
    let utc = try #require(TimeZone(identifier: "UTC"))
    var accountant = ThresholdAccountant(timeZone: utc)
    let start = SampleStore.at("07:00:00")
    for (name, time) in [
      ("stk:5m:com.burbn.instagram", "07:05:00"), ("stk:10m:com.burbn.instagram", "07:10:00"),
      ("stk:5m:com.duolingo", "07:55:30"), ("stk:30m:com.duolingo", "07:01:00"),
    ] {
      _ = accountant.record(
        try ThresholdEvent(
          name: ThresholdEventName(parsing: name), intervalStart: start,
          receivedAt: SampleStore.at(time)))
    }
    try sample.store.set(accountant, for: StoreKey("app.accountant", default: accountant))
    let outcome = try example.run(["show", sample.path, "app.accountant"])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.first?.hasSuffix(", a ThresholdAccountant") == true)
    #expect(lines.contains { $0.hasPrefix("time zone ") && $0.contains("1 monitoring interval") })
    #expect(lines.contains("interval from 2026-03-29T07:00:00Z: 15m 00s over 2 apps"))
    #expect(
      lines.map(Self.cells).contains([
        "com.burbn.instagram", "10m 00s", "reached at 2026-03-29T07:10:00Z",
      ]))
    #expect(lines.contains { $0.hasPrefix("  not counted: ") && $0.contains("com.duolingo") })
  }

  @Test("show prints an unknown log's records with their positions")
  func showUnknownLog() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "app.events"])
    #expect(outcome.status == 0)
    #expect(
      try outcome.stdout == """
        app.events: an append-only log, change token \(sample.token("app.events"))
        2 records (positions 1...2), capacity 50, 0 evicted

        #1  opened
        #2  paywall shown

        """)
  }

  @Test("show decodes the outbox: number, callback, activity, event and instant, and the pending")
  func showFacts() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "stk.monitor.facts"])
    #expect(outcome.status == 0)
    let lines = outcome.lines
    let token = try sample.token("stk.monitor.facts")
    #expect(lines[0] == "stk.monitor.facts: an append-only log, change token \(token)")
    #expect(
      lines[1].hasPrefix(
        "the monitor extension's facts (MonitorRecorder's outbox): 6 facts, numbers 1...6 of epoch "
      ))
    #expect(lines[1].hasSuffix(", capacity 1024, 0 evicted"))
    #expect(lines[2].hasPrefix("the app (stk.pipeline.state) has drained up to 4@"))
    #expect(lines[2].hasSuffix(": 2 facts not yet drained"))
    #expect(
      Array(lines[4...]) == [
        "NUMBER  CALLBACK                ACTIVITY  EVENT                        INSTANT",
        "1       intervalDidStart        daily     -                            2026-03-29T07:00:00Z",
        "2       eventDidReachThreshold  daily     stk:5m:com.burbn.instagram   2026-03-29T07:05:00Z",
        "3       eventDidReachThreshold  daily     stk:10m:com.burbn.instagram  2026-03-29T07:10:00Z",
        "4       eventDidReachThreshold  daily     stk:5m:com.duolingo          2026-03-29T07:55:30Z",
        "5       eventDidReachThreshold  daily     stk:10m:com.duolingo         2026-03-29T08:10:00Z",
        "6       intervalDidEnd          daily     -                            2026-03-29T08:30:00Z",
        "",
      ])
  }

  @Test("show decodes the heartbeat history and finds its longest silence")
  func showHeartbeats() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "stk.heartbeats.monitor"])
    #expect(outcome.status == 0)
    #expect(
      Array(outcome.lines.dropFirst()) == [
        "heartbeats of monitor (HeartbeatRecorder): 7 heartbeats, capacity 2880, 0 evicted",
        "from 2026-03-29T07:00:00Z to 2026-03-29T08:30:00Z; longest silence 45m 30s, "
          + "from 2026-03-29T07:10:00Z to 2026-03-29T07:55:30Z",
        "",
        "INSTANT               SEQUENCE  MEMORY",
        "2026-03-29T07:00:00Z  1         3.2 MB",
        "2026-03-29T07:05:00Z  2         3.4 MB",
        "2026-03-29T07:06:00Z  -         3.1 MB",
        "2026-03-29T07:10:00Z  3         3.4 MB",
        "2026-03-29T07:55:30Z  4         3.5 MB",
        "2026-03-29T08:10:00Z  5         3.6 MB",
        "2026-03-29T08:30:00Z  6         3.3 MB",
        "",
      ])
  }

  @Test("show --json writes the heartbeats as gap-check's --heartbeats input, which it reads")
  func heartbeatsFeedGapCheck() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "stk.heartbeats.monitor", "--json"])
    #expect(outcome.status == 0)
    #expect(
      outcome.lines.first
        == #"{"at":"2026-03-29T07:00:00Z","memoryBytes":3200000,"sequence":1,"source":"monitor"}"#
    )
    let scratch = try TemporaryDirectory()
    let file = try write(outcome.stdout, to: "heartbeats.jsonl", in: scratch)
    let report = try Example(name: "gap-check").run(
      ["--day", "2026-03-29", "--heartbeats", file, "--now", "2026-03-29T08:31:00Z"])
    #expect(report.stderr == "")
    #expect(report.status == 3, "the silences after 07:10 are tracker down")
    #expect(report.lines.first?.hasPrefix("Gap report for 2026-03-29") == true)
    #expect(
      report.lines.contains("  07:10–08:30  1h 20m    tracker down       heartbeat silence"))
  }

  @Test("show decodes the diagnostic log, failures marked")
  func showDiagnostics() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "stk.diagnostics"])
    #expect(outcome.status == 0)
    #expect(
      Array(outcome.lines.dropFirst()) == [
        "the extension's diagnostic log (DiagnosticLog): 2 entries (1 failed), capacity 100, "
          + "0 evicted",
        "",
        "INSTANT               RESULT  ACTION             EVENT                        MEMORY  ERROR",
        "2026-03-29T07:05:00Z  ok      post_notification  stk:5m:com.burbn.instagram   3.4 MB  ",
        "2026-03-29T07:40:00Z  FAILED  record_usage       stk:15m:com.burbn.instagram  5.8 MB  "
          + "no space left on device",
        "",
      ])
  }

  @Test("show summarises the pipeline state (cursor, losses, ledger); a day's log lists its facts")
  func showPipelineState() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["show", sample.path, "stk.pipeline.state"])
    #expect(outcome.status == 0)
    let lines = outcome.lines
    #expect(lines[1] == "the app's pipeline state (UsagePipeline), revision 1")
    #expect(lines[2].hasPrefix("  cursor        after 4@"))
    #expect(lines[2].hasSuffix(": 2 facts not yet drained"))
    #expect(
      Array(lines[3...]) == [
        "  facts         in the logs stk.pipeline.state.facts.<UTC day>",
        lines[4],
        "  delivery      4 received, 0 missed, 0 recovered, 0 duplicates, 0 resets",
        "  losses        none",
        "  undecodable   none",
        "  ledger        in the log stk.pipeline.state.ledger",
        "  tracker down  no alert acknowledged",
        "",
      ])
    #expect(lines[4].hasPrefix("  last applied  4@"))
    #expect(lines[4].hasSuffix(", a fact of 2026-03-29T07:55:30Z"))
    let day = try example.run(["show", sample.path, "stk.pipeline.state.facts.2026-03-29"])
    #expect(day.status == 0)
    #expect(
      Array(day.lines[1...]) == [
        "the app's facts of one UTC day (UsagePipeline): 4 facts",
        "",
        "CALLBACK                ACTIVITY  EVENT                        INSTANT",
        "intervalDidStart        daily     -                            2026-03-29T07:00:00Z",
        "eventDidReachThreshold  daily     stk:5m:com.burbn.instagram   2026-03-29T07:05:00Z",
        "eventDidReachThreshold  daily     stk:10m:com.burbn.instagram  2026-03-29T07:10:00Z",
        "eventDidReachThreshold  daily     stk:5m:com.duolingo          2026-03-29T07:55:30Z",
        "",
      ])
  }

  @Test("show of a damaged key prints the typed error on standard error and exits with 1")
  func showDamaged() throws {
    let sample = try SampleStore(damaged: true)
    let outcome = try example.run(["show", sample.path, "app.profile"])
    #expect(outcome.status == 1)
    #expect(outcome.stdout == "")
    #expect(
      outcome.stderr
        == "store-tool: app.profile: SharedStoreError.corrupted: The value of key 'app.profile' "
        + "at '\(sample.path)/app.profile' is corrupted: the payload checksum does not match. "
        + "It was left untouched; quarantine it to keep it and start afresh.\n")
  }

  @Test("verify on a folder with one damaged file names it with its typed error and exits with 1")
  func verifyOneDamagedFile() throws {
    let sample = try SampleStore(damaged: true)
    let outcome = try example.run(["verify", sample.path])
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "")
    #expect(
      outcome.lines == [
        "verify \(sample.path): 10 keys",
        "ok       app.events",
        "DAMAGED  app.profile: SharedStoreError.corrupted: The value of key 'app.profile' at "
          + "'\(sample.path)/app.profile' is corrupted: the payload checksum does not match. "
          + "It was left untouched; quarantine it to keep it and start afresh.",
        "ok       app.settings",
        "ok       stk.diagnostics: 2 diagnostic entries decode",
        "ok       stk.heartbeats.monitor: 7 heartbeats decode; the last number handed out is 6",
        "ok       stk.monitor.facts: 6 facts decode",
        "ok       stk.pipeline.state: the pipeline state decodes",
        "ok       stk.pipeline.state.days: 39 records read",
        "ok       stk.pipeline.state.facts.2026-03-29: 4 facts decode",
        "ok       stk.pipeline.state.starts: 1 fact decode",
        "note     .lock: the store's lock file",
        "1 of 10 keys cannot be read: 1 damaged",
        "",
      ])
  }

  @Test("verify on an intact folder exits with 0")
  func verifyIntact() throws {
    let sample = try SampleStore()
    let outcome = try example.run(["verify", sample.path])
    #expect(outcome.status == 0)
    #expect(outcome.lines.suffix(2) == ["all 9 keys read", ""])
  }

  @Test("verify counts a newer format version as unreadable and notes the leftovers")
  func verifyLeftovers() throws {
    let sample = try SampleStore(leftovers: true)
    let outcome = try example.run(["verify", sample.path])
    #expect(outcome.status == 1)
    let lines = outcome.lines
    #expect(
      lines.contains(
        "NEWER    app.cache: SharedStoreError.unsupportedFormatVersion: The value of key "
          + "'app.cache' at '\(sample.path)/app.cache' uses store format version 2; this version "
          + "of ScreenTimeKit reads version 1 only."))
    #expect(
      lines.contains(
        "note     .tmp.app.settings.5eed: a leftover temporary file of app.settings, left by a "
          + "writer that was killed; readers ignore it, `store-tool clean` removes it"))
    #expect(
      lines.contains(
        "note     .quarantined.app.old.1: a quarantined file of app.old (ok), kept as evidence; "
          + "delete it once it is no longer needed"))
    #expect(lines.contains("note     .DS_Store: not the store's; the store ignores it"))
    #expect(lines.suffix(2) == ["1 of 10 keys cannot be read: 1 of a newer format version", ""])
  }

  @Test("list, show and verify leave the folder byte-identical, damaged files included")
  func readOnlyRunsChangeNothing() throws {
    let sample = try SampleStore(damaged: true, leftovers: true)
    let before = try sample.directory.snapshot()
    for arguments in [
      ["list"], ["verify"], ["show", "app.settings"], ["show", "app.profile"],
      ["show", "app.cache"], ["show", "stk.monitor.facts"], ["show", "stk.pipeline.state"],
      ["show", "stk.heartbeats.monitor", "--json"], ["show", "stk.diagnostics"],
    ] {
      let outcome = try example.run([arguments[0], sample.path] + arguments.dropFirst())
      #expect(outcome.status == 0 || outcome.status == 1, "\(arguments)")
    }
    #expect(try sample.directory.snapshot() == before)
  }

  @Test("a control: the byte-for-byte comparison catches clean, which changes the folder")
  func cleanChangesTheFolder() throws {
    let sample = try SampleStore(leftovers: true)
    let before = try sample.directory.snapshot()
    let outcome = try example.run(["clean", sample.path])
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "removed 1 leftover temporary file from \(sample.path)\n")
    let after = try sample.directory.snapshot()
    #expect(after != before)
    #expect(Set(before.keys).subtracting(after.keys) == [".tmp.app.settings.5eed"])
    #expect(
      try example.run(["clean", sample.path]).stdout
        == "no leftover temporary file in \(sample.path)\n")
  }

  @Test("quarantine moves a key's file aside byte for byte; the key is gone and the rest unchanged")
  func quarantine() throws {
    let sample = try SampleStore(damaged: true)
    var before = try sample.directory.snapshot()
    let outcome = try example.run(["quarantine", sample.path, "app.profile"])
    #expect(outcome.status == 0)
    #expect(
      outcome.stdout
        == "moved app.profile aside to \(sample.path)/.quarantined.app.profile.1; the key starts "
        + "afresh on its next write\n")
    var after = try sample.directory.snapshot()
    #expect(
      after.removeValue(forKey: ".quarantined.app.profile.1")
        == before.removeValue(forKey: "app.profile"))
    #expect(after == before)
    #expect(try example.run(["verify", sample.path]).status == 0)
  }

  static let badRuns: [(arguments: [String], status: Int32, message: String)] = [
    ([], 2, "a subcommand is needed: list, show, verify, quarantine or clean (see --help)"),
    (
      ["frobnicate", "$DIR"], 2,
      "unknown subcommand frobnicate; it is list, show, verify, quarantine or clean (see --help)"
    ),
    (["list"], 2, "list needs DIR (see --help)"),
    (["show", "$DIR"], 2, "show needs KEY (see --help)"),
    (["list", "$DIR", "extra"], 2, "unexpected argument extra (see --help)"),
    (["list", "$DIR", "--bogus"], 2, "unknown option --bogus (see --help)"),
    (["verify", "$DIR", "--json"], 2, "--json is an option of show only (see --help)"),
    (["list", "$DIR/missing"], 3, "$DIR/missing: no such folder"),
    (["verify", "$DIR/.lock"], 3, "$DIR/.lock: is a file, not a folder"),
    (["show", "$DIR", "nope"], 3, "no key nope in $DIR; `store-tool list $DIR` lists the keys"),
    (
      ["quarantine", "$DIR", "nope"], 3,
      "no key nope in $DIR; `store-tool list $DIR` lists the keys"
    ),
    (
      ["show", "$DIR", "../etc/passwd"], 3,
      #"Invalid store key "../etc/passwd": a key must not start with '.'."#
    ),
    (["show", "$DIR", "app.events", "--json"], 3, "app.events: record 1 holds no JSON"),
    (
      ["list", "$EMPTY"], 3,
      "$EMPTY has no .lock file, so it is not a FileStore folder — or its hidden files were not "
        + "copied with it; `touch $EMPTY/.lock` to inspect it anyway"
    ),
  ]

  @Test(
    "bad input or command line: one line on standard error, exit status 2 or 3", arguments: badRuns)
  func badRun(arguments: [String], status: Int32, message: String) throws {
    let sample = try SampleStore()
    let empty = try TemporaryDirectory()
    func substituted(_ text: String) -> String {
      text.replacingOccurrences(of: "$EMPTY", with: empty.path)
        .replacingOccurrences(of: "$DIR", with: sample.path)
    }
    let before = try sample.directory.snapshot()
    let outcome = try example.run(arguments.map(substituted))
    #expect(outcome.status == status)
    #expect(outcome.stderr == "store-tool: \(substituted(message))\n")
    #expect(outcome.stdout == "")
    #expect(try sample.directory.snapshot() == before)
    #expect(try empty.contents() == [], "a folder without .lock is not given one")
  }
}
