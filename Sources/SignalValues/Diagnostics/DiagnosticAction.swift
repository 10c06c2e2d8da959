import UsageModel

/// What an extension was doing when it logged a diagnostic entry.
///
/// An open set: the well-known actions are below, and any other name of 1 to 64 characters
/// `a`-`z`, `0`-`9` and `_` may be used.
///
/// JSON form: the bare name, for example `"record_usage"`.
public struct DiagnosticAction: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
  RawRepresentable
{
  /// Recording usage from a threshold event: `record_usage`.
  public static let recordUsage = DiagnosticAction(uncheckedRawValue: "record_usage")
  /// Recording a monitor callback other than a threshold event: `record_callback`.
  public static let recordCallback = DiagnosticAction(uncheckedRawValue: "record_callback")
  /// Posting the usage notification to the app: `post_notification`.
  public static let postNotification = DiagnosticAction(uncheckedRawValue: "post_notification")
  /// Falling back to the minimal recording path under memory pressure: `memory_warning`.
  public static let memoryWarning = DiagnosticAction(uncheckedRawValue: "memory_warning")
  /// Writing a heartbeat: `heartbeat`.
  public static let heartbeat = DiagnosticAction(uncheckedRawValue: "heartbeat")

  /// The name.
  public let rawValue: String

  /// Creates an action from its name.
  ///
  /// - Parameter rawValue: 1 to 64 characters `a`-`z`, `0`-`9` and `_`.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)``.
  public init(_ rawValue: String) throws(SignalValuesError) {
    guard Self.isValid(rawValue) else {
      throw .invalidValue(
        field: "action", value: rawValue.debugDescription,
        requirement: "1 to 64 characters a-z, 0-9 and '_'")
    }
    self.rawValue = rawValue
  }

  /// Creates an action, or `nil` when the name is not valid.
  ///
  /// - Parameter rawValue: The name.
  public init?(rawValue: String) {
    guard Self.isValid(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  private init(uncheckedRawValue: String) {
    rawValue = uncheckedRawValue
  }

  private static func isValid(_ value: String) -> Bool {
    (1...64).contains(value.utf8.count)
      && value.utf8.allSatisfy {
        (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F
      }
  }

  /// Whether `lhs`'s name sorts before `rhs`'s.
  public static func < (lhs: DiagnosticAction, rhs: DiagnosticAction) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The name.
  public var description: String { rawValue }

  /// Decodes the bare name.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the name is not valid.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self($0) }
  }

  /// Encodes the bare name.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
