import AppPipeline
import Foundation
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The app's own files damaged between real processes.
///
/// An extension process records, an app process drains, redeems and shows the day, and between
/// them the test truncates, garbles, rolls back or removes one of the app side's files. Nothing
/// crashes or hangs, every loss is reported with its range, recording resumes at the next
/// callback, no minute is lost that the outbox still held, no reward is paid twice, and the wake
/// after a recovery is a normal one.
@Suite("The app's state damaged between processes")
struct AppStateDamageTests {

  /// How the test damages a file: one of ``FolderDamage``'s, or a roll back to the copy taken
  /// before the app's last wake.
  enum Damage: String, CaseIterable, CustomStringConvertible {
    case flipHeader, truncateToHalf, rollBack, delete

    var description: String { rawValue }
  }

  /// The app side's files, by what they hold; the facts are those of the second day, in UTC.
  static let targets: [PipelineRecovery.File] = [.state, .facts, .starts, .summaries, .ledger]

  /// Whether the damage must be reported: it loses something the files alone do not say.
  static func mustReport(_ file: PipelineRecovery.File, _ damage: Damage) -> Bool {
    switch damage {
    case .flipHeader: return true
    case .delete: return [.state, .facts, .ledger].contains(file)
    // The last fact applied is gone from the day log; the ledger is behind the app's last
    // redemption. An older state is an older cursor: the next drain applies the outbox again.
    case .truncateToHalf, .rollBack: return [.facts, .ledger].contains(file)
    }
  }

  static func key(of file: PipelineRecovery.File) throws -> String {
    let layout = SharedFolderLayout.standard
    switch file {
    case .state: return layout.appStateKey
    case .facts: return layout.appFactsKey(of: try LocalDay(parsing: "2026-04-16"))
    case .starts: return layout.appStartsKey
    case .summaries: return layout.appSummariesKey
    case .ledger: return layout.appLedgerKey
    }
  }

  /// Runs a helper, which must finish within 60 seconds with status 0.
  static func helper(_ arguments: [String]) throws -> [String] {
    try HelperProcess.run(arguments, timeLimit: .seconds(60))
  }

  static func extensionRecords(
    _ directory: TemporaryDirectory, day: String, from: String, minutes: Int, already: Int,
    start: Bool = false
  ) throws {
    let lines = try helper(
      [
        "heal-extension", "--dir", directory.url.path, "--day", day, "--from", from, "--minutes",
        "\(minutes)", "--already", "\(already)",
      ] + (start ? ["--start", "yes"] : []))
    #expect(lines.last?.hasPrefix("recorded ") == true, "\(lines)")
  }

  static func app(_ directory: TemporaryDirectory, now: String, redeem: String? = nil) throws
    -> HealReport
  {
    let lines = try helper(
      ["heal-app", "--dir", directory.url.path, "--now", now, "--day", "2026-04-16"]
        + (redeem.map { ["--redeem", $0] } ?? []))
    let line = try #require(lines.last)
    return try JSONDecoder().decode(HealReport.self, from: Data(line.utf8))
  }

  @Test(
    "a file of the app's state damaged between processes is healed, reported, and recording goes on",
    arguments: targets, Damage.allCases)
  func damagedBetweenProcesses(_ file: PipelineRecovery.File, _ damage: Damage) throws {
    let directory = try TemporaryDirectory(prefix: "stk-heal")
    let url = directory.url.appendingPathComponent(try Self.key(of: file))
    // Two days of use; the app drains on the second morning and redeems what was earned.
    try Self.extensionRecords(
      directory, day: "2026-04-15", from: "08:00", minutes: 30, already: 0, start: true)
    try Self.extensionRecords(
      directory, day: "2026-04-16", from: "08:00", minutes: 10, already: 0, start: true)
    let first = try Self.app(directory, now: "2026-04-16T13:00:00Z", redeem: "first")
    #expect(first.dayBeforeSeconds == 30 * 60)
    #expect(first.xp == 0)
    let copy = try Data(contentsOf: url)
    // Ten more minutes, a late event of the first day and the second day's start delivered
    // again, drained and redeemed: every file moves on from the copy.
    try Self.extensionRecords(
      directory, day: "2026-04-15", from: "08:30", minutes: 5, already: 30)
    try Self.extensionRecords(
      directory, day: "2026-04-16", from: "09:00", minutes: 10, already: 10, start: true)
    let second = try Self.app(directory, now: "2026-04-16T13:30:00Z", redeem: "second")
    #expect(second.seconds == 20 * 60)
    #expect(second.dayBeforeSeconds == 35 * 60)
    #expect(second.xp == 0)

    // Control: the damage is real — the file is not what the app left, nor the copy.
    let left = try Data(contentsOf: url)
    #expect(left != copy)
    switch damage {
    case .flipHeader: try FolderDamage.flipHeader.apply(to: url)
    case .truncateToHalf: try FolderDamage.truncateToHalf.apply(to: url)
    case .delete: try FolderDamage.delete.apply(to: url)
    case .rollBack: try copy.write(to: url)
    }

    #expect((try? Data(contentsOf: url)) != left)
    if damage == .flipHeader {
      // Control: the store refuses the file, as every wake did before the pipeline healed.
      let store = try FileStore(directory: directory.url)
      #expect(throws: SharedStoreError.self) { try store.readLog(try Self.key(of: file)) }
    }
    // Recording resumes at the next callback, and the app goes on.
    try Self.extensionRecords(
      directory, day: "2026-04-16", from: "09:30", minutes: 5, already: 20)
    let healed = try Self.app(directory, now: "2026-04-16T13:45:00Z")
    let reported = healed.recoveries.map(\.file)
    if Self.mustReport(file, damage) {
      #expect(reported == [file])
    } else {
      #expect(reported.allSatisfy { $0 == file })
    }
    #expect(healed.reportedRecoveries == healed.recoveries.count)
    let key = try Self.key(of: file)
    for recovery in healed.recoveries { #expect(recovery.key == key) }
    // The outbox held every fact: no minute is lost, none counted twice, nothing reported lost.
    #expect(healed.seconds == 25 * 60)
    #expect(healed.dayBeforeSeconds == 35 * 60)
    #expect(healed.losses == 0)
    // Fail safe: everything before was redeemed; at most the 5 minutes since are paid.
    #expect(healed.xp <= 50)

    // No loop: the next wake is a normal one.
    let next = try Self.app(directory, now: "2026-04-16T13:50:00Z")
    #expect(next.recoveries.isEmpty)
    #expect(next.reportedRecoveries == healed.reportedRecoveries)
    #expect(next.seconds == 25 * 60)
  }
}
