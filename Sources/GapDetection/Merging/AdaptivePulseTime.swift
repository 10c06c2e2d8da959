import UsageModel

/// A pulse time that follows a tracker's observed cadence: a multiple of the median of the
/// recent intervals between heartbeats, kept between a floor and a ceiling.
///
/// **The rule.** Before each heartbeat, the pulse time is
/// `clamp(median × percentOfMedian / 100, floor, ceiling)`, where `median` is the lower median
/// of the last ``sampleCount`` positive intervals between consecutive heartbeat starts (in the
/// order given, whatever their data). Until ``minimumSamples`` intervals were seen it is
/// ``initial``. The interval that ends at a heartbeat is sampled *after* that heartbeat was
/// merged or not, so a long silence never excuses itself.
///
/// **Why the median.** It ignores a minority of outliers: a tracker that was down for ten
/// minutes adds one long interval, which does not move the median, so the next silence is still
/// found. A real change of cadence (30 s in the foreground, 300 s in the background) moves it
/// once half the window has the new cadence. With the default 150 %, jitter of up to ±50 % of
/// the cadence never splits an interval; the ceiling keeps the pulse time at or below the
/// default gap threshold (300 s), so the merge never hides a gap.
///
/// ```swift
/// var merger = HeartbeatMerger<String>(pulseTime: .adaptive(.standard))
/// ```
///
/// JSON form: `{"initialMs": 60000, "percentOfMedian": 150, "floorMs": 1000, "ceilingMs":
/// 300000, "sampleCount": 15, "minimumSamples": 3}`.
public struct AdaptivePulseTime: Sendable, Hashable, Codable {
  /// 60 s initially, 150 % of the median of the last 15 intervals once 3 were seen, between
  /// 1 s and 300 s.
  public static let standard = AdaptivePulseTime(
    uncheckedInitialMs: 60_000, percentOfMedian: 150, floorMs: 1_000, ceilingMs: 300_000,
    sampleCount: 15, minimumSamples: 3)

  let initialMs: Int64
  /// The pulse time as a percentage of the median interval, 100...10,000.
  public let percentOfMedian: Int
  let floorMs: Int64
  let ceilingMs: Int64
  /// How many recent intervals the median is taken over, 1...256.
  public let sampleCount: Int
  /// How many intervals must be seen before the median replaces ``initial``, 1...``sampleCount``.
  public let minimumSamples: Int

  /// Creates an adaptive pulse time.
  ///
  /// - Parameters:
  ///   - initial: The pulse time until enough intervals were seen; within `floor...ceiling`.
  ///   - percentOfMedian: The pulse time as a percentage of the median, 100...10,000.
  ///   - floor: The shortest pulse time; zero or more.
  ///   - ceiling: The longest pulse time; at least `floor`, at most 365 days.
  ///   - sampleCount: How many recent intervals the median covers, 1...256.
  ///   - minimumSamples: How many must be seen first, 1...``sampleCount``.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` naming the first
  ///   value out of range.
  public init(
    initial: Duration = .seconds(60), percentOfMedian: Int = 150, floor: Duration = .seconds(1),
    ceiling: Duration = .seconds(300), sampleCount: Int = 15, minimumSamples: Int = 3
  ) throws(GapDetectionError) {
    self.init(
      uncheckedInitialMs: try TimeValues.amount(initial, field: "initial"),
      percentOfMedian: percentOfMedian, floorMs: try TimeValues.amount(floor, field: "floor"),
      ceilingMs: try TimeValues.amount(ceiling, field: "ceiling"), sampleCount: sampleCount,
      minimumSamples: minimumSamples)
    try validate()
  }

  private init(
    uncheckedInitialMs: Int64, percentOfMedian: Int, floorMs: Int64, ceilingMs: Int64,
    sampleCount: Int, minimumSamples: Int
  ) {
    self.initialMs = uncheckedInitialMs
    self.percentOfMedian = percentOfMedian
    self.floorMs = floorMs
    self.ceilingMs = ceilingMs
    self.sampleCount = sampleCount
    self.minimumSamples = minimumSamples
  }

  /// The pulse time until enough intervals were seen.
  public var initial: Duration { .milliseconds(initialMs) }
  /// The shortest pulse time.
  public var floor: Duration { .milliseconds(floorMs) }
  /// The longest pulse time.
  public var ceiling: Duration { .milliseconds(ceilingMs) }

  package func validate() throws(GapDetectionError) {
    guard floorMs >= 0 else {
      throw .invalidValue(field: "floor", value: "\(floor)", requirement: "zero or more")
    }
    guard floorMs <= ceilingMs, ceilingMs <= PulseEstimator.maximumMs else {
      throw .invalidValue(
        field: "ceiling", value: "\(ceiling)", requirement: "from \(floor) to 365 days")
    }
    guard (floorMs...ceilingMs).contains(initialMs) else {
      throw .invalidValue(
        field: "initial", value: "\(initial)", requirement: "within \(floor)...\(ceiling)")
    }
    guard (100...10_000).contains(percentOfMedian) else {
      throw .invalidValue(
        field: "percentOfMedian", value: "\(percentOfMedian)", requirement: "100...10000")
    }
    guard (1...256).contains(sampleCount) else {
      throw .invalidValue(field: "sampleCount", value: "\(sampleCount)", requirement: "1...256")
    }
    guard (1...sampleCount).contains(minimumSamples) else {
      throw .invalidValue(
        field: "minimumSamples", value: "\(minimumSamples)", requirement: "1...\(sampleCount)")
    }
  }

  private enum CodingKeys: String, CodingKey {
    case initialMs
    case percentOfMedian
    case floorMs
    case ceilingMs
    case sampleCount
    case minimumSamples
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      uncheckedInitialMs: try container.decode(Int64.self, forKey: .initialMs),
      percentOfMedian: try container.decode(Int.self, forKey: .percentOfMedian),
      floorMs: try container.decode(Int64.self, forKey: .floorMs),
      ceilingMs: try container.decode(Int64.self, forKey: .ceilingMs),
      sampleCount: try container.decode(Int.self, forKey: .sampleCount),
      minimumSamples: try container.decode(Int.self, forKey: .minimumSamples))
    do {
      try validate()
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: error.codingKey(CodingKeys.self) ?? .initialMs, in: container,
        debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(initialMs, forKey: .initialMs)
    try container.encode(percentOfMedian, forKey: .percentOfMedian)
    try container.encode(floorMs, forKey: .floorMs)
    try container.encode(ceilingMs, forKey: .ceilingMs)
    try container.encode(sampleCount, forKey: .sampleCount)
    try container.encode(minimumSamples, forKey: .minimumSamples)
  }
}
