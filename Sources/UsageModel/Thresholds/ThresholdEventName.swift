/// The name of a DeviceActivity event: which app it watches and at what cumulative threshold.
///
/// DeviceActivity reports only the *name* of an event that reached its threshold, and an event
/// over several apps cannot say which app used the time, so ScreenTimeKit registers one event
/// per app and threshold (the 1:1 mapping) and encodes both in the name:
///
/// ```
/// stk:<threshold>:<app>      stk:15m:com.instagram.instagram     stk:90s:3F2A…
/// ```
///
/// The threshold is written in whole minutes (`15m`) when it is a whole number of minutes, and
/// in seconds (`90s`) otherwise; no other spelling is accepted, so every valid name has exactly
/// one value and every value exactly one name. The app is the rest of the name and may contain
/// `:`. A threshold is 1 second...7 days, the longest monitoring interval.
///
/// ```swift
/// let name = try ThresholdEventName(app: AppID("com.instagram.instagram"), threshold: .seconds(900))
/// name.rawValue                                   // "stk:15m:com.instagram.instagram"
/// try ThresholdEventName(parsing: name.rawValue) == name   // true
/// ```
///
/// JSON form: the name string.
public struct ThresholdEventName: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The prefix every name starts with, before the first `:`.
  public static let prefix = "stk"
  /// The smallest threshold, 1 second.
  public static let minimumThreshold = Duration.seconds(1)
  /// The largest threshold, 7 days.
  public static let maximumThreshold = Duration.seconds(7 * 86_400)

  /// The app whose usage the event counts.
  public let app: AppID
  /// The cumulative usage within the monitoring interval at which the event fires.
  public let threshold: Duration

  /// Creates the name of an app's event at a threshold.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - threshold: A whole number of seconds, 1 second...7 days.
  /// - Throws: ``UsageModelError/invalidThreshold(threshold:minimum:maximum:)``.
  public init(app: AppID, threshold: Duration) throws(UsageModelError) {
    guard threshold >= Self.minimumThreshold, threshold <= Self.maximumThreshold,
      threshold.components.attoseconds == 0
    else {
      throw .invalidThreshold(
        threshold: threshold, minimum: Self.minimumThreshold, maximum: Self.maximumThreshold)
    }
    self.app = app
    self.threshold = threshold
  }

  /// Parses an event name.
  ///
  /// - Parameter name: For example `"stk:15m:com.instagram.instagram"`.
  /// - Throws: ``UsageModelError/invalidEventName(name:reason:)`` when the name does not follow
  ///   the format, names an invalid app or spells the threshold in a non-canonical way.
  public init(parsing name: String) throws(UsageModelError) {
    let parts = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == Self.prefix else {
      throw .invalidEventName(name: name, reason: "it does not start with \"\(Self.prefix):\"")
    }
    guard let seconds = Self.seconds(inCanonical: parts[1]) else {
      throw .invalidEventName(
        name: name,
        reason: "\"\(parts[1])\" is not a threshold such as \"15m\" or \"90s\" (minutes when whole)"
      )
    }
    guard let app = AppID(rawValue: String(parts[2])) else {
      throw .invalidEventName(
        name: name, reason: AppID.problem(with: String(parts[2])) ?? "invalid app ID")
    }
    do {
      try self.init(app: app, threshold: .seconds(seconds))
    } catch {
      throw .invalidEventName(name: name, reason: "the threshold is outside 1 s...7 days")
    }
  }

  /// The name, for example `stk:15m:com.instagram.instagram`.
  public var rawValue: String {
    let seconds = threshold.components.seconds
    let text = seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    return Self.prefix + ":" + text + ":" + app.rawValue
  }

  /// The name.
  public var description: String { rawValue }

  /// Seconds of a canonical threshold text, or `nil`.
  private static func seconds(inCanonical text: Substring) -> Int64? {
    guard let unit = text.last, unit == "m" || unit == "s" else { return nil }
    let digits = text.dropLast()
    guard !digits.isEmpty, digits.count <= 7, digits.first != "0",
      digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits)
    else { return nil }
    if unit == "m" { return value * 60 }
    return value % 60 == 0 ? nil : value
  }

  /// Decodes the name string.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the name is not valid.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self(parsing: $0) }
  }

  /// Encodes the name string.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
