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

/// How the facts of one day reached the app and what became of them: how many there are, which
/// were lost or could not be decoded, and how their threshold events were counted.
///
/// Each field says what it counts. The day's fields cover the facts dated within the day up to
/// the dashboard's `evaluatedAt`; the lists of lost and undecodable entries cover everything the
/// app keeps (``PipelineConfiguration/retentionDays``), because a lost or undecodable entry has
/// no date of its own. It depends only on the set of facts the app holds, not on how often they
/// were delivered: the numbering statistics of the deliveries are ``PipelineState/sequence``'s.
/// (Every fact kept: `UsagePipeline.facts()`.)
///
/// JSON form: `{"dayFacts": 41, "losses": [SequenceLoss, …],
/// "undecodable": [SequenceNumber, …], "recoveries": [PipelineRecovery, …], "thresholds":
/// ThresholdCounts, "rejected": [RejectedFact, …], "implausible": [ImplausibleThresholdEvent,
/// …]}`; `recoveries` is left out when empty.
public struct FactReport: Sendable, Hashable, Codable {
  /// How many facts are dated within the day, up to the dashboard's instant.
  public let dayFacts: Int
  /// The facts never delivered, with their epochs, within the retention; also the gap report's
  /// notification-loss evidence.
  public let losses: [SequenceLoss]
  /// The outbox entries passed over because they do not decode, within the retention.
  public let undecodable: [SequenceNumber]
  /// The app side's files found damaged, moved aside and rebuilt within the retention, with what
  /// could not be rebuilt: show them, since they say which facts, acknowledgements or rewards
  /// are gone.
  public let recoveries: [PipelineRecovery]
  /// How the day's threshold events were counted.
  public let thresholds: ThresholdCounts
  /// The day's facts that could not be counted, and why.
  public let rejected: [RejectedFact]
  /// The day's threshold events rejected as implausible, kept as evidence.
  public let implausible: [ImplausibleThresholdEvent]

  private enum CodingKeys: String, CodingKey {
    case dayFacts, losses, undecodable, recoveries, thresholds, rejected, implausible
  }

  init(
    dayFacts: Int, losses: [SequenceLoss], undecodable: [SequenceNumber],
    recoveries: [PipelineRecovery], thresholds: ThresholdCounts, rejected: [RejectedFact],
    implausible: [ImplausibleThresholdEvent]
  ) {
    self.dayFacts = dayFacts
    self.losses = losses
    self.undecodable = undecodable
    self.recoveries = recoveries
    self.thresholds = thresholds
    self.rejected = rejected
    self.implausible = implausible
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field, also a negative count.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    dayFacts = try container.decodeCount(forKey: .dayFacts)
    losses = try container.decode([SequenceLoss].self, forKey: .losses)
    undecodable = try container.decode([SequenceNumber].self, forKey: .undecodable)
    recoveries =
      try container.decodeIfPresent([PipelineRecovery].self, forKey: .recoveries) ?? []
    thresholds = try container.decode(ThresholdCounts.self, forKey: .thresholds)
    rejected = try container.decode([RejectedFact].self, forKey: .rejected)
    implausible = try container.decode([ImplausibleThresholdEvent].self, forKey: .implausible)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(dayFacts, forKey: .dayFacts)
    try container.encode(losses, forKey: .losses)
    try container.encode(undecodable, forKey: .undecodable)
    if !recoveries.isEmpty { try container.encode(recoveries, forKey: .recoveries) }
    try container.encode(thresholds, forKey: .thresholds)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(implausible, forKey: .implausible)
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
