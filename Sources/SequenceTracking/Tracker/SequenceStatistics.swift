/// Running counts of what a ``SequenceTracker`` has observed.
///
/// Every count is of distinct numbers except ``duplicates``, ``resets`` and ``stale``. ``missed``
/// is derived from the tracker's outstanding ranges, never kept as a counter that could drift or
/// go negative: a number stops being missed when it arrives late (it is then ``recovered``) or
/// when it is given up (``givenUp``).
///
/// JSON form:
/// `{"duplicates":1,"givenUp":0,"missed":2,"received":7,"recovered":1,"resets":0,"stale":0}`;
/// ``deliveryRate`` is derived and not stored. A form without `stale` (stored by an earlier
/// version) decodes with 0.
public struct SequenceStatistics: Hashable, Sendable, Codable {
  /// Distinct numbers received, late arrivals included.
  public let received: UInt64
  /// Numbers known to exist that have not been received and may still arrive.
  public let missed: UInt64
  /// Numbers that were missed and then arrived late; they are also counted in ``received``.
  public let recovered: UInt64
  /// Observations of numbers already received.
  public let duplicates: UInt64
  /// How many times the producer's numbering started again (a new epoch, or going back).
  public let resets: UInt64
  /// Numbers never received that can no longer arrive: their run ended with a reset, or they
  /// were the oldest hole when more than ``SequenceTracker/outstandingRangeLimit`` holes were open.
  public let givenUp: UInt64
  /// Observations of messages from before the current run (see
  /// ``SequenceObservation/stale(_:)``); they are not counted as received.
  public let stale: UInt64

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - received: Distinct numbers received.
  ///   - missed: Numbers outstanding.
  ///   - recovered: Late arrivals that filled a hole.
  ///   - duplicates: Observations of numbers already received.
  ///   - resets: Restarts of the producer's numbering.
  ///   - givenUp: Numbers that can no longer arrive.
  ///   - stale: Observations of messages from before the current run.
  public init(
    received: UInt64 = 0,
    missed: UInt64 = 0,
    recovered: UInt64 = 0,
    duplicates: UInt64 = 0,
    resets: UInt64 = 0,
    givenUp: UInt64 = 0,
    stale: UInt64 = 0
  ) {
    self.received = received
    self.missed = missed
    self.recovered = recovered
    self.duplicates = duplicates
    self.resets = resets
    self.givenUp = givenUp
    self.stale = stale
  }

  private enum CodingKeys: String, CodingKey {
    case duplicates
    case givenUp
    case missed
    case received
    case recovered
    case resets
    case stale
  }

  /// Creates statistics from their JSON form; a missing `stale` count is 0.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when another count is missing or not an unsigned integer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      received: try container.decode(UInt64.self, forKey: .received),
      missed: try container.decode(UInt64.self, forKey: .missed),
      recovered: try container.decode(UInt64.self, forKey: .recovered),
      duplicates: try container.decode(UInt64.self, forKey: .duplicates),
      resets: try container.decode(UInt64.self, forKey: .resets),
      givenUp: try container.decode(UInt64.self, forKey: .givenUp),
      stale: try container.decodeIfPresent(UInt64.self, forKey: .stale) ?? 0)
  }

  /// The share of the numbers known to exist that were received, from 0 to 1.
  ///
  /// It is received ÷ (received + missed + givenUp), or `nil` before anything was observed.
  /// Numbers below the very first one observed are not known to the tracker and do not count.
  public var deliveryRate: Double? {
    let known = received.addingSaturating(missed).addingSaturating(givenUp)
    guard known > 0 else { return nil }
    return Double(received) / Double(known)
  }
}
