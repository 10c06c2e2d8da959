import Foundation
import SignalValues
import UsageModel

/// Merges heartbeats into activity intervals by ActivityWatch's rule, with a fixed or an
/// adaptive pulse time.
///
/// **The rule** (ActivityWatch's `heartbeat_merge`). Heartbeats are taken in the order given.
/// A heartbeat `h` (a start, a duration, data) extends the open interval `last` when
///
/// - its data equals `last.data`, and
/// - `last.start <= h.start <= last.end + pulseTime`, both bounds inclusive;
///
/// the interval's end becomes `max(last.end, h.start + h.duration)`. Otherwise `last` is closed
/// and `h` opens a new interval.
///
/// **Edge cases**, each tested:
/// - a heartbeat exactly at `last.end + pulseTime` merges; one millisecond later starts anew;
/// - a heartbeat at the same start as `last` with equal data merges (a duplicate adds nothing;
///   a longer one extends the end);
/// - a heartbeat that ends before `last.end` never shortens the interval;
/// - a heartbeat dated before `last.start` (out of order) starts a new interval — sort first if
///   your heartbeats can arrive out of order;
/// - different data always starts a new interval, even at the same instant;
/// - with a zero pulse time, only heartbeats that touch or overlap the interval merge; with a
///   negative one, only those that start at least that long before its end.
///
/// ActivityWatch refuses to merge into an interval of negative duration; durations here are
/// never negative, so that case cannot arise.
///
/// **Milliseconds.** A heartbeat's start and duration are each rounded to the nearest
/// millisecond (halves away from zero) when it is added, so the interval ends at the rounded
/// start plus the rounded duration: a heartbeat of 0.6 ms lasts 1 ms, one of 0.4 ms none. The
/// ActivityWatchInterop module keeps aw-core's microseconds instead, for events read from its
/// files.
///
/// ```swift
/// var merger = HeartbeatMerger<String>(pulseTime: .fixed(.seconds(30)))
/// for beat in beats {
///   if let closed = try merger.add(at: beat.time, data: beat.app) { show(closed) }
/// }
/// if let last = merger.finish() { show(last) }
/// ```
///
/// Streaming: memory is constant — the open interval and, for an adaptive pulse time, its
/// window of recent intervals.
public struct HeartbeatMerger<Data: Equatable> {
  /// The pulse time in force.
  public let pulseTime: PulseTime
  private var estimator: PulseEstimator
  private var open: ActivityInterval<Data>?

  /// Creates a merger.
  ///
  /// - Parameter pulseTime: A fixed or adaptive pulse time; ``AdaptivePulseTime/standard``
  ///   unless you choose otherwise. Every pulse time is valid (see ``PulseTime``).
  public init(pulseTime: PulseTime = .adaptive(.standard)) {
    self.pulseTime = pulseTime
    estimator = PulseEstimator(pulseTime)
  }

  /// The pulse time the next heartbeat will be judged with, in the milliseconds the merge uses.
  public var currentPulseTime: Duration { .milliseconds(estimator.current) }

  /// The interval still open, which the next heartbeat may extend.
  public var openInterval: ActivityInterval<Data>? { open }

  /// Adds the next heartbeat.
  ///
  /// - Parameters:
  ///   - start: When the heartbeat starts; rounded to the nearest millisecond.
  ///   - duration: How long it lasts, zero or more; zero for a plain heartbeat. Rounded to the
  ///     nearest millisecond (halves away from zero) as `start` is, whatever its precision — a
  ///     `Duration` made from seconds as a `Double` need not be whole milliseconds.
  ///   - data: What it reports; compared with `==`.
  /// - Returns: The interval this heartbeat closed, when it started a new one.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for a start that is
  ///   not finite or lies outside 0001-01-03...9999-12-29, a negative duration, or one that
  ///   ends after 9999-12-29; the merger is then unchanged.
  public mutating func add(
    at start: Date, duration: Duration = .zero, data: Data
  ) throws(GapDetectionError) -> ActivityInterval<Data>? {
    let startInstant = try TimeValues.instant(start, field: "start")
    guard duration >= .zero, let amount = Milliseconds.amount(duration),
      amount <= Milliseconds.latest - startInstant
    else {
      throw .invalidValue(
        field: "duration", value: "\(duration)",
        requirement: "zero or more, ending by 9999-12-29")
    }
    return add(start: startInstant, duration: amount, data: data)
  }

  /// The rule, on validated milliseconds.
  @inline(__always)
  mutating func add(start: Int64, duration: Int64, data: Data) -> ActivityInterval<Data>? {
    let withinPulse = open.map { start - $0.endInstant }.map(estimator.allows(gap:)) ?? false
    estimator.observe(start: start)
    if withinPulse, let last = open, start >= last.startInstant, last.data == data {
      open = ActivityInterval(
        start: last.startInstant, end: max(last.endInstant, start + duration), data: last.data,
        heartbeatCount: last.heartbeatCount + 1)
      return nil
    }
    let closed = open
    open = ActivityInterval(start: start, end: start + duration, data: data, heartbeatCount: 1)
    return closed
  }

  /// Closes and returns the open interval; the merger then starts afresh (its pulse-time
  /// window is kept).
  ///
  /// - Returns: The last interval, or `nil` when no heartbeat was added since the last call.
  public mutating func finish() -> ActivityInterval<Data>? {
    defer { open = nil }
    return open
  }
}

extension HeartbeatMerger: Sendable where Data: Sendable {}

extension HeartbeatMerger where Data == HeartbeatSource {
  /// Merges trackers' heartbeats into the intervals during which each was alive, per source.
  ///
  /// Heartbeats count as instants (zero duration) whose data is their source. Each source has
  /// its own open interval (and, for an adaptive pulse time, its own cadence), so heartbeats of
  /// several sources may be interleaved: an app beating beside the monitor extension neither
  /// splits nor extends the extension's intervals. Within a source they are merged in the order
  /// given: pass them sorted by instant (``GapDetector`` sorts for you).
  ///
  /// - Parameters:
  ///   - heartbeats: The heartbeats, in order.
  ///   - pulseTime: A fixed or adaptive pulse time; ``AdaptivePulseTime/standard`` unless you
  ///     choose otherwise.
  /// - Returns: The intervals in the order they were closed, then those still open at the end,
  ///   in the order their sources first appeared.
  /// - Complexity: O(*n*) for a fixed pulse time; O(*n* · *k*) at worst for an adaptive one
  ///   over *k* samples, O(*n*) when the cadence is steady.
  public static func merge(
    _ heartbeats: [Heartbeat], pulseTime: PulseTime = .adaptive(.standard)
  ) -> [ActivityInterval<HeartbeatSource>] {
    let fresh = HeartbeatMerger(pulseTime: pulseTime)
    var intervals: [ActivityInterval<HeartbeatSource>] = []
    // The merger of the source seen last, and the others' aside: consecutive heartbeats of one
    // source, the usual case, cost no dictionary lookup.
    var current = fresh
    var currentSource: HeartbeatSource?
    var others: [HeartbeatSource: HeartbeatMerger] = [:]
    var sources: [HeartbeatSource] = []
    for heartbeat in heartbeats {
      if heartbeat.source != currentSource {
        if let currentSource { others[currentSource] = current }
        if let stashed = others.removeValue(forKey: heartbeat.source) {
          current = stashed
        } else {
          current = fresh
          sources.append(heartbeat.source)
        }
        currentSource = heartbeat.source
      }
      if let closed = current.add(start: heartbeat.instant, duration: 0, data: heartbeat.source) {
        intervals.append(closed)
      }
    }
    if let currentSource { others[currentSource] = current }
    for source in sources {
      if let last = others[source]?.finish() { intervals.append(last) }
    }
    return intervals
  }
}
