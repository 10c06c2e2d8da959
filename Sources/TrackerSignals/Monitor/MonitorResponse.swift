import SequenceTracking
import SignalValues
import UsageModel

/// What a monitor extension should do after a callback, and what went wrong while recording it.
///
/// ``MonitorRecorder`` never posts a notification or restarts monitoring itself: it says what to
/// do, and the extension does it.
///
/// ```swift
/// let response = recorder.eventDidReachThreshold(event.rawValue, activity: activity.rawValue, now: Date())
/// if response.notification != nil { postDarwinNotification() }
/// if response.restart.isDue { restartMonitoring() }
/// ```
public struct MonitorResponse: Sendable, Equatable {
  /// The fact that was recorded, or `nil` for a heartbeat tick or when the callback's values
  /// were not valid (``failures`` then says why).
  public let fact: MonitorFact?
  /// The number the fact was published under, or `nil` when nothing was published.
  ///
  /// Post the Darwin notification when it is not `nil`.
  ///
  /// The fact is in the shared store before this value exists (write, then notify), so an app
  /// woken by the notification — or by a later one, or by its poll — finds it.
  public let notification: SequenceNumber?
  /// Whether monitoring should be restarted, per the recorder's restart policy.
  public let restart: RestartAdvice
  /// What could not be done, in the order it was tried; empty when everything was recorded.
  public let failures: [MonitorFailure]
  /// What the recorder holds in memory because data protection kept the folder closed, and what
  /// this callback published or dropped of it; ``MonitorBacklogStatus/empty`` almost always.
  public let backlog: MonitorBacklogStatus

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - fact: The fact recorded, if any.
  ///   - notification: The number to post, if the fact was published.
  ///   - restart: The restart advice.
  ///   - failures: What could not be done.
  ///   - backlog: What is held in memory; nothing unless you say otherwise.
  public init(
    fact: MonitorFact?, notification: SequenceNumber?, restart: RestartAdvice,
    failures: [MonitorFailure], backlog: MonitorBacklogStatus = .empty
  ) {
    self.fact = fact
    self.notification = notification
    self.restart = restart
    self.failures = failures
    self.backlog = backlog
  }

  /// Whether everything was recorded.
  public var succeeded: Bool { failures.isEmpty }
}

/// One thing ``MonitorRecorder`` could not do while recording a callback.
public enum MonitorFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The callback's values do not make a valid ``/SignalValues/MonitorFact``; nothing was
  /// published.
  case invalidFact(TrackerSignalsError)
  /// Publishing the fact failed. Nothing was published — except after
  /// `SequenceTrackingError.notDurable(committed:key:path:errno:)`, when the fact *was*
  /// published (``MonitorResponse/notification`` names it) but may not survive a power cut.
  ///
  /// When the store error (`storeError`) is `SharedStoreError.protectedDataUnavailable`, the
  /// device's data protection kept the folder closed: the fact is held in memory and published
  /// at the next callback that can open it (``MonitorResponse/backlog`` says how many are held).
  case fact(SequenceTrackingError)
  /// The outbox could not be read and was moved aside, its bytes kept; the fact was published
  /// in a new epoch (``MonitorResponse/notification`` names it). The recovery says which epoch
  /// ended, after which number, and where its bytes are.
  case outboxRecovered(OutboxRecovery)
  /// Recording the heartbeat failed; the fact, if published, is unaffected.
  case heartbeat(TrackerSignalsError)
  /// Appending the diagnostic entry that reports the other failures failed too.
  case diagnostic(TrackerSignalsError)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidFact(let error): return "The callback was not recorded: \(error)"
    case .fact(let error): return "Publishing the fact failed: \(error)"
    case .outboxRecovered(let recovery):
      return "The outbox could not be read and was moved aside: \(recovery)."
    case .heartbeat(let error): return "Recording the heartbeat failed: \(error)"
    case .diagnostic(let error): return "Logging the failure failed: \(error)"
    }
  }
}

/// Whether a monitor extension should restart monitoring now, per a ``RestartPolicy``.
///
/// The policy gives the time to wait between restarts: 300 s while the app
/// is in the background — an extension never knows the app's state, so it always assumes the
/// background — and never within 30 s of a usage event, so that a restart does not interrupt
/// active use. From a callback, the restart is due when the extension's previous sign of life
/// (its previous heartbeat) is older than that interval: the platform had not called it for
/// longer than the app would have waited before restarting monitoring. A threshold callback, and
/// a threshold's warning, are themselves usage events (the person is using the event's apps),
/// so they are never due.
///
/// Restarting monitoring starts a new interval, in which the platform counts thresholds from
/// zero; the pipeline counts that interval on its own, so nothing is counted twice.
///
/// JSON form: `{"isDue": false, "intervalMs": 300000}`.
public struct RestartAdvice: Sendable, Hashable, Codable {
  /// Whether to restart monitoring now.
  public let isDue: Bool
  /// The policy's interval between restarts at the time of the callback.
  public let interval: Duration

  /// Creates advice.
  ///
  /// - Parameters:
  ///   - isDue: Whether to restart now.
  ///   - interval: The policy's interval.
  public init(isDue: Bool, interval: Duration) {
    self.isDue = isDue
    self.interval = interval
  }

  private enum CodingKeys: String, CodingKey {
    case isDue
    case intervalMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    isDue = try container.decode(Bool.self, forKey: .isDue)
    interval = try container.decodeMilliseconds(forKey: .intervalMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(isDue, forKey: .isDue)
    try container.encodeMilliseconds(interval, forKey: .intervalMs)
  }
}
