import Foundation

// gap-check: was a day's silence a dead tracker or a person who put the phone down?
//
//   swift run gap-check --day 2026-03-29 --time-zone Europe/Paris \
//     --heartbeats Examples/gap-check/Samples/heartbeats.jsonl \
//     --usage Examples/gap-check/Samples/usage.jsonl
//
// A showcase of GapDetection (the gap report, the alert, the SVG timeline) with TrackerSignals'
// heartbeats, and of ActivityWatchInterop (`gap-check merge`). main.swift reads the command
// line; DayReport.swift makes and prints the report; Merge.swift merges ActivityWatch files;
// Input.swift reads JSON Lines.

let help = """
  usage: gap-check --day YYYY-MM-DD --heartbeats FILE [options]
         gap-check merge (--pulsetime SECONDS | --adaptive) [--skip-malformed] INPUT OUTPUT

  The gap report of one local day: how the time in which the tracker should have been running
  was spent — tracked (usage recorded), idle (heartbeats fine, nobody used the device), tracker
  down (heartbeats silent: usage was probably lost) and notification loss (notification numbers
  went missing) — with each gap, its evidence, and whether a tracker-down alert is raised (15
  minutes or more of tracker-down time in one window).

  Input files are JSON Lines, one object per line:
    --heartbeats FILE  the tracker's heartbeats, in the order they were recorded:
                       {"at": "2026-03-29T05:30:00Z", "source": "monitor", "memoryBytes":
                       3400000} (only source "monitor" counts; sequence and memoryBytes are
                       optional); give the last one before the day too, if there is one
    --usage FILE       usage records: {"app": "com.instagram.instagram", "category":
                       "social_media", "start": "2026-03-29T05:45:00Z", "end":
                       "2026-03-29T06:10:00Z", "source": "heartbeat"} (category optional)
    --sightings FILE   the notification numbers the app received, and when: {"epoch":
                       "00000000000000a1", "value": 7, "at": "2026-03-29T14:00:00Z"}; a number
                       missing is notification loss
  Instants are ISO 8601 with Z or an offset.

  options:
    --day YYYY-MM-DD   the local day to report on (required)
    --time-zone ID     the IANA time zone of the day (default: UTC, whatever the machine's zone)
    --day-start HH:mm  when the day starts on the wall clock (default: 00:00)
    --now INSTANT      the instant of the report, ISO 8601; the day is cut there, and
                       heartbeats and sightings dated later are ignored. Without it the report
                       is made as of the END of the day, as for a day that is over: give --now
                       for a day still in progress.
    --expect WHEN      when tracking was expected: since-first-heartbeat (the default: before
                       the tracker's first heartbeat nothing is judged) or always
    --svg FILE         also draw the day as an SVG timeline in FILE
    --json             print the report as JSON: DiagnosticsReport's documented form
    --help             show this help

  gap-check merge reads ActivityWatch heartbeats, one event per line ({"timestamp":
  "2026-03-29T05:30:00+00:00", "duration": 0.0, "data": {"app": "Safari"}}), merges them by
  ActivityWatch's rule and writes the events, in the same form, to OUTPUT, streaming in
  constant memory. --pulsetime SECONDS is ActivityWatch's fixed pulse time (for example 31 or
  0.5); --adaptive follows the heartbeats' own cadence instead. A malformed line stops the merge
  and nothing is written, unless --skip-malformed, which merges the valid lines and reports how
  many were skipped. On a terminal, a merge that takes more than two seconds shows its progress.

  examples:
    swift run gap-check --day 2026-03-29 --time-zone Europe/Paris \\
      --heartbeats Examples/gap-check/Samples/heartbeats.jsonl \\
      --usage Examples/gap-check/Samples/usage.jsonl \\
      --sightings Examples/gap-check/Samples/sightings.jsonl --svg day.svg
    swift run gap-check merge --pulsetime 31 \\
      Examples/gap-check/Samples/aw-heartbeats.jsonl merged.jsonl

  exit status:
    0  the report was printed and raised no alert; or the merge was written
    1  bad input: a file is missing or unreadable, a line is not valid (one line on standard
       error names the file, the line and the problem); nothing is written
    2  bad command line: an unknown subcommand or option, a missing or malformed value, an
       unknown time zone
    3  the report was printed and raised a tracker-down alert
  """

let arguments = Array(CommandLine.arguments.dropFirst())
do throws(Failure) {
  if arguments.contains("--help") || arguments.contains("-h") {
    print(help)
    exit(0)
  }
  if arguments.first == "merge" {
    try Merge(Array(arguments.dropFirst())).run()
    exit(0)
  }
  if let first = arguments.first, !first.hasPrefix("-") {
    throw .usage("unknown subcommand \(first); the subcommand is merge, or none for a report")
  }
  let report = try DayReport(arguments)
  exit(try report.run() ? 3 : 0)
} catch {
  FileHandle.standardError.write(Data("gap-check: \(error.description)\n".utf8))
  exit(error.status)
}
