import Foundation

// store-tool: what is in a FileStore folder, and is any of it damaged? The tool an integrator
// reaches for when a user sends their app-group folder.
//
//   swift run store-tool list ~/Downloads/ScreenTimeKit
//   swift run store-tool show ~/Downloads/ScreenTimeKit stk.monitor.facts
//   swift run store-tool verify ~/Downloads/ScreenTimeKit
//
// A showcase of SharedStore (FileStore.inventory(), reads, quarantine, temporary files) that
// decodes the library's own keys with SequenceTracking, TrackerSignals and ScreenTimeKit.
// main.swift reads the command line; Folder.swift opens the folder and formats; Inventory.swift
// lists and verifies; Show.swift prints a key; LibraryKeys.swift decodes the library's keys.

let help = """
  usage: store-tool list DIR
         store-tool show DIR KEY [--json]
         store-tool verify DIR
         store-tool quarantine DIR KEY
         store-tool clean DIR

  Inspects the folder of a FileStore — the app-group folder an app and its extensions share —
  as ScreenTimeKit reads it: every file is checked against its header and checksums.

    list        every file: key, kind, size, format version, change token and state (ok,
                corrupted, newer format version, leftover temporary file, quarantined)
    show        the value of KEY: JSON pretty-printed (a ThresholdAccountant, under any key,
                decoded: its intervals and apps); a log's records; the library's own keys
                decoded — stk.monitor.facts (the extension's facts: number, callback, activity,
                event, instant), stk.heartbeats.<source> (heartbeats), stk.diagnostics (the
                diagnostic log) and stk.pipeline.state (the app's pipeline: a summary and the
                facts). --json prints the documented JSON forms instead, a log one record a line
                (JSON Lines): `show DIR stk.heartbeats.monitor --json` is gap-check's
                --heartbeats input
    verify      checks every file, and decodes the library's keys; prints one line per file on
                standard output, a damaged one with the typed error a read throws
    quarantine  moves KEY's file aside, byte for byte, to .quarantined.<name>.<n>, so that the
                key starts afresh; the evidence stays in the folder
    clean       removes the temporary files that writers killed mid-write left behind

  list, show and verify are read-only: they change no file in DIR, and take no lock. DIR must
  hold the store's lock file .lock, as every store folder does. quarantine and clean are the
  only subcommands that change the folder; they take the store's lock, as the app does, so
  they are safe while it runs. Instants are printed in UTC, ISO 8601.

  examples:
    swift run screen-time-demo --directory /tmp/stk-demo    # a store folder to look at
    swift run store-tool list /tmp/stk-demo/pipeline
    swift run store-tool show /tmp/stk-demo/pipeline stk.monitor.facts
    swift run store-tool show /tmp/stk-demo/pipeline stk.heartbeats.monitor --json > beats.jsonl
    swift run store-tool verify /tmp/stk-demo/pipeline

  exit status:
    0  done; for verify, every key's file reads
    1  damage: verify found a file that is damaged or of a newer format version, or show's KEY
       is (the typed error names it); nothing was changed
    2  bad command line: an unknown subcommand or option, a missing or extra argument
    3  bad input: DIR is missing, is not a folder or is not a store's; KEY is not valid or not
       in DIR; a file-system call failed (one line on standard error says which)
  """

let arguments = Array(CommandLine.arguments.dropFirst())
do throws(Failure) {
  if arguments.contains("--help") || arguments.contains("-h") {
    print(help)
    exit(0)
  }
  guard !arguments.isEmpty else {
    throw .usage("a subcommand is needed: list, show, verify, quarantine or clean")
  }
  var operands = arguments.dropFirst().filter { !$0.hasPrefix("-") || $0 == "-" }
  let options = arguments.dropFirst().filter { $0.hasPrefix("-") && $0 != "-" }
  let json = options.contains("--json")
  if let unknown = options.first(where: { $0 != "--json" }) {
    throw .usage("unknown option \(unknown)")
  }
  if json, arguments[0] != "show" { throw .usage("--json is an option of show only") }
  func operand(_ name: String) throws(Failure) -> String {
    guard !operands.isEmpty else { throw .usage("\(arguments[0]) needs \(name)") }
    return operands.removeFirst()
  }
  let status: Int32
  switch arguments[0] {
  case "list":
    let folder = try Folder(readOnly: operand("DIR"))
    try Failure.noExtra(operands)
    status = try Inventory(folder).list()
  case "verify":
    let folder = try Folder(readOnly: operand("DIR"))
    try Failure.noExtra(operands)
    status = try Inventory(folder).verify()
  case "show":
    let folder = try Folder(readOnly: operand("DIR"))
    let key = try operand("KEY")
    try Failure.noExtra(operands)
    status = try Show(folder, key: key, json: json).run()
  case "quarantine":
    let folder = try Folder(changing: operand("DIR"))
    let key = try operand("KEY")
    try Failure.noExtra(operands)
    status = try folder.quarantine(key)
  case "clean":
    let folder = try Folder(changing: operand("DIR"))
    try Failure.noExtra(operands)
    status = try folder.clean()
  case let other:
    throw .usage("unknown subcommand \(other); it is list, show, verify, quarantine or clean")
  }
  exit(status)
} catch {
  FileHandle.standardError.write(Data("store-tool: \(error.description)\n".utf8))
  exit(error.status)
}
