import UsageModel

/// How long after an activity interval's end a heartbeat may still extend it.
///
/// ActivityWatch uses a fixed pulse time. A tracker whose timer jitters then loses whole
/// stretches: with heartbeats 30 s ± 20 % apart and a fixed 31 s pulse time, every pause longer
/// than 31 s ends the interval, and the time until the next heartbeat is lost. An adaptive pulse
/// time follows the observed cadence instead (see ``AdaptivePulseTime``); ``HeartbeatMerger``
/// uses `.adaptive(.standard)` unless told otherwise.
///
/// Every pulse time is valid, so making a merger never fails:
///
/// - a fixed one is used to the millisecond, rounded to the nearest (halves away from zero) as
///   every instant and amount of this module is — ActivityWatch's watchers use whole seconds;
/// - a negative fixed one merges, by the same rule, only heartbeats that start at least that
///   long before the interval's end, as ActivityWatch's `heartbeat_merge` does;
/// - one longer than any two supported instants are apart (about 10,000 years) merges like that
///   span, which is the same merge.
///
/// ```swift
/// var merger = HeartbeatMerger<String>(pulseTime: .fixed(.seconds(31)))
/// ```
///
/// JSON form: `{"fixedMs": 31000}` (the milliseconds used, which may be negative) or
/// `{"adaptive": AdaptivePulseTime}`.
public enum PulseTime: Sendable, Hashable, Codable {
  /// The same pulse time for every heartbeat, as ActivityWatch's `heartbeat_merge`; used to the
  /// millisecond.
  case fixed(Duration)
  /// A pulse time derived from the recent cadence of the heartbeats.
  case adaptive(AdaptivePulseTime)

  /// A fixed pulse time in the milliseconds the merge uses: rounded to the nearest, and kept
  /// within the span of supported instants (beyond it, every gap compares the same).
  var fixedMilliseconds: Int64? {
    guard case .fixed(let duration) = self else { return nil }
    let span = Milliseconds.latest - Milliseconds.earliest
    guard let amount = Milliseconds.amount(duration) else {
      return duration < .zero ? -span - 1 : span
    }
    return min(max(amount, -span - 1), span)
  }

  private enum CodingKeys: String, CodingKey {
    case fixedMs
    case adaptive
  }

  /// Decodes the documented JSON form.
  ///
  /// A fixed pulse time beyond the span of supported instants decodes as that span (or its
  /// negative), the milliseconds the merge uses, so that it encodes as it decodes.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when neither or both forms are present or the adaptive one is
  ///   invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let fixed = try container.decodeIfPresent(Int64.self, forKey: .fixedMs)
    let adaptive = try container.decodeIfPresent(AdaptivePulseTime.self, forKey: .adaptive)
    switch (fixed, adaptive) {
    case (let fixed?, nil):
      // Kept to the milliseconds the merge uses, so that a decoded value is its own round trip.
      self = .fixed(.milliseconds(fixed))
      if let used = fixedMilliseconds, used != fixed { self = .fixed(.milliseconds(used)) }
    case (nil, let adaptive?):
      self = .adaptive(adaptive)
    default:
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "a pulse time needs exactly one of \"fixedMs\" and \"adaptive\""))
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .fixed:
      try container.encode(fixedMilliseconds, forKey: .fixedMs)
    case .adaptive(let adaptive):
      try container.encode(adaptive, forKey: .adaptive)
    }
  }
}
