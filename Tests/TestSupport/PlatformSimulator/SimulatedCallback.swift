import Foundation
import SignalValues

/// A callback as the monitor extension receives it: what, for which activity and event, when,
/// and in the device's zone at that instant.
package struct SimulatedCallback: Hashable, Sendable {
  /// The callback.
  package let kind: MonitorCallback
  /// The monitored activity's name.
  package let activity: String
  /// The event's name, for a threshold callback.
  package let event: String?
  /// The delivery instant.
  package let at: Date
  /// The device's zone at `at`.
  package let timeZone: TimeZone
}

/// A delivered callback with what the simulator knows about it and the extension does not.
package struct SimulatedDelivery: Hashable, Sendable {
  /// The callback as delivered.
  package let callback: SimulatedCallback
  /// The interval it belongs to (the one its cause happened in).
  package let interval: Int
  /// For a threshold callback: the threshold in seconds, the app and the generation.
  package let threshold: Int?
  /// The app of a threshold callback.
  package let app: String?
  /// The generation of a threshold callback's name.
  package let generation: Int
  /// Whether the threshold had not truly been reached when the platform fired it.
  package let isPhantom: Bool
  /// The instant the platform fired it (before any delay), in seconds since 1970.
  package let firedAt: Int
  /// Whether this is the platform's second delivery of a callback.
  package let isDuplicate: Bool
}
