import Foundation
import UsageModel

/// An event in ActivityWatch's form: a timestamp, a duration in seconds and a `data` object.
///
/// Its JSON form is ActivityWatch's, one object per line:
/// `{"timestamp": "2026-03-08T06:00:00.250+00:00", "duration": 40.0, "data": {"app": "Safari"}}`.
/// ``init(jsonLine:)`` reads it strictly: exactly `timestamp` (ISO 8601 with `Z` or an offset),
/// `duration` (seconds, zero or more) and `data` (an object), plus an optional `id` that is
/// ignored. As ActivityWatch does, the timestamp's fraction is truncated to the millisecond; the
/// duration is rounded to the nearest millisecond. ``jsonLine`` writes UTC with `+00:00`.
///
/// ```swift
/// let beat = try ActivityWatchEvent(jsonLine: line)
/// let merged = try ActivityWatchEvent.merge(beats, pulseTime: .fixed(.seconds(30)))
/// ```
public struct ActivityWatchEvent: Sendable, Hashable {
  /// The event's data.
  public let data: ActivityWatchData
  let startInstant: Int64
  let durationMs: Int64

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - timestamp: When it starts; rounded to the millisecond.
  ///   - duration: How long it lasts; zero or more, rounded to the millisecond.
  ///   - data: What it reports.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range or a negative duration.
  public init(timestamp: Date, duration: Duration, data: ActivityWatchData)
    throws(GapDetectionError)
  {
    let start = try TimeValues.instant(timestamp, field: "timestamp")
    guard duration >= .zero, let amount = Milliseconds.amount(duration),
      amount <= Milliseconds.latest - start
    else {
      throw .invalidValue(
        field: "duration", value: "\(duration)", requirement: "zero or more, ending by 9999-12-29")
    }
    self.init(start: start, duration: amount, data: data)
  }

  init(start: Int64, duration: Int64, data: ActivityWatchData) {
    startInstant = start
    durationMs = duration
    self.data = data
  }

  /// Reads one line of ActivityWatch's event form.
  ///
  /// - Parameter jsonLine: One JSON object, without its line break.
  /// - Throws: ``GapDetectionError/malformedEvent(reason:)`` saying what is wrong.
  public init(jsonLine: String) throws(GapDetectionError) {
    var text = jsonLine
    let result = text.withUTF8 { bytes in
      Result { () throws(JSONFailure) -> ActivityWatchEvent in
        var parser = EventLineParser()
        let raw = UnsafeRawBufferPointer(bytes)
        let parsed = try parser.parse(raw)
        let data = UnsafeRawBufferPointer(rebasing: raw[parsed.data])
        return ActivityWatchEvent(
          start: parsed.timestamp, duration: parsed.duration,
          data: ActivityWatchData(
            unchecked: String(decoding: data, as: UTF8.self),
            canonical: try ActivityWatchData.canonicalObject(data)))
      }
    }
    switch result {
    case .success(let event): self = event
    case .failure(let failure): throw .malformedEvent(reason: failure.reason)
    }
  }

  /// When the event starts.
  public var timestamp: Date { Milliseconds.date(startInstant) }
  /// How long it lasts.
  public var duration: Duration { .milliseconds(durationMs) }
  /// When it ends.
  public var end: Date { Milliseconds.date(startInstant + durationMs) }

  /// The event as one line of ActivityWatch's form, without a line break.
  public var jsonLine: String {
    var output: [UInt8] = []
    var writer = EventLineWriter()
    var json = data.json
    json.withUTF8 { bytes in
      writer.append(
        timestamp: startInstant, duration: durationMs, data: UnsafeRawBufferPointer(bytes),
        to: &output)
    }
    output.removeLast()
    return String(decoding: output, as: UTF8.self)
  }

  /// Merges heartbeats as ActivityWatch's `heartbeat_reduce` does, in the order given.
  ///
  /// See ``HeartbeatMerger`` for the rule. With a fixed pulse time the result equals
  /// ActivityWatch's, to the millisecond; each merged event keeps the data text of its first
  /// heartbeat.
  ///
  /// - Parameters:
  ///   - heartbeats: The heartbeats, in order.
  ///   - pulseTime: A fixed pulse time (ActivityWatch's `pulsetime`) or an adaptive one.
  /// - Returns: The merged events.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an invalid pulse
  ///   time.
  /// - Complexity: O(*n*) comparisons of data.
  public static func merge(
    _ heartbeats: [ActivityWatchEvent], pulseTime: PulseTime
  ) throws(GapDetectionError) -> [ActivityWatchEvent] {
    var merger = try HeartbeatMerger<ActivityWatchData>(pulseTime: pulseTime)
    var events: [ActivityWatchEvent] = []
    for heartbeat in heartbeats {
      if let closed = merger.add(
        start: heartbeat.startInstant, duration: heartbeat.durationMs, data: heartbeat.data)
      {
        events.append(ActivityWatchEvent(closed))
      }
    }
    if let last = merger.finish() { events.append(ActivityWatchEvent(last)) }
    return events
  }

  init(_ interval: ActivityInterval<ActivityWatchData>) {
    self.init(
      start: interval.startInstant, duration: interval.endInstant - interval.startInstant,
      data: interval.data)
  }
}
