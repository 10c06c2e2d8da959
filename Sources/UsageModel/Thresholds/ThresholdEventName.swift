/// The name of a DeviceActivity event: which app it watches and at what cumulative threshold.
///
/// DeviceActivity reports only the *name* of an event that reached its threshold, and an event
/// over several apps cannot say which app used the time, so ScreenTimeKit registers one event
/// per app and threshold (the 1:1 mapping) and encodes both in the name:
///
/// | Form                          | Example                              | ``generation`` |
/// |-------------------------------|--------------------------------------|----------------|
/// | `stk:<threshold>:<app>`       | `stk:15m:com.instagram.instagram`    | `nil`          |
/// | `stk:g<N>:<threshold>:<app>`  | `stk:g2:15m:com.instagram.instagram` | `2`            |
///
/// The threshold is written in whole minutes (`15m`) when it is a whole number of minutes, and
/// in seconds (`90s`) otherwise. The optional generation `g<N>` numbers the registration that
/// armed the event (see ``MonitoringRegistration``), so that a replay of an older registration's
/// thresholds can be told from a new one: `N` is a decimal `UInt32` without leading zeros
/// (`g0` is allowed, `g02` is not). No other spelling is accepted, so every valid name has
/// exactly one value and every value exactly one name. The app is the rest of the name and may
/// contain `:`. A threshold is 1 second...7 days, the longest monitoring interval.
///
/// ```swift
/// let name = try ThresholdEventName(app: AppID("com.instagram.instagram"), threshold: .seconds(900))
/// name.rawValue                                   // "stk:15m:com.instagram.instagram"
/// try ThresholdEventName(parsing: name.rawValue) == name   // true
/// try ThresholdEventName(app: name.app, threshold: .seconds(900), generation: 2).rawValue
/// // "stk:g2:15m:com.instagram.instagram"
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
  /// The registration generation the name carries, or `nil` for a name without one.
  public let generation: UInt32?

  /// Creates the name of an app's event at a threshold, optionally of a registration
  /// generation.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - threshold: A whole number of seconds, 1 second...7 days.
  ///   - generation: The registration generation to write as `g<N>`; `nil` writes none.
  /// - Throws: ``UsageModelError/invalidThreshold(threshold:minimum:maximum:)``.
  public init(app: AppID, threshold: Duration, generation: UInt32? = nil) throws(UsageModelError) {
    guard threshold >= Self.minimumThreshold, threshold <= Self.maximumThreshold,
      threshold.components.attoseconds == 0
    else {
      throw .invalidThreshold(
        threshold: threshold, minimum: Self.minimumThreshold, maximum: Self.maximumThreshold)
    }
    self.app = app
    self.threshold = threshold
    self.generation = generation
  }

  /// Parses an event name.
  ///
  /// A second field starting with `g` is a generation: a name's threshold never starts with a
  /// letter, so the two cannot be confused.
  ///
  /// - Parameter name: For example `"stk:15m:com.instagram.instagram"` or
  ///   `"stk:g2:15m:com.instagram.instagram"`.
  /// - Throws: ``UsageModelError/invalidEventName(name:reason:)`` when the name does not follow
  ///   the format, names an invalid app, spells the threshold in a non-canonical way, or has a
  ///   generation that is empty, not decimal, written with a leading zero or above `UInt32.max`.
  public init(parsing name: String) throws(UsageModelError) {
    var parts = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == Self.prefix else {
      throw .invalidEventName(name: name, reason: "it does not start with \"\(Self.prefix):\"")
    }
    var generation: UInt32?
    if parts[1].first == "g" {
      generation = try Self.generation(inCanonical: parts[1].dropFirst(), of: name)
      let rest = parts[2].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard rest.count == 2 else {
        throw .invalidEventName(
          name: name, reason: "a generation must be followed by \":<threshold>:<app>\"")
      }
      parts = [parts[0], rest[0], rest[1]]
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
      try self.init(app: app, threshold: .seconds(seconds), generation: generation)
    } catch {
      throw .invalidEventName(name: name, reason: "the threshold is outside 1 s...7 days")
    }
  }

  /// The name, for example `stk:15m:com.instagram.instagram` or
  /// `stk:g2:15m:com.instagram.instagram`.
  public var rawValue: String {
    let seconds = threshold.components.seconds
    let text = seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    let written = generation.map { "g\($0):" } ?? ""
    return Self.prefix + ":" + written + text + ":" + app.rawValue
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

  /// The generation of a canonical `<N>` text (after the `g`).
  private static func generation(inCanonical digits: Substring, of name: String)
    throws(UsageModelError) -> UInt32
  {
    guard !digits.isEmpty else {
      throw .invalidEventName(name: name, reason: "the generation \"g\" has no number")
    }
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw .invalidEventName(
        name: name, reason: "the generation \"g\(digits)\" is not a decimal number")
    }
    guard digits == "0" || digits.first != "0" else {
      throw .invalidEventName(
        name: name, reason: "the generation \"g\(digits)\" has a leading zero")
    }
    guard digits.count <= 10, let value = UInt32(digits) else {
      throw .invalidEventName(
        name: name, reason: "the generation \"g\(digits)\" is above \(UInt32.max)")
    }
    return value
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
