import Foundation
import UsageModel

// usage-report: per-day, per-category and per-app totals of usage records, with budgets.
//
//   swift run usage-report Examples/usage-report/Samples/usage.jsonl --time-zone Europe/Paris
//
// A showcase of UsageModel (records, local days, aggregation, the sync payload) and BudgetMath
// (a monthly plan's status and pace). main.swift reads the command line, Input.swift the files;
// Report.swift does the arithmetic with the library, and Output.swift prints it.

let help = """
  usage: usage-report [options] FILE...

  Totals usage per local day, per category and per app, exactly (records that overlap count
  once; a record that crosses midnight is split there), and with --plan shows how each budget
  of a monthly plan stands and where it is heading.

  Each FILE (or - for standard input) holds JSON Lines, one object per line, each either
    a usage record   {"app": "com.instagram.instagram", "category": "social_media",
                      "start": "2026-03-29T07:40:00Z", "end": "2026-03-29T08:05:00Z",
                      "source": "heartbeat"}
                     (category optional; source: threshold_event, heartbeat, report_import,
                     manual; instants ISO 8601 with Z or an offset)
    or a sync payload {"userId": "user-123", "usageDate": "2026-03-31", "apps": [{"bundleId":
                      "com.netflix.Netflix", "appName": "Netflix", "totalMinutes": 95}]}
                     (the budget backend's sync request; a later payload for the same day
                     replaces an earlier one, as a re-sync does; a day has records or payloads,
                     not both).
  A file may also hold a single object spread over several lines.

  options:
    --time-zone ID     the IANA time zone whose days are counted (default: UTC, whatever the
                       machine's zone is)
    --day-start HH:mm  when a day starts on the wall clock (default: 00:00)
    --month YYYY-MM    count only the days of this month
    --rules FILE       categorisation rules for records and payload apps that carry no
                       category, as JSON: [{"match": "prefix", "value": "com.netflix.",
                       "category": "entertainment"}, …] (match: exact, prefix or pattern)
    --plan FILE        a monthly plan as JSON, {"month": "2026-03", "startDay": "2026-03-01",
                       "budgets": [{"category": "social_media", "period": {"kind": "month"},
                       "amountMs": 108000000}, …]}: adds each budget's status and pace, and
                       counts only the plan's month
    --now INSTANT      count usage up to this instant, ISO 8601 with Z or an offset, and
                       judge the budgets of --plan at it, on the day then in progress (at
                       midnight, the day just ended); without it, everything is counted and the
                       budgets are judged at the end of the latest day of the plan with usage
    --json             print JSON instead of text: {"usage": UsageReport, "totals":
                       {"totalMs", "categories", "apps"}, "budgets": {"month", "day", "now",
                       "categories": [{"report": BudgetReport, "pace": PaceProjection}]}}
                       (see Examples/usage-report/README.md)
    --help             show this help

  example:
    swift run usage-report Examples/usage-report/Samples/usage.jsonl \\
      Examples/usage-report/Samples/sync.jsonl --time-zone Europe/Paris \\
      --rules Examples/usage-report/Samples/rules.json \\
      --plan Examples/usage-report/Samples/plan.json

  exit status:
    0  the report was printed
    1  bad input: a file is missing or unreadable, a line is not valid, the plan does not fit
       (one line on standard error names the file, the line and the problem)
    2  bad command line: an unknown option, a missing or malformed value, an unknown time zone
  """

/// What the command line asked for.
struct Options {
  var files: [String] = []
  var timeZone = "UTC"
  var dayStart = TimeOfDay.midnight
  var month: LocalMonth?
  var rulesFile: String?
  var planFile: String?
  var now: Date?
  var json = false
  var showHelp = false

  /// Reads the arguments, without the program's name.
  init(_ arguments: [String]) throws(Failure) {
    var arguments = arguments[...]
    func value(of option: String) throws(Failure) -> String {
      guard let value = arguments.popFirst() else { throw .usage("\(option) needs a value") }
      return value
    }
    while let argument = arguments.popFirst() {
      switch argument {
      case "--help", "-h": showHelp = true
      case "--json": json = true
      case "--time-zone": timeZone = try value(of: argument)
      case "--rules": rulesFile = try value(of: argument)
      case "--plan": planFile = try value(of: argument)
      case "--day-start":
        let text = try value(of: argument)
        do { dayStart = try TimeOfDay(parsing: text) } catch {
          throw .usage("--day-start: \(error)")
        }
      case "--month":
        let text = try value(of: argument)
        do { month = try LocalMonth(parsing: text) } catch { throw .usage("--month: \(error)") }
      case "--now":
        let text = try value(of: argument)
        guard let instant = parseInstant(text) else {
          throw .usage(
            "--now: \(text.debugDescription) is not an ISO 8601 instant such as "
              + "2026-03-30T21:00:00+02:00")
        }
        now = instant
      case "-": files.append(argument)
      default:
        guard !argument.hasPrefix("-") else { throw .usage("unknown option \(argument)") }
        files.append(argument)
      }
    }
    guard showHelp || !files.isEmpty else { throw .usage("no input file given") }
  }
}

/// Parses an ISO 8601 instant with a `Z` or an offset, with or without a fraction of a second.
func parseInstant(_ text: String) -> Date? {
  let formatter = ISO8601DateFormatter()
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions.insert(.withFractionalSeconds)
  return formatter.date(from: text)
}

do throws(Failure) {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  if options.showHelp {
    print(help)
    exit(0)
  }
  let boundary: DayBoundary
  do {
    boundary = try DayBoundary(timeZoneIdentifier: options.timeZone, dayStart: options.dayStart)
  } catch {
    throw .usage("--time-zone: \(error)")
  }
  var input = Input()
  if let file = options.rulesFile { try input.readRules(file) }
  if let file = options.planFile { try input.readPlan(file) }
  for file in options.files { try input.read(file) }
  let report = try UsageSummary(
    input: input, boundary: boundary, month: options.month, now: options.now)
  if options.json {
    FileHandle.standardOutput.write(try report.json())
  } else {
    print(report.text, terminator: "")
  }
} catch {
  FileHandle.standardError.write(Data("usage-report: \(error.description)\n".utf8))
  exit(error.status)
}
