/// Running counts of what a ``SequenceTracker`` has observed.
///
/// Every count is of distinct numbers except ``duplicates`` and ``resets``. ``missed`` is derived
/// from the tracker's outstanding ranges, never kept as a counter that could drift or go
/// negative: a number stops being missed when it arrives late (it is then ``recovered``) or when
/// it is given up (``givenUp``).
///
/// JSON form: `{"duplicates":1,"givenUp":0,"missed":2,"received":7,"recovered":1,"resets":0}`;
/// ``deliveryRate`` is derived and not stored.
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

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - received: Distinct numbers received.
  ///   - missed: Numbers outstanding.
  ///   - recovered: Late arrivals that filled a hole.
  ///   - duplicates: Observations of numbers already received.
  ///   - resets: Restarts of the producer's numbering.
  ///   - givenUp: Numbers that can no longer arrive.
  public init(
    received: UInt64 = 0,
    missed: UInt64 = 0,
    recovered: UInt64 = 0,
    duplicates: UInt64 = 0,
    resets: UInt64 = 0,
    givenUp: UInt64 = 0
  ) {
    self.received = received
    self.missed = missed
    self.recovered = recovered
    self.duplicates = duplicates
    self.resets = resets
    self.givenUp = givenUp
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
