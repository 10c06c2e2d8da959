import Foundation
import ScreenTimeKit

/// What the DeviceActivity monitor extension does, process-side: turn threshold events into
/// usage, publish it through the outbox, then notify — a notification that may never arrive.
struct MonitorExtension {
  let store: FileStore
  let outbox: SequencedOutbox<UsageRecord>
  let accountant = StoreKey(
    "threshold-accountant", default: ThresholdAccountant(timeZone: SampleDay.timeZone))

  /// Counts of what happened, for the demo's narration.
  struct Tally {
    var events = 0
    var duplicates = 0
    var published = 0
    var notificationsPosted = 0
    var notificationsDropped = 0
  }

  /// Handles one threshold event and publishes the usage it adds.
  ///
  /// The platform may deliver an event twice. `deliver` stands for the Darwin notification; it
  /// returns whether it got through.
  func handle(
    _ event: ThresholdEvent,
    tally: inout Tally,
    deliver: (SequenceNumber) -> Bool
  ) throws {
    tally.events += 1
    // One atomic read-modify-write: the accountant is shared with every extension process.
    let outcome = try store.update(accountant) { $0.record(event) }
    guard case .counted(let added, _) = outcome else {
      tally.duplicates += 1
      return
    }
    let record = try UsageRecord(
      app: event.name.app, start: event.receivedAt.addingTimeInterval(-(added / .seconds(1))),
      end: event.receivedAt, source: .thresholdEvent)
    // Write first, then notify (seed 004 §4.3): the number is assigned in the same write.
    try outbox.publish(record) { number in
      tally.published += 1
      tally.notificationsPosted += 1
      if !deliver(number) { tally.notificationsDropped += 1 }
    }
  }
}
