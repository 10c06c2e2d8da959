import Foundation

/// The device's time zone over time: a home zone, then each change of zone from its instant on.
package struct DeviceZones: Hashable, Sendable {
  /// The zone the device starts in.
  package let home: TimeZone
  /// Each change of zone, in order of instant (seconds since 1970).
  package let changes: [ZoneChange]

  /// One change of the device's zone.
  package struct ZoneChange: Hashable, Sendable {
    /// The instant of the change, in seconds since 1970.
    package let at: Int
    /// The zone from that instant on.
    package let zone: TimeZone
  }

  /// The zones of a device that starts at home and changes zone at each ``Behaviour/travel(at:to:)``.
  ///
  /// - Parameters:
  ///   - home: The zone the device starts in.
  ///   - behaviours: The behaviours; those other than travel are ignored.
  package init(home: TimeZone, behaviours: [Behaviour]) {
    var changes: [ZoneChange] = []
    for case .travel(let at, let zone) in behaviours {
      changes.append(ZoneChange(at: LocalClock.seconds(at), zone: zone))
    }
    self.init(home: home, changes: changes.sorted { $0.at < $1.at })
  }

  /// Creates the zones from a home zone and its changes.
  ///
  /// - Parameters:
  ///   - home: The zone the device starts in.
  ///   - changes: Each change, in order of instant.
  package init(home: TimeZone, changes: [ZoneChange]) {
    self.home = home
    self.changes = changes
  }

  /// The device's zone at an instant.
  ///
  /// - Parameter instant: Seconds since 1970.
  /// - Returns: The zone of the last change at or before `instant`, else the home zone.
  package func zone(at instant: Int) -> TimeZone {
    changes.last { $0.at <= instant }?.zone ?? home
  }
}
