import Foundation
import UsageModel

/// A stretch of time covered by merged heartbeats that carried the same data.
///
/// Made by ``HeartbeatMerger``. For the heartbeats of a ``/TrackerSignals/HeartbeatRecorder`` the
/// data is the ``/SignalValues/HeartbeatSource`` and an interval is a stretch during which the
/// tracker was alive.
///
/// JSON form (when the data is `Codable`): `{"start": "2026-03-08T10:00:00Z", "end":
/// "2026-03-08T10:03:00Z", "data": …, "heartbeatCount": 7}`.
public struct ActivityInterval<Data> {
  /// The data every merged heartbeat carried (the first heartbeat's, when equal ones differ in
  /// form).
  public let data: Data
  /// How many heartbeats were merged into the interval.
  public let heartbeatCount: Int
  let startInstant: Int64
  let endInstant: Int64

  init(start: Int64, end: Int64, data: Data, heartbeatCount: Int) {
    startInstant = start
    endInstant = end
    self.data = data
    self.heartbeatCount = heartbeatCount
  }

  /// When the first merged heartbeat started.
  public var start: Date { Milliseconds.date(startInstant) }
  /// When the last merged heartbeat ended (never before a heartbeat that ended later).
  public var end: Date { Milliseconds.date(endInstant) }
  /// How long the interval lasts, exactly.
  public var duration: Duration { .milliseconds(endInstant - startInstant) }
  /// The interval from ``start`` to ``end``; its exact length is ``duration``.
  public var interval: DateInterval { TimeValues.interval(startInstant, endInstant) }
}

extension ActivityInterval: Sendable where Data: Sendable {}
extension ActivityInterval: Equatable where Data: Equatable {}
extension ActivityInterval: Hashable where Data: Hashable {}

extension ActivityInterval: Codable where Data: Codable {
  private enum CodingKeys: String, CodingKey {
    case start
    case end
    case data
    case heartbeatCount
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    let count = try container.decode(Int.self, forKey: .heartbeatCount)
    guard end >= start, count >= 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container,
        debugDescription: "an interval needs end >= start and at least one heartbeat")
    }
    self.init(
      start: start, end: end, data: try container.decode(Data.self, forKey: .data),
      heartbeatCount: count)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encode(data, forKey: .data)
    try container.encode(heartbeatCount, forKey: .heartbeatCount)
  }
}
