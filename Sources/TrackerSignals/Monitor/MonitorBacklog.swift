import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import UsageModel

/// What a ``MonitorRecorder`` holds in memory because the device's data protection kept the
/// shared folder closed, after one callback.
///
/// Before the first unlock after a restart, no process can open the folder's files
/// (`SharedStoreError.protectedDataUnavailable(key:path:)`), yet the platform still calls the
/// monitor extension — at the start of a monitoring interval, say. The recorder then keeps the
/// callback's fact in memory and publishes it, with its original time and before any newer fact,
/// at the first later callback that can open the folder. ``written`` counts the held facts a
/// callback published that way.
///
/// **Bounded.** At most ``MonitorRecorder/backlogCapacity`` facts are held. Past it the *oldest*
/// held fact is dropped and counted in ``dropped``: DeviceActivity's thresholds are cumulative,
/// so a newer threshold fact carries at least the usage of an older one, and keeping the newest
/// loses the least. Dropped facts are reported in the diagnostic log as soon as the folder opens
/// again.
///
/// **Lost with the process.** The backlog lives in the extension's memory. If the system ends the
/// extension while it holds facts, they are gone, unannounced: the app sees it as silence — no
/// facts and no heartbeats for that time, a gap in the extension's health — exactly as it sees
/// any time the extension did not run.
///
/// JSON form: `{"held": 2, "written": 0, "dropped": 0, "oldestHeldAt": "2026-04-15T00:05:00Z"}`,
/// `oldestHeldAt` omitted when nothing is held.
public struct MonitorBacklogStatus: Sendable, Hashable, Codable {
  /// How many facts are held after this callback, waiting for the folder to open.
  public let held: Int
  /// How many held facts this callback published, in order and before its own fact.
  public let written: Int
  /// How many facts were dropped because the backlog was full and have not been reported in the
  /// diagnostic log yet.
  public let dropped: Int
  /// When the oldest fact still held was recorded, or `nil` when none is held.
  public let oldestHeldAt: Date?

  /// Creates a status.
  ///
  /// - Parameters:
  ///   - held: The facts held after the callback.
  ///   - written: The held facts the callback published.
  ///   - dropped: The facts dropped and not yet reported.
  ///   - oldestHeldAt: When the oldest fact still held was recorded; rounded to the millisecond,
  ///     as a fact's instant is, so that the status equals its JSON round trip.
  public init(held: Int, written: Int, dropped: Int, oldestHeldAt: Date?) {
    self.held = held
    self.written = written
    self.dropped = dropped
    self.oldestHeldAt = oldestHeldAt.map { Milliseconds.date(Milliseconds.clampedInstant($0)) }
  }

  private enum CodingKeys: String, CodingKey {
    case held
    case written
    case dropped
    case oldestHeldAt
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing field, a negative count or an instant that is not
  ///   ISO 8601.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func count(_ key: CodingKeys) throws -> Int {
      let value = try container.decode(Int.self, forKey: key)
      guard value >= 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "\(value) is negative")
      }
      return value
    }
    held = try count(.held)
    written = try count(.written)
    dropped = try count(.dropped)
    oldestHeldAt =
      try container.contains(.oldestHeldAt)
      ? Milliseconds.date(container.decodeInstant(forKey: .oldestHeldAt)) : nil
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(held, forKey: .held)
    try container.encode(written, forKey: .written)
    try container.encode(dropped, forKey: .dropped)
    if let oldestHeldAt {
      try container.encodeInstant(
        Milliseconds.clampedInstant(oldestHeldAt), forKey: .oldestHeldAt)
    }
  }

  /// Nothing held, written or dropped: every callback whose folder opens.
  public static let empty = MonitorBacklogStatus(
    held: 0, written: 0, dropped: 0, oldestHeldAt: nil)
}

/// The facts one extension process holds while the shared folder is closed to it; shared by every
/// copy of the ``MonitorRecorder`` that made it.
///
/// One lock guards the held facts and is kept while they are published, so that callbacks
/// running at once in one process publish in the order they were held.
final class MonitorBacklog: Sendable {
  private struct State {
    var facts: [MonitorFact] = []
    /// Facts dropped since the last report, and the span of their instants (milliseconds).
    var dropped = 0
    var droppedFrom: Int64?
    var droppedThrough: Int64?
  }

  let capacity: Int
  private let state = LockedValue(State())
  /// Taken by a callback around all of its writes, before the folder's lock.
  ///
  /// A callback that holds the folder's lock takes the backlog's to publish; one that could not
  /// take the folder's lock takes the backlog's and then, in each write, the folder's. Two
  /// callbacks at once, one of each kind, would wait for each other forever; this lock lets only
  /// one of them run its writes at a time. It is held for a callback's writes, including any wait
  /// for the folder's lock, a compaction, and the backlog's diagnostic entry: a second callback
  /// would wait for the folder's lock as long.
  let writes = Lock()

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// What `publish` did: the number to notify, if any, and the backlog after it.
  struct Outcome {
    var notification: SequenceNumber?
    var status: MonitorBacklogStatus
  }

  /// Publishes the held facts and then `fact`, in order, in one write.
  ///
  /// When the folder is closed by data protection, `fact` joins the held facts (dropping the
  /// oldest past ``capacity``); on any other failure the held facts stay held and `fact` is not
  /// published, as before there was a backlog. A failure is added to `failures`. After held
  /// facts were written — or dropped ones are waiting to be reported — one diagnostic entry
  /// says so, in `diagnostics`.
  func publish(
    _ fact: MonitorFact?, to outbox: SequencedOutbox<MonitorFact>, carryingMark: Bool,
    diagnostics: DiagnosticLog, now: Date, failures: inout [MonitorFailure]
  ) -> Outcome {
    state.withLock { state in
      let held = state.facts
      let batch = held + (fact.map { [$0] } ?? [])
      guard !batch.isEmpty else { return Outcome(notification: nil, status: .empty) }
      var notification: SequenceNumber?
      do throws(SequenceTrackingError) {
        // An outbox that cannot be read is moved aside, and the facts start a new epoch.
        let publication = try outbox.publishHealing(contentsOf: batch, carryingMark: carryingMark)
        notification = publication?.number
        if let recovery = publication?.recovery { failures.append(.outboxRecovered(recovery)) }
      } catch {
        failures.append(.fact(error))
        if case .notDurable(.published(let numbers), _, _, _) = error {
          notification = numbers.last
        } else {
          if case .protectedDataUnavailable? = error.storeError, let fact {
            hold(fact, in: &state)
          }
          return Outcome(notification: nil, status: status(of: state, written: 0))
        }
      }
      state.facts = []
      if !held.isEmpty || state.dropped > 0 {
        report(
          written: held, now: now, state: &state, diagnostics: diagnostics, failures: &failures)
      }
      return Outcome(notification: notification, status: status(of: state, written: held.count))
    }
  }

  private func hold(_ fact: MonitorFact, in state: inout State) {
    state.facts.append(fact)
    guard state.facts.count > capacity else { return }
    let oldest = state.facts.removeFirst()
    state.dropped += 1
    state.droppedFrom = state.droppedFrom ?? oldest.instant
    state.droppedThrough = oldest.instant
  }

  private func status(of state: State, written: Int) -> MonitorBacklogStatus {
    MonitorBacklogStatus(
      held: state.facts.count, written: written, dropped: state.dropped,
      oldestHeldAt: state.facts.first?.at)
  }

  /// Appends the diagnostic entry for held facts just written and facts dropped; the dropped
  /// count is cleared once the entry is in the log.
  private func report(
    written: [MonitorFact], now: Date, state: inout State, diagnostics: DiagnosticLog,
    failures: inout [MonitorFailure]
  ) {
    var text = ""
    if let first = written.first {
      text +=
        "\(written.count) facts held in memory while protected data was unavailable (from "
        + "\(ISO8601Instant.format(first.instant))) were published late, with their original "
        + "times."
    }
    if state.dropped > 0, let from = state.droppedFrom, let through = state.droppedThrough {
      text +=
        (text.isEmpty ? "" : " ")
        + "\(state.dropped) facts recorded from \(ISO8601Instant.format(from)) through "
        + "\(ISO8601Instant.format(through)) were lost: the backlog holds \(capacity)."
    }
    do {
      let entry = try TrackerSignalsError.checking(
        DiagnosticEntry(
          id: DiagnosticEntry.identifier(
            of: ["backlog", text, String(now.timeIntervalSince1970.bitPattern, radix: 16)]),
          at: now, eventName: "backlog", action: .recordCallback, success: state.dropped == 0,
          errorDescription: text))
      _ = try diagnostics.append(entry)
      state.dropped = 0
      state.droppedFrom = nil
      state.droppedThrough = nil
    } catch {
      failures.append(.diagnostic(error))
    }
  }
}
