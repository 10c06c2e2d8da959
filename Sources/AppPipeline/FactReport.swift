import GapDetection
import SequenceTracking
import SignalValues
import TrackerSignals
import UsageModel

/// A fact the pipeline drained but could not count, and why.
///
/// JSON form: `{"fact": MonitorFact, "reason": "…"}`.
public struct RejectedFact: Sendable, Hashable, Codable {
  /// The fact.
  public let fact: MonitorFact
  /// Why it was not counted: an event name that is not a ScreenTimeKit threshold name, or an
  /// event of an activity with no known interval.
  public let reason: String

  /// Creates a rejection.
  ///
  /// - Parameters:
  ///   - fact: The fact.
  ///   - reason: Why it was not counted.
  public init(fact: MonitorFact, reason: String) {
    self.fact = fact
    self.reason = reason
  }
}

/// What recording the threshold events did, counted: the evidence of how the platform delivers.
///
/// JSON form: `{"counted": 40, "duplicates": 3, "superseded": 1, "implausible": 12}`.
public struct ThresholdCounts: Sendable, Hashable, Codable {
  /// Events that raised an app's usage.
  public internal(set) var counted = 0
  /// Events of a threshold already reached: delivered twice.
  public internal(set) var duplicates = 0
  /// Events of a threshold below one already reached: late or out of order.
  public internal(set) var superseded = 0
  /// Events claiming more usage than wall-clock time allows; not counted.
  public internal(set) var implausible = 0

  /// Creates counts of zero.
  public init() {}

  mutating func count(_ outcome: ThresholdOutcome) {
    switch outcome {
    case .counted: counted += 1
    case .duplicate: duplicates += 1
    case .superseded: superseded += 1
    case .implausible: implausible += 1
    }
  }

  private enum CodingKeys: String, CodingKey {
    case counted, duplicates, superseded, implausible
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing field or a negative count.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    counted = try container.decodeCount(forKey: .counted)
    duplicates = try container.decodeCount(forKey: .duplicates)
    superseded = try container.decodeCount(forKey: .superseded)
    implausible = try container.decodeCount(forKey: .implausible)
  }
}

/// How the facts reached the app: what was delivered, lost, skipped and rejected.
///
/// It depends only on the set of facts the app holds, not on how often they were delivered: the
/// numbering statistics of the deliveries are ``PipelineState/sequence``'s.
///
/// JSON form: `{"facts": 412, "losses": [SequenceLoss, …],
/// "skipped": [SequenceNumber, …], "thresholds": ThresholdCounts, "rejected": [RejectedFact,
/// …], "implausible": [ImplausibleThresholdEvent, …]}`.
public struct FactReport: Sendable, Hashable, Codable {
  /// How many facts the state holds (within the retention).
  public let facts: Int
  /// The facts never delivered, with their epochs; also the gap report's notification-loss
  /// evidence.
  public let losses: [SequenceLoss]
  /// The entries passed over because they do not decode.
  public let skipped: [SequenceNumber]
  /// What recording the threshold events did.
  public let thresholds: ThresholdCounts
  /// The facts that could not be counted.
  public let rejected: [RejectedFact]
  /// The threshold events rejected as implausible, kept as evidence.
  public let implausible: [ImplausibleThresholdEvent]

  private enum CodingKeys: String, CodingKey {
    case facts, losses, skipped, thresholds, rejected, implausible
  }

  init(
    facts: Int, losses: [SequenceLoss], skipped: [SequenceNumber], thresholds: ThresholdCounts,
    rejected: [RejectedFact], implausible: [ImplausibleThresholdEvent]
  ) {
    self.facts = facts
    self.losses = losses
    self.skipped = skipped
    self.thresholds = thresholds
    self.rejected = rejected
    self.implausible = implausible
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field, also a negative `facts`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    facts = try container.decodeCount(forKey: .facts)
    losses = try container.decode([SequenceLoss].self, forKey: .losses)
    skipped = try container.decode([SequenceNumber].self, forKey: .skipped)
    thresholds = try container.decode(ThresholdCounts.self, forKey: .thresholds)
    rejected = try container.decode([RejectedFact].self, forKey: .rejected)
    implausible = try container.decode([ImplausibleThresholdEvent].self, forKey: .implausible)
  }
}

extension KeyedDecodingContainer {
  /// Decodes a count, rejecting a negative one with an error naming the field.
  fileprivate func decodeCount(forKey key: Key) throws -> Int {
    let count = try decode(Int.self, forKey: key)
    guard count >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(count) is a negative count")
    }
    return count
  }
}
