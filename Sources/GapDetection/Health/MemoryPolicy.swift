/// Thresholds that map a memory figure in bytes to a ``MemoryLevel``.
///
/// By default a DeviceActivity monitor extension may use 6 MB, with a warning above 4.5 MB and a
/// critical level above 5.5 MB, where a megabyte is 1,048,576 bytes (a resident size divided by
/// 1024 twice). Every threshold is exclusive: exactly 4.5 MB is still normal.
///
/// ```swift
/// MemoryPolicy.monitorExtension.level(forBytes: 5_000_000)   // .warning
/// ```
///
/// JSON form: `{"limitBytes": 6291456, "warningBytes": 4718592, "criticalBytes": 5767168}`.
public struct MemoryPolicy: Sendable, Hashable, Codable {
  /// The thresholds for a DeviceActivity monitor extension: 4.5 MB, 5.5 MB, limit 6 MB.
  public static let monitorExtension = MemoryPolicy(
    uncheckedLimit: 6 * 1_048_576, warning: 4_718_592, critical: 5_767_168)

  /// The memory a process may use, in bytes.
  public let limitBytes: UInt64
  /// Above this many bytes the level is at least ``MemoryLevel/warning``.
  public let warningBytes: UInt64
  /// Above this many bytes the level is at least ``MemoryLevel/critical``.
  public let criticalBytes: UInt64

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - limitBytes: The memory a process may use.
  ///   - warningBytes: The warning threshold, below `criticalBytes`.
  ///   - criticalBytes: The critical threshold, at most `limitBytes`.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` unless
  ///   `0 < warningBytes < criticalBytes <= limitBytes`.
  public init(limitBytes: UInt64, warningBytes: UInt64, criticalBytes: UInt64)
    throws(GapDetectionError)
  {
    guard warningBytes > 0, warningBytes < criticalBytes, criticalBytes <= limitBytes else {
      throw .invalidValue(
        field: "memory thresholds",
        value: "warning \(warningBytes), critical \(criticalBytes), limit \(limitBytes)",
        requirement: "0 < warning < critical <= limit")
    }
    self.init(uncheckedLimit: limitBytes, warning: warningBytes, critical: criticalBytes)
  }

  private init(uncheckedLimit: UInt64, warning: UInt64, critical: UInt64) {
    limitBytes = uncheckedLimit
    warningBytes = warning
    criticalBytes = critical
  }

  /// The level of a memory figure.
  ///
  /// - Parameter bytes: Resident memory in bytes.
  /// - Returns: The highest level whose threshold `bytes` exceeds.
  public func level(forBytes bytes: UInt64) -> MemoryLevel {
    if bytes > limitBytes { return .overLimit }
    if bytes > criticalBytes { return .critical }
    if bytes > warningBytes { return .warning }
    return .normal
  }

  private enum CodingKeys: String, CodingKey {
    case limitBytes
    case warningBytes
    case criticalBytes
  }

  /// Decodes the documented JSON form, validating it as ``init(limitBytes:warningBytes:criticalBytes:)``.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or thresholds out of order.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        limitBytes: try container.decode(UInt64.self, forKey: .limitBytes),
        warningBytes: try container.decode(UInt64.self, forKey: .warningBytes),
        criticalBytes: try container.decode(UInt64.self, forKey: .criticalBytes))
    } catch let error as GapDetectionError {
      throw DecodingError.dataCorruptedError(
        forKey: .criticalBytes, in: container, debugDescription: error.description)
    }
  }
}
