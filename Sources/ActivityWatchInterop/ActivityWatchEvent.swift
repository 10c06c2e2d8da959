import Foundation
import GapDetection
import UsageModel

/// An event in ActivityWatch's form: a timestamp, a duration in seconds and a `data` object.
///
/// Its JSON form is ActivityWatch's, one object per line:
/// `{"timestamp": "2026-03-08T06:00:00.250+00:00", "duration": 40.0, "data": {"app": "Safari"}}`.
/// ``init(jsonLine:)`` reads it strictly: exactly `timestamp` (ISO 8601 with `Z` or an offset),
/// `duration` (seconds, zero or more) and `data` (an object), plus an optional `id` that is
/// ignored. The values are held as aw-core's `Event` holds them: the timestamp's fraction
/// truncated to the millisecond, the duration in whole microseconds, converted from the number
/// as Python's `timedelta(seconds=…)` converts it (`0.0006` is 600 µs). ``jsonLine`` writes UTC
/// with `+00:00`, the duration's microseconds exactly, and the data without the whitespace
/// outside its strings.
///
/// ```swift
/// let beat = try ActivityWatchEvent(jsonLine: line)
/// let merged = ActivityWatchEvent.merge(beats, pulseTime: .fixed(.seconds(30)))
/// ```
public struct ActivityWatchEvent: Sendable, Hashable {
  /// The event's data.
  public let data: ActivityWatchData
  /// The timestamp in milliseconds since 1970.
  let startInstant: Int64
  /// The duration in microseconds.
  let durationMicroseconds: Int64

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - timestamp: When it starts; rounded to the millisecond.
  ///   - duration: How long it lasts; zero or more, rounded to the microsecond (halves to even).
  ///   - data: What it reports.
  /// - Throws: ``ActivityWatchError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range, or a duration that is negative, longer than 100 years or ends after 9999-12-29.
  public init(timestamp: Date, duration: Duration, data: ActivityWatchData)
    throws(ActivityWatchError)
  {
    let start = try TimeValues.instant(timestamp, field: "timestamp")
    guard let amount = Self.microseconds(duration), amount <= PythonDuration.maximum,
      amount <= (Milliseconds.latest - start) * 1000
    else {
      throw .invalidValue(
        field: "duration", value: "\(duration)",
        requirement: "zero to 100 years, ending by 9999-12-29")
    }
    self.init(start: start, durationMicroseconds: amount, data: data)
  }

  init(start: Int64, durationMicroseconds: Int64, data: ActivityWatchData) {
    startInstant = start
    self.durationMicroseconds = durationMicroseconds
    self.data = data
  }

  /// A non-negative duration in microseconds, rounded half to even; `nil` when negative or huge.
  private static func microseconds(_ duration: Duration) -> Int64? {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0, seconds <= PythonDuration.maximum / 1_000_000 else {
      return nil
    }
    let perMicrosecond: Int64 = 1_000_000_000_000
    var result = seconds * 1_000_000 + attoseconds / perMicrosecond
    let remainder = attoseconds % perMicrosecond
    if remainder > perMicrosecond / 2 || (remainder == perMicrosecond / 2 && result & 1 == 1) {
      result += 1
    }
    return result
  }

  /// Reads one line of ActivityWatch's event form.
  ///
  /// - Parameter jsonLine: One JSON object, without its line break.
  /// - Throws: ``ActivityWatchError/malformedEvent(reason:)`` saying what is wrong.
  public init(jsonLine: String) throws(ActivityWatchError) {
    var text = jsonLine
    let result = text.withUTF8 { bytes in
      Result { () throws(JSONFailure) -> ActivityWatchEvent in
        var parser = EventLineParser()
        let raw = UnsafeRawBufferPointer(bytes)
        let parsed = try parser.parse(raw)
        let data = UnsafeRawBufferPointer(rebasing: raw[parsed.data])
        return ActivityWatchEvent(
          start: parsed.timestamp, durationMicroseconds: parsed.durationMicroseconds,
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
  /// How long it lasts, exactly: to the microsecond, as aw-core keeps it.
  public var duration: Duration { .microseconds(durationMicroseconds) }
  /// When it ends.
  public var end: Date {
    Milliseconds.date(startInstant).addingTimeInterval(Double(durationMicroseconds) / 1_000_000)
  }
  /// The event's interval, from ``timestamp`` to ``end``; its exact length is ``duration``.
  ///
  /// Unlike the library's other intervals its end is not rounded to the millisecond: it lies
  /// where aw-core's does, to the microsecond (as far as a `Date` holds it).
  public var interval: DateInterval { DateInterval(start: timestamp, end: end) }

  /// The event as one line of ActivityWatch's form, without a line break.
  public var jsonLine: String {
    var output: [UInt8] = []
    var writer = EventLineWriter()
    var json = data.json
    json.withUTF8 { bytes in
      writer.append(
        timestamp: startInstant, durationMicroseconds: durationMicroseconds,
        data: UnsafeRawBufferPointer(bytes), to: &output)
    }
    output.removeLast()
    return String(decoding: output, as: UTF8.self)
  }

  /// Merges heartbeats as ActivityWatch's `heartbeat_reduce` does, in the order given.
  ///
  /// See ``/GapDetection/HeartbeatMerger`` for the rule; it is applied in microseconds, as aw-core
  /// applies it to its `timedelta`s, so a heartbeat of 0.0006 s ends 600 µs after it starts. With a
  /// fixed pulse time the result equals ActivityWatch's events: timestamps to the millisecond,
  /// durations to the microsecond. Each merged event keeps the data text of its first heartbeat.
  /// The pulse time is used to the millisecond, as ``/GapDetection/PulseTime`` says
  /// (ActivityWatch's watchers use whole seconds).
  ///
  /// - Parameters:
  ///   - heartbeats: The heartbeats, in order.
  ///   - pulseTime: A fixed pulse time (ActivityWatch's `pulsetime`) or an adaptive one.
  /// - Returns: The merged events.
  /// - Complexity: O(*n*) comparisons of data.
  public static func merge(
    _ heartbeats: [ActivityWatchEvent], pulseTime: PulseTime
  ) -> [ActivityWatchEvent] {
    var estimator = PulseEstimator(pulseTime)
    var events: [ActivityWatchEvent] = []
    var open: (start: Int64, end: Int64, data: ActivityWatchData)?
    for heartbeat in heartbeats {
      let start = heartbeat.startInstant * 1000
      let end = start + heartbeat.durationMicroseconds
      let withinPulse = open.map { estimator.allows(gapMicroseconds: start - $0.end) } ?? false
      estimator.observe(start: heartbeat.startInstant)
      if withinPulse, let last = open, start >= last.start, last.data == heartbeat.data {
        open?.end = max(last.end, end)
        continue
      }
      if let last = open { events.append(ActivityWatchEvent(last)) }
      open = (start, end, heartbeat.data)
    }
    if let last = open { events.append(ActivityWatchEvent(last)) }
    return events
  }

  /// The event of an open interval whose ends are in microseconds (its start a whole
  /// millisecond).
  init(_ interval: (start: Int64, end: Int64, data: ActivityWatchData)) {
    self.init(
      start: interval.start / 1000, durationMicroseconds: interval.end - interval.start,
      data: interval.data)
  }
}
