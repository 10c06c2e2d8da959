import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing

/// The shared folder damaged between real processes — the outbox truncated, its bytes flipped,
/// rolled back to an older copy, deleted — and then the extension and the app run again, each a
/// process of `stk-test-helper`: nothing crashes or hangs, every lost number is reported with
/// its range and epoch, and recording resumes at the next callback.
@Suite("The outbox damaged between processes heals, and every loss is reported")
struct OutboxDamageTests {
  /// The ways the tests damage the outbox between two runs of the extension.
  enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case truncatedToHalf
    case truncatedToHeader
    case bytesFlippedInHeader
    case bytesFlippedInMiddle
    case rolledBackToOlderCopy
    case deleted
    case folderRestoredAsAWhole

    var testDescription: String { rawValue }
  }

  /// One run's folder, and the helper invocations on it.
  struct Folder {
    let directory: TemporaryDirectory
    var outbox: URL { directory.url.appendingPathComponent("stk.monitor.facts") }
    /// The monitor extension's heartbeats, which carry the outbox's high-water mark.
    var mark: URL { directory.url.appendingPathComponent("stk.heartbeats.monitor") }

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-heal")
    }

    /// Runs the extension for `count` callbacks from `from`; returns the numbers it published
    /// and the failures it reported.
    func extensionRun(from: Int, count: Int) throws -> (
      numbers: [SequenceNumber], failures: [String]
    ) {
      let lines = try HelperProcess.run(
        [
          "outbox-heal-extension", "--dir", directory.url.path, "--from", "\(from)", "--count",
          "\(count)",
        ], timeLimit: .seconds(60))
      var numbers: [SequenceNumber] = []
      var failures: [String] = []
      for line in lines {
        if line.hasPrefix("n ") {
          let fields = line.split(separator: " ")
          numbers.append(
            SequenceNumber(
              epoch: SequenceEpoch(rawValue: UInt64(fields[1], radix: 16) ?? 0),
              value: UInt64(fields[2]) ?? 0))
        } else if line.hasPrefix("f ") {
          failures.append(String(line.dropFirst(2)))
        }
      }
      return (numbers, failures)
    }

    /// Wakes the app once at `minute`; returns what it printed.
    func appRun(minute: Int) throws -> AppReport {
      AppReport(
        lines: try HelperProcess.run(
          ["outbox-heal-app", "--dir", directory.url.path, "--minute", "\(minute)"],
          timeLimit: .seconds(60)))
    }
  }

  /// What the app printed: the facts applied by its wake, and its state's losses and recoveries.
  struct AppReport {
    var applied = 0
    var reset: String?
    var losses: [SequenceRange] = []
    var recoveries: [(epoch: String, last: String, quarantinedTo: String)] = []

    init(lines: [String]) {
      for line in lines {
        let fields = line.split(separator: " ").map(String.init)
        switch fields.first {
        case "a": applied = Int(fields[1]) ?? -1
        case "reset": reset = fields.dropFirst().joined(separator: " ")
        case "l":
          losses.append(
            SequenceRange(
              epoch: SequenceEpoch(rawValue: UInt64(fields[1], radix: 16) ?? 0),
              values: (UInt64(fields[2]) ?? 0)...(UInt64(fields[3]) ?? 0)))
        case "r": recoveries.append((fields[1], fields[2], fields[3]))
        default: break
        }
      }
    }
  }

  /// Damages the folder's outbox as `damage` says; `copy` is the outbox and its mark (the
  /// heartbeats that carry it) as they were after 20 callbacks.
  static func apply(_ damage: Damage, to folder: Folder, copy: (Data, Data)) throws {
    let bytes = try Data(contentsOf: folder.outbox)
    switch damage {
    case .truncatedToHalf:
      try bytes.prefix(bytes.count / 2).write(to: folder.outbox)
    case .truncatedToHeader:
      try bytes.prefix(LogFileFormat.headerSize).write(to: folder.outbox)
    case .bytesFlippedInHeader, .bytesFlippedInMiddle:
      var damaged = bytes
      // In the header, or among the frames of 31…40, which the app has not drained.
      let at = damage == .bytesFlippedInHeader ? 20 : bytes.count - (bytes.count - 56) / 6
      for offset in at..<at + 4 { damaged[offset] ^= 0x5A }
      try damaged.write(to: folder.outbox)
    case .rolledBackToOlderCopy:
      try copy.0.write(to: folder.outbox)
    case .folderRestoredAsAWhole:
      try copy.0.write(to: folder.outbox)
      try copy.1.write(to: folder.mark)
    case .deleted:
      try FileManager.default.removeItem(at: folder.outbox)
    }
  }

  @Test(
    "a damaged outbox never stops the pipeline and every lost number is reported",
    arguments: Damage.allCases)
  func damagedOutboxHeals(damage: Damage) throws {
    let folder = try Folder()
    // The extension publishes 1…20, a copy is taken, then 21…30; the app drains them; the
    // extension publishes 31…40, which the app has not drained when the outbox is damaged.
    let first = try folder.extensionRun(from: 0, count: 20)
    let copy = (try Data(contentsOf: folder.outbox), try Data(contentsOf: folder.mark))
    _ = try folder.extensionRun(from: 20, count: 10)
    #expect(try folder.appRun(minute: 30).applied == 30)
    let late = try folder.extensionRun(from: 30, count: 10)
    #expect(first.failures.isEmpty && late.failures.isEmpty)
    let epoch = try #require(late.numbers.last).epoch
    #expect(late.numbers.last == SequenceNumber(epoch: epoch, value: 40))

    try Self.apply(damage, to: folder, copy: copy)
    if damage == .folderRestoredAsAWhole {
      // The app, launched after the restore, finds the outbox behind its cursor: it reports
      // the reset and has the extension number on after what it applied.
      let launch = try folder.appRun(minute: 40)
      #expect(launch.reset == "numbering went back from 30")
      #expect(launch.applied == 0 && launch.losses.isEmpty)
    }

    // Recording resumes at the next callback, whatever the damage.
    let next = try folder.extensionRun(from: 40, count: 1)
    let resumed = try #require(next.numbers.first, "the callback after the damage is recorded")
    let app = try folder.appRun(minute: 41)
    switch damage {
    case .truncatedToHalf, .truncatedToHeader, .rolledBackToOlderCopy:
      // The outbox went back: it numbers on after 40, and the app lost exactly 31…40.
      #expect(resumed == SequenceNumber(epoch: epoch, value: 41), "no number handed out twice")
      #expect(next.failures.isEmpty)
      #expect(app.losses == [SequenceRange(epoch: epoch, values: 31...40)])
      #expect(app.applied == 1)
      #expect(app.recoveries.isEmpty)
    case .folderRestoredAsAWhole:
      // Nothing remembers 31…40 but the reset; no number the app applied is used again.
      #expect(resumed == SequenceNumber(epoch: epoch, value: 31))
      #expect(next.failures.isEmpty)
      #expect(app.applied == 1)
      #expect(app.losses.isEmpty && app.recoveries.isEmpty)
    case .deleted:
      // A new epoch, and the old one's end reported with its last number.
      #expect(resumed.epoch != epoch && resumed.value == 1)
      #expect(next.failures.isEmpty)
      #expect(app.losses == [SequenceRange(epoch: epoch, values: 31...40)])
      #expect(app.applied == 1)
      #expect(app.recoveries.count == 1)
      #expect(
        app.recoveries.first.map { [$0.epoch, $0.last, $0.quarantinedTo] }
          == ["\(epoch)", "40", "-"])
    case .bytesFlippedInHeader, .bytesFlippedInMiddle:
      // Whoever reads the damage first moves the outbox aside, keeping its bytes: the
      // extension, whose fact then starts a new epoch; or the app, which drains the damaged
      // numbers of 31…41 from the quarantined outbox as lost.
      let recovery = try #require(app.recoveries.first)
      #expect(app.recoveries.count == 1)
      #expect(FileManager.default.fileExists(atPath: recovery.quarantinedTo), "bytes kept")
      #expect(recovery.epoch == "\(epoch)")
      if resumed.epoch != epoch {
        #expect(resumed.value == 1)
        #expect(next.failures.count == 1, "the extension reports the quarantine")
        #expect(recovery.last == "40")
        #expect(app.losses == [SequenceRange(epoch: epoch, values: 31...40)])
        #expect(app.applied == 1)
      } else {
        #expect(damage == .bytesFlippedInMiddle, "a damaged header is read by every append")
        #expect(resumed.value == 41 && next.failures.isEmpty)
        #expect(recovery.last == "41")
        #expect(app.losses == [SequenceRange(epoch: epoch, values: 31...41)])
        #expect(app.applied == 0)
      }
    }

    // And on: the next callback and wake are ordinary, and report nothing new.
    let after = try folder.extensionRun(from: 41, count: 1)
    #expect(after.failures.isEmpty)
    #expect(after.numbers.count == 1)
    let settled = try folder.appRun(minute: 42)
    #expect(settled.applied == 1)
    #expect(settled.losses == app.losses)
    #expect(settled.recoveries.count == app.recoveries.count)
  }
}
