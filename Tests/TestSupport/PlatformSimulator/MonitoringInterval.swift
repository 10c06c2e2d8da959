import Foundation

/// One occurrence of the daily 00:00–23:59 schedule, read in the zone the device was in when it
/// began.
///
/// The schedule's 23:59 end is read as the end of the local day, so an interval runs from one
/// local midnight to the next in its zone, and consecutive intervals touch. When the device
/// changes zone in the middle of an interval, the interval keeps its zone and ends at its own
/// midnight; the next one begins at that instant in the device's new zone, and its day is the
/// local day of its start there. Travelling west can therefore give two intervals the same day
/// (Paris's day ends at 18:00 in New York, and New York's day is still running): the truth adds
/// them, since use stays in the day of the interval that held it.
package struct MonitoringInterval: Hashable, Sendable {
  /// The interval's position among the simulation's intervals, from 0.
  package let index: Int
  /// The instant the interval began, in seconds since 1970.
  package let start: Int
  /// The instant the interval ended (exclusive), in seconds since 1970.
  package let end: Int
  /// The zone the device was in at `start`, in which the interval is read.
  package let timeZone: TimeZone
  /// The local day of `start` in `timeZone`, as `yyyy-MM-dd`.
  package let day: String

  /// The interval's length in seconds (23 or 25 hours on a DST day).
  package var length: Int { end - start }

  /// Cuts the span from `start` to `end` into consecutive daily intervals.
  ///
  /// - Parameters:
  ///   - start: A local midnight of the device's zone at that instant, in seconds since 1970.
  ///   - end: The instant after which no interval begins.
  ///   - zones: The device's zone over time.
  /// - Returns: The intervals in order; the last one may end after `end`.
  /// - Complexity: O(*d*) for *d* days.
  package static func intervals(from start: Int, until end: Int, zones: DeviceZones)
    -> [MonitoringInterval]
  {
    var result: [MonitoringInterval] = []
    var cursor = start
    while cursor < end {
      let zone = zones.zone(at: cursor)
      let next = LocalClock.nextMidnight(after: cursor, in: zone)
      result.append(
        MonitoringInterval(
          index: result.count, start: cursor, end: next, timeZone: zone,
          day: LocalClock.day(of: cursor, in: zone)))
      cursor = next
    }
    return result
  }
}
