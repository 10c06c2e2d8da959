import UsageModel

/// Who wrote a heartbeat: the DeviceActivity monitor extension, the app, or a name of your own.
///
/// Each source keeps its own heartbeat history (see ``/TrackerSignals/HeartbeatRecorder``), so the
/// name is part of a store key: 1 to 40 characters from `A-Z`, `a-z`, `0-9`, `_` and `-`.
///
/// ```swift
/// let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
/// let custom = try HeartbeatSource(configuration.heartbeatSourceName)
/// ```
///
/// JSON form: the bare name, for example `"monitor"`.
public struct HeartbeatSource: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
  RawRepresentable
{
  /// The DeviceActivity monitor extension, whose silence means usage may be lost: `monitor`.
  public static let monitorExtension = HeartbeatSource(uncheckedRawValue: "monitor")
  /// A DeviceActivity report extension: `report`.
  public static let reportExtension = HeartbeatSource(uncheckedRawValue: "report")
  /// The containing app: `app`.
  public static let app = HeartbeatSource(uncheckedRawValue: "app")

  /// The longest name allowed.
  public static let maximumLength = 40

  /// The name, for example `monitor`.
  public let rawValue: String

  /// Creates a source from its name.
  ///
  /// - Parameter rawValue: 1 to 40 characters from `A-Z`, `a-z`, `0-9`, `_` and `-`.
  /// - Throws: ``SignalValuesError/invalidHeartbeatSource(value:reason:)``.
  public init(_ rawValue: String) throws(SignalValuesError) {
    if let reason = Self.problem(with: rawValue) {
      throw .invalidHeartbeatSource(value: rawValue, reason: reason)
    }
    self.rawValue = rawValue
  }

  /// Creates a source, or `nil` when `rawValue` is not a valid name.
  ///
  /// Prefer ``init(_:)``, which says what is wrong.
  ///
  /// - Parameter rawValue: The name.
  public init?(rawValue: String) {
    guard Self.problem(with: rawValue) == nil else { return nil }
    self.rawValue = rawValue
  }

  private init(uncheckedRawValue: String) {
    rawValue = uncheckedRawValue
  }

  private static func problem(with value: String) -> String? {
    let bytes = Array(value.utf8)
    guard !bytes.isEmpty else { return "a source name must not be empty" }
    guard bytes.count <= maximumLength else {
      return "\(bytes.count) characters, more than the limit of \(maximumLength)"
    }
    let allowed = bytes.allSatisfy { byte in
      (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
    }
    return allowed ? nil : "use only A-Z, a-z, 0-9, '_' and '-'"
  }

  /// Whether `lhs`'s name sorts before `rhs`'s.
  public static func < (lhs: HeartbeatSource, rhs: HeartbeatSource) -> Bool {
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
