import Foundation
import UsageModel

/// One sign of life from a tracker: when, from whom, and optionally its counter and memory use.
///
/// A DeviceActivity monitor extension writes one every ~30 seconds while it runs (see
/// ``/TrackerSignals/HeartbeatRecorder``); the app reads the latest to judge health
/// (``/GapDetection/HealthPolicy``) and the history to find where the tracker went silent
/// (``/GapDetection/GapDetector``).
///
/// - ``sequence`` is the producer's notification counter when the heartbeat was written, so
///   that the app can compare it with the last number it received.
/// - ``memoryBytes`` is the writer's resident memory in bytes (the monitor extension is killed
///   above 6 MB); ``/GapDetection/MemoryPolicy`` maps it to a level.
///
/// The instant is rounded to the millisecond when the value is created, so a heartbeat equals
/// its own round trip through JSON or the recorder's binary history.
///
/// ```swift
/// let beat = try Heartbeat(at: now, source: .monitorExtension, sequence: 42, memoryBytes: 3_400_000)
/// ```
///
/// JSON form: `{"at": "2026-03-08T10:30:00.250Z", "source": "monitor", "sequence": 42,
/// "memoryBytes": 3400000}`; `at` is ISO 8601 in UTC with `.SSS` only when the millisecond is not
/// zero; ``sequence`` and ``memoryBytes`` are omitted when absent.
public struct Heartbeat: Sendable, Hashable, Codable {
  /// Who wrote it.
  public let source: HeartbeatSource
  /// The producer's notification counter when it was written, if it keeps one.
  public let sequence: UInt64?
  /// The writer's resident memory in bytes, if it measured it.
  public let memoryBytes: UInt64?
  /// The instant in milliseconds since 1970, always within the supported range (every path
  /// that makes a heartbeat checks it), so that differences of two instants never overflow.
  package let instant: Int64

  /// Creates a heartbeat.
  ///
  /// - Parameters:
  ///   - at: When it was written; rounded to the millisecond.
  ///   - source: Who wrote it.
  ///   - sequence: The producer's notification counter, if any.
  ///   - memoryBytes: The writer's resident memory in bytes, if measured.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)`` for an instant that
  ///   is not finite or lies outside 0001-01-03...9999-12-29.
  public init(
    at: Date, source: HeartbeatSource, sequence: UInt64? = nil, memoryBytes: UInt64? = nil
  ) throws(SignalValuesError) {
    self.init(
      instant: try TimeValues.instant(at, field: "at"), source: source, sequence: sequence,
      memoryBytes: memoryBytes)
  }

  package init(
    instant: Int64, source: HeartbeatSource, sequence: UInt64?, memoryBytes: UInt64?
  ) {
    assert((Milliseconds.earliest...Milliseconds.latest).contains(instant), "unchecked instant")
    self.instant = instant
    self.source = source
    self.sequence = sequence
    self.memoryBytes = memoryBytes
  }

  /// When it was written.
  public var at: Date { Milliseconds.date(instant) }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case at
    case source
    case sequence
    case memoryBytes
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      instant: try container.decodeInstant(forKey: .at),
      source: try container.decode(HeartbeatSource.self, forKey: .source),
      sequence: try container.decodeIfPresent(UInt64.self, forKey: .sequence),
      memoryBytes: try container.decodeIfPresent(UInt64.self, forKey: .memoryBytes))
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(instant, forKey: .at)
    try container.encode(source, forKey: .source)
    try container.encodeIfPresent(sequence, forKey: .sequence)
    try container.encodeIfPresent(memoryBytes, forKey: .memoryBytes)
  }
}
