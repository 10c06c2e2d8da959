/// How long after an activity interval's end a heartbeat may still extend it.
///
/// ActivityWatch uses a fixed pulse time. A tracker whose timer jitters then loses whole
/// stretches: with heartbeats 30 s ± 20 % apart and a fixed 31 s pulse time, every pause longer
/// than 31 s ends the interval, and the time until the next heartbeat is lost. An adaptive pulse
/// time follows the observed cadence instead (see ``AdaptivePulseTime``).
///
/// JSON form: `{"fixedMs": 31000}` or `{"adaptive": AdaptivePulseTime}`.
public enum PulseTime: Sendable, Hashable, Codable {
  /// The same pulse time for every heartbeat, as ActivityWatch's `heartbeat_merge`.
  case fixed(Duration)
  /// A pulse time derived from the recent cadence of the heartbeats.
  case adaptive(AdaptivePulseTime)

  /// The longest pulse time accepted: 365 days.
  public static let maximum: Duration = .seconds(365 * 86_400)

  /// Checks that the durations are whole milliseconds within 0...``maximum``.
  package func validate() throws(GapDetectionError) {
    switch self {
    case .fixed(let duration):
      let amount = try TimeValues.amount(duration, field: "pulseTime")
      guard amount <= PulseEstimator.maximumMs else {
        throw .invalidValue(
          field: "pulseTime", value: "\(duration)", requirement: "at most 365 days")
      }
    case .adaptive(let adaptive):
      try adaptive.validate()
    }
  }

  private enum CodingKeys: String, CodingKey {
    case fixedMs
    case adaptive
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when neither or both forms are present or a value is invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let fixed = try container.decodeIfPresent(Int64.self, forKey: .fixedMs)
    let adaptive = try container.decodeIfPresent(AdaptivePulseTime.self, forKey: .adaptive)
    switch (fixed, adaptive) {
    case (let fixed?, nil):
      self = .fixed(.milliseconds(fixed))
      do {
        try validate()
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .fixedMs, in: container, debugDescription: error.description)
      }
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
  /// - Throws: What the encoder throws, including for a fixed duration that is not whole
  ///   milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .fixed(let duration):
      try container.encode(try TimeValues.amount(duration, field: "pulseTime"), forKey: .fixedMs)
    case .adaptive(let adaptive):
      try container.encode(adaptive, forKey: .adaptive)
    }
  }
}
