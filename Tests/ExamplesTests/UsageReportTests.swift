import BudgetMath
import Foundation
import TestSupport
import Testing
import UsageModel

/// `usage-report`, run as a process on its samples and on bad input.
@Suite("usage-report")
struct UsageReportTests {
  let example = Example(name: "usage-report")

  /// The sample records and payloads, counted in Paris with the sample rules.
  func sampleReport(_ extra: [String] = []) throws -> Example.Outcome {
    try example.run(
      [
        example.sample("usage.jsonl"), example.sample("sync.jsonl"), "--time-zone",
        "Europe/Paris", "--rules", example.sample("rules.json"),
      ] + extra)
  }

  @Test("the sample days are totalled per day, category and app; the DST day lasts 23 hours")
  func sampleTotals() throws {
    let outcome = try sampleReport()
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "")
    let lines = outcome.lines
    // 01:30 to 03:20 on the wall clock of the spring-forward night is 50 minutes, and the
    // report import of the same half hour adds nothing.
    let sunday = try #require(lines.firstIndex { $0.hasPrefix("2026-03-29") })
    #expect(
      Array(lines[sunday...].prefix(4)) == [
        "2026-03-29 Sunday (23h 00m: clocks changed)           4h 00m",
        "  Social Media                                        1h 30m",
        "    com.instagram.instagram (Instagram)                  50m",
        "    com.zhiliaoapp.musically                             40m",
      ])
    #expect(lines.contains("All 4 days                                           12h 50m"))
    #expect(lines.contains("    com.netflix.Netflix (Netflix)                     5h 05m"))
    #expect(
      lines.contains("Counted as Other, as no rule matched them (see --rules): com.example.notes"))
  }

  @Test("a record that crosses midnight is split between its two days")
  func midnightSplit() throws {
    let lines = try sampleReport().lines
    // TikTok from 23:30 to 00:40: 30 minutes on Saturday, 40 on Sunday.
    let saturday = try #require(lines.firstIndex { $0.hasPrefix("2026-03-28") })
    #expect(lines[saturday + 5] == "    com.zhiliaoapp.musically                             30m")
    #expect(lines.contains("    com.zhiliaoapp.musically                             40m"))
  }

  @Test("a later sync payload for a day replaces the earlier one")
  func resyncReplaces() throws {
    let lines = try sampleReport().lines
    let tuesday = try #require(lines.firstIndex { $0.hasPrefix("2026-03-31") })
    #expect(
      Array(lines[tuesday...].prefix(6)) == [
        "2026-03-31 Tuesday                                    3h 20m",
        "  Entertainment                                       2h 00m",
        "    com.netflix.Netflix (Netflix)                     2h 00m",
        "  Social Media                                        1h 05m",
        "    com.instagram.instagram (Instagram)               1h 05m",
        "  Education                                              15m",
      ])
  }

  @Test("the backend's example payload, one object over several lines, is a day of app minutes")
  func backendExamplePayload() throws {
    let outcome = try example.run([
      example.sample("backend-example-payload.json"), "--rules", example.sample("rules.json"),
    ])
    #expect(outcome.status == 0)
    #expect(outcome.lines.contains("2026-01-02 Friday                                     3h 05m"))
    #expect(outcome.lines.contains("    com.instagram.instagram (Instagram)               1h 05m"))
  }

  @Test("days are UTC days unless --time-zone says otherwise, whatever the process's zone")
  func utcByDefault() throws {
    let outcome = try example.run(
      [example.sample("usage.jsonl")], environment: ["TZ": "Europe/Paris"])
    #expect(outcome.status == 0)
    // In UTC 2026-03-29 is an ordinary day, and the TikTok session ends on Saturday.
    // Foundation names UTC "GMT" on Linux.
    #expect(["Usage in UTC", "Usage in GMT"].contains { outcome.lines[0].hasPrefix($0) })
    #expect(outcome.lines.contains("2026-03-28 Saturday                                   3h 15m"))
    #expect(outcome.lines.contains("2026-03-29 Sunday                                     3h 20m"))
  }

  @Test("budgets are judged at the end of the latest day with usage, and the report says so")
  func budgetsByDefault() throws {
    let outcome = try sampleReport(["--plan", example.sample("plan.json")])
    #expect(outcome.status == 0)
    let lines = outcome.lines
    let budgets = try #require(lines.firstIndex { $0.hasPrefix("Budgets of") })
    #expect(
      Array(lines[budgets...].prefix(8)) == [
        "Budgets of 2026-03 (from 2026-03-28 on) on 2026-03-31, as of 2026-04-01 00:00 +02:00",
        "(the end of the latest day with usage; see --now)",
        "  Education: excluded, tracked but not limited: today 15m, so far 35m",
        "  Entertainment: over today, over so far",
        "    today       2h 00m of 38m 43s, over by 1h 21m 17s",
        "    so far      6h 15m of 2h 34m 51s, over by 3h 40m 09s",
        "    pace        used up",
        "  Gaming: under today, under so far",
      ])
  }

  @Test("--now counts nothing after it, and the pace runs from the plan's start")
  func budgetsAtNow() throws {
    let outcome = try sampleReport([
      "--plan", example.sample("plan.json"), "--now", "2026-03-29T21:00:00+02:00",
    ])
    #expect(outcome.status == 0)
    let lines = outcome.lines
    // The notes app was used from 21:00, the 31st's payload is later still.
    #expect(!outcome.stdout.contains("com.example.notes"))
    #expect(!lines.contains { $0.hasPrefix("2026-03-31") })
    // 45 minutes of gaming in the plan's first 1.875 days runs out its 4 days' 1h 17m 26s.
    let gaming = try #require(lines.firstIndex { $0.hasPrefix("  Gaming:") })
    #expect(
      Array(lines[gaming...].prefix(4)) == [
        "  Gaming: over today, under so far",
        "    today       45m of 19m 21s, over by 25m 39s",
        "    so far      45m of 1h 17m 26s, 32m 26s left",
        "    pace        runs out 2026-03-31 04:42 +02:00 at this rate",
      ])
  }

  @Test("--json is the documented form, built of the library's own JSON forms")
  func jsonForm() throws {
    let outcome = try sampleReport(["--plan", example.sample("plan.json"), "--json"])
    #expect(outcome.status == 0)
    let data = Data(outcome.stdout.utf8)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(Set(object.keys) == ["usage", "totals", "appNames", "budgets"])
    let form = try JSONDecoder().decode(Form.self, from: data)
    #expect(form.usage.days.count == 4)
    #expect(form.usage.total == .seconds(770 * 60))
    #expect(form.totals.totalMs == 46_200_000)
    #expect(
      try form.totals.apps.first
        == AppUsage(app: AppID("com.netflix.Netflix"), total: .seconds(305 * 60)))
    #expect(form.appNames["com.duolingo.DuolingoMobile"] == "Duolingo")
    #expect(try form.budgets.day == LocalDay(parsing: "2026-03-31"))
    #expect(form.budgets.now == "2026-03-31T22:00:00Z")
    #expect(
      form.budgets.categories.map(\.report.category.rawValue) == [
        "education", "entertainment", "gaming", "social_media",
      ])
    #expect(form.budgets.categories[0].pace == nil)
    #expect(form.budgets.categories[1].pace?.outlook == .exhausted)
  }

  /// The JSON form, decoded with the library's types.
  struct Form: Decodable {
    struct Totals: Decodable {
      let totalMs: Int64
      let categories: [CategoryUsage]
      let apps: [AppUsage]
    }
    struct Budgets: Decodable {
      let month: LocalMonth
      let day: LocalDay
      let now: String
      let categories: [Line]
    }
    struct Line: Decodable {
      let report: BudgetReport
      let pace: PaceProjection?
    }
    let usage: UsageReport
    let totals: Totals
    let appNames: [String: String]
    let budgets: Budgets
  }

  @Test("--help shows an example invocation and the exit statuses")
  func help() throws {
    let outcome = try example.run(["--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("example:\n  swift run usage-report"))
    #expect(outcome.stdout.contains("exit status:\n  0  the report was printed"))
  }

  /// A valid usage record of 2026-03-28.
  static let record =
    #"{"app": "com.a", "start": "2026-03-28T07:00:00Z", "end": "2026-03-28T08:00:00Z", "#
    + #""source": "manual"}"#

  /// A sync payload of 2026-03-28 with one row per entry of `minutes`.
  static func payload(_ minutes: [Int]) -> String {
    let apps = minutes.enumerated().map { index, minutes in
      #"{"bundleId": "com.app\#(index)", "appName": "App", "totalMinutes": \#(minutes)}"#
    }
    return #"{"userId": "u", "usageDate": "2026-03-28", "apps": ["#
      + apps.joined(separator: ", ") + "]}"
  }

  /// Bad input: the file, its text, and the one line the program must print.
  static let badInput: [(file: String, text: String, status: Int32, message: String)] = [
    (
      "malformed.jsonl", record + "\n" + #"{"app": "com.b", "start": "2026-03-28T07:00:00Z"}"#,
      1, "malformed.jsonl:2: missing field \"end\""
    ),
    (
      "syntax.jsonl", record + "\n" + record + "\n" + #"{"app": "com.b" "start"}"#, 1,
      // Foundation's words for where (here "invalid value around character 16") vary by
      // platform; the test checks the line up to them.
      "syntax.jsonl:3: not valid JSON"
    ),
    (
      "empty-line.jsonl", record + "\n\n" + record, 1,
      "empty-line.jsonl:2: empty line; each line must hold one JSON object"
    ),
    (
      "bad-instant.jsonl", record.replacingOccurrences(of: "08:00:00Z", with: "25:00:00Z"), 1,
      "bad-instant.jsonl:1: field \"end\": \"2026-03-28T25:00:00Z\" is not an ISO 8601 instant: "
        + "no such date or time"
    ),
    (
      "both.jsonl", record + "\n" + payload([5]), 1,
      "both.jsonl:2: 2026-03-28 has usage records too; give each day records or a sync payload, "
        + "not both"
    ),
    (
      "too-long.jsonl", payload([900, 900]), 1,
      "too-long.jsonl:1: the apps add up to 30h 00m, more than the 24h 00m of 2026-03-28"
    ),
    (
      "negative.jsonl", payload([-5]), 1,
      "negative.jsonl:1: field \"apps[0].totalMinutes\": -5 minutes is negative"
    ),
    (
      "sentinel.jsonl",
      record.replacingOccurrences(of: "2026-03-28T08:00:00Z", with: "4001-01-01T00:00:00Z"), 1,
      "the records: they span 721269 local days, 2026-03-28 to 4001-01-01; "
        + "count one month with --month"
    ),
  ]

  @Test(
    "bad input is one line naming the file, the line and the problem, and exit status 1",
    arguments: badInput)
  func badInputFile(file: String, text: String, status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    _ = try write(text, to: file, in: directory)
    let outcome = try example.run([file], in: directory.url)
    #expect(outcome.status == status)
    #expect(outcome.stderr.hasPrefix("usage-report: \(message)"))
    #expect(
      outcome.stderr.firstIndex(of: "\n") == outcome.stderr.index(before: outcome.stderr.endIndex))
    #expect(outcome.stdout == "")
  }

  /// Bad command lines and the one line the program must print.
  static let badCommandLines: [(arguments: [String], status: Int32, message: String)] = [
    (["missing.jsonl"], 1, "missing.jsonl: No such file or directory"),
    (["--frobnicate"], 2, "unknown option --frobnicate (see --help)"),
    ([], 2, "no input file given (see --help)"),
    (
      ["x", "--time-zone", "Mars/Olympus"], 2,
      "--time-zone: Unknown time zone \"Mars/Olympus\"; use an IANA identifier. (see --help)"
    ),
    (["x", "--month"], 2, "--month needs a value (see --help)"),
    (
      ["x", "--now", "tomorrow"], 2,
      "--now: \"tomorrow\" is not an ISO 8601 instant such as 2026-03-30T21:00:00+02:00 "
        + "(see --help)"
    ),
  ]

  @Test(
    "a bad command line is one line on standard error and exit status 2 (1 for a missing file)",
    arguments: badCommandLines)
  func badCommandLine(arguments: [String], status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    _ = try write(Self.record, to: "x", in: directory)
    let outcome = try example.run(arguments, in: directory.url)
    #expect(outcome.status == status)
    #expect(outcome.stderr == "usage-report: \(message)\n")
  }
}
