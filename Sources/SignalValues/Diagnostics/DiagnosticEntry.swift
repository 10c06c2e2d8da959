import Foundation
import UsageModel

/// One thing an extension did, whether it worked, and its memory at the time.
///
/// An extension error-log entry, with the usual pitfalls removed: the instant is a parameter (no
/// `Date()` inside), memory is an exact byte count, and the identifier is given by the caller
/// so that the same entry appended twice is counted once by ``/TrackerSignals/DiagnosticLog``.
///
/// ```swift
/// try log.append(
///   DiagnosticEntry(
///     at: now, eventName: event.rawValue, action: .recordUsage, success: false,
///     errorDescription: "\(error)", memoryBytes: residentBytes()))
/// ```
///
/// JSON form: `{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "at": "2026-03-08T10:30:00Z",
/// "eventName": "stk:15m:com.duolingo", "action": "record_usage", "success": false,
/// "errorDescription": "disk full", "memoryBytes": 3400000}`; `errorDescription` and
/// `memoryBytes` are omitted when absent.
public struct DiagnosticEntry: Sendable, Hashable, Codable, Identifiable {
  /// The entry's identifier.
  public let id: UUID
  /// The DeviceActivity event (or other trigger) the action handled.
  public let eventName: String
  /// What was being done.
  public let action: DiagnosticAction
  /// Whether it worked.
  public let success: Bool
  /// What went wrong, for a failure (or a note, for a success such as a memory warning).
  public let errorDescription: String?
  /// The extension's resident memory in bytes at the time, if measured.
  public let memoryBytes: UInt64?
  package let instant: Int64

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - id: The entry's identifier, chosen by the caller and kept when an append is retried —
  /// for example made once, before the first attempt — so that ``/TrackerSignals/DiagnosticLog``
  ///     counts the entry once. (A fresh `UUID()` at every attempt would defeat that.)
  ///   - at: When it happened; rounded to the millisecond.
  ///   - eventName: The event or trigger handled.
  ///   - action: What was being done.
  ///   - success: Whether it worked.
  ///   - errorDescription: What went wrong, if anything.
  ///   - memoryBytes: Resident memory in bytes, if measured.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range.
  public init(
    id: UUID, at: Date, eventName: String, action: DiagnosticAction, success: Bool,
    errorDescription: String? = nil, memoryBytes: UInt64? = nil
  ) throws(SignalValuesError) {
    self.id = id
    instant = try TimeValues.instant(at, field: "at")
    self.eventName = eventName
    self.action = action
    self.success = success
    self.errorDescription = errorDescription
    self.memoryBytes = memoryBytes
  }

  /// When it happened.
  public var at: Date { Milliseconds.date(instant) }

  private enum CodingKeys: String, CodingKey {
    case id
    case at
    case eventName
    case action
    case success
    case errorDescription
    case memoryBytes
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(UUID.self, forKey: .id)
    instant = try container.decodeInstant(forKey: .at)
    eventName = try container.decode(String.self, forKey: .eventName)
    action = try container.decode(DiagnosticAction.self, forKey: .action)
    success = try container.decode(Bool.self, forKey: .success)
    errorDescription = try container.decodeIfPresent(String.self, forKey: .errorDescription)
    memoryBytes = try container.decodeIfPresent(UInt64.self, forKey: .memoryBytes)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeInstant(instant, forKey: .at)
    try container.encode(eventName, forKey: .eventName)
    try container.encode(action, forKey: .action)
    try container.encode(success, forKey: .success)
    try container.encodeIfPresent(errorDescription, forKey: .errorDescription)
    try container.encodeIfPresent(memoryBytes, forKey: .memoryBytes)
  }
}
