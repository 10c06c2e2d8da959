import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// The app moves a damaged outbox aside in one hold of the folder's lock, after reading it again
/// there: a monitor callback comes before the hold or after it, and no number it hands out is
/// lost without a report.
@Suite("The app's quarantine of the outbox holds the folder's lock")
struct OutboxQuarantineHoldTests {
  static let start = Date(timeIntervalSince1970: 1_776_211_200)

  static func minute(_ minute: Int) -> Date { start + Double(minute * 60) }

  /// A folder where the extension has published 1…3, with the app's pipeline and the
  /// extension's recorder on it.
  ///
  /// The pipeline's store runs ``/TestSupport/BeforeTheLock``'s action; the recorder opens the folder as
  /// another process does, with its own store and its own lock.
  struct Fixture {
    let directory: TemporaryDirectory
    let hook = BeforeTheLock(afterOpening: "stk.monitor.facts")
    var pipeline: UsagePipeline
    let recorder: MonitorRecorder
    var outbox: URL { directory.url.appendingPathComponent("stk.monitor.facts") }

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-quarantine-hold")
      pipeline = try UsagePipeline(
        folder: try hook.folder(at: directory.url).folder,
        configuration: PipelineConfiguration(userId: "hold", timeZone: .gmt))
      recorder = MonitorRecorder(
        folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
      for index in 1...3 {
        #expect(
          recorder.intervalDidStart(for: "a\(index)", now: OutboxQuarantineHoldTests.minute(index))
            .succeeded)
      }
    }

    /// Flips the bytes of `range` of the outbox's file, written anew as a copy is.
    func damage(_ range: (Data) throws -> Range<Int>) throws {
      var bytes = try Data(contentsOf: outbox)
      for offset in try range(bytes) { bytes[offset] ^= 0x5A }
      try bytes.write(to: outbox, options: .atomic)
    }
  }

  @Test(
    "a fact published between the app's failed read and its quarantine is reported lost with the outbox"
  )
  func factPublishedBeforeTheHoldIsReported() throws {
    var fixture = try Fixture()
    let (hook, recorder) = (fixture.hook, fixture.recorder)
    #expect(try fixture.pipeline.wake(.foreground, now: Self.minute(3)).applied == 3)
    let published = (4...5).compactMap {
      recorder.intervalDidStart(for: "a\($0)", now: Self.minute($0)).notification
    }
    let epoch = try #require(published.last).epoch
    #expect(published.map(\.value) == [4, 5])

    // Damage the frame of 4, which the extension's next append does not read: only the app sees
    // it, and moves the outbox aside.
    try fixture.damage { bytes in try #require(bytes.range(of: Data("\"a4\"".utf8))) }

    // When the app takes the lock after its read failed, the extension's next callback comes
    // first; it does not read the damage either, and publishes 6.
    let racing = LockedValue<SequenceNumber?>(nil)
    hook.arm {
      let response = recorder.intervalDidStart(for: "a6", now: Self.minute(6))
      racing.withLock { $0 = response.notification }
    }
    let wake = try fixture.pipeline.wake(.foreground, now: Self.minute(7))
    #expect(wake.applied == 0)

    let number = try #require(racing.withLock { $0 }, "the callback during the wake is recorded")
    #expect(number == SequenceNumber(epoch: epoch, value: 6))
    // The app reads the marks in the hold in which it moves the outbox: 6 goes aside with it,
    // and is reported lost with 4 and 5.
    let recovery = try #require(try fixture.pipeline.state().outboxRecoveries.first)
    #expect(recovery.epoch == epoch && recovery.lastNumber == 6)
    let losses = try fixture.pipeline.state().losses.map(\.range)
    #expect(losses == [SequenceRange(epoch: epoch, values: 4...6)], "4, 5 and 6 are reported lost")
  }

  @Test(
    "an outbox the extension heals between the app's failed read and its quarantine stays, and its recovery is recorded",
    arguments: [true, false])
  func outboxHealedMeanwhileIsNotMoved(drainedBefore: Bool) throws {
    var fixture = try Fixture()
    let (hook, recorder, directory) = (fixture.hook, fixture.recorder, fixture.directory)
    // Without a drain before, the app has no cursor yet: its first wake ever.
    if drainedBefore {
      #expect(try fixture.pipeline.wake(.foreground, now: Self.minute(3)).applied == 3)
    }
    #expect(recorder.intervalDidStart(for: "a4", now: Self.minute(4)).succeeded)

    // A damaged header, which every append reads. The app's wake fails to read it; before it
    // moves the outbox aside, the extension's next callback does, and begins a new epoch.
    try fixture.damage { _ in 20..<24 }
    let healed = LockedValue<MonitorResponse?>(nil)
    hook.arm {
      let response = recorder.intervalDidStart(for: "a5", now: Self.minute(5))
      healed.withLock { $0 = response }
    }
    let wake = try fixture.pipeline.wake(.foreground, now: Self.minute(6))

    let response = try #require(healed.withLock { $0 }, "the extension healed during the wake")
    let number = try #require(response.notification)
    #expect(number.value == 1, "in a new epoch")
    #expect(wake.applied == 1, "the app drains the new outbox: its fact is not moved aside")
    let quarantined = try directory.contents().filter { $0.hasPrefix(".quarantined.") }
    #expect(quarantined.count == 1, "the extension's move, and no other")
    let recoveries = try fixture.pipeline.state().outboxRecoveries
    #expect(recoveries.count == 1)
    #expect(recoveries.first?.lastNumber == 4)
    #expect(
      try fixture.pipeline.state().losses.map(\.range.values) == [(drainedBefore ? 4 : 1)...4])
  }
}
