import Foundation
import UsageModel

/// What a monitor extension was told, and when: one `DeviceActivityMonitor` callback as plain
/// values.
///
/// A fact is what the extension writes and nothing more — which callback, which activity, which
/// event, at which instant, in which time zone the device was. It is not a result: the extension derives nothing (no usage, no
/// interval, no total), so a fact written once can never be half-applied, and everything the app
/// shows is derived from the facts it drained (see ``/AppPipeline/UsagePipeline`` in AppPipeline).
/// The activity and event names are kept as the platform gave them (`DeviceActivityName.rawValue`,
/// `DeviceActivityEvent.Name.rawValue`); the app parses event names such as
/// `stk:15m:com.example.app` with UsageModel's ``/UsageModel/ThresholdEventName``.
///
/// ```swift
/// let fact = try MonitorFact(
///   .eventDidReachThreshold, activity: "daily", event: "stk:5m:com.burbn.instagram", at: now,
///   timeZone: zone)
/// ```
///
/// **The device's zone.** The platform begins each monitoring interval on the wall clock of the
/// zone the device is in at that moment, so the zone is part of what the callback means: the
/// app reads an interval in the zone it began in, whatever zone the app is configured with
/// later (a person who travels). Facts written without a zone (`timeZone == nil`) are read in
/// the app's configured zone.
///
/// JSON form: `{"activity": "daily", "at": "2026-03-08T14:05:00Z", "callback":
/// "eventDidReachThreshold", "event": "stk:5m:com.burbn.instagram", "timeZone":
/// "Europe/Paris"}`; `at` is ISO 8601 in UTC with `.SSS` only when the millisecond is not zero;
/// `event` is omitted for the callbacks that concern no event, `timeZone` (an IANA identifier)
/// when the zone is not known.
public struct MonitorFact: Sendable, Hashable, Codable {
  /// The longest activity or event name accepted, in UTF-8 bytes: 256.
  ///
  /// Facts live in a bounded outbox read by a 6 MB extension; a name longer than this is a
  /// programming error, reported rather than stored.
  public static let maximumNameLength = 256

  /// Which callback it was.
  public let callback: MonitorCallback
  /// The activity's name, as the platform passed it.
  public let activity: String
  /// The event's name, for ``MonitorCallback/eventDidReachThreshold`` and
  /// ``MonitorCallback/eventWillReachThresholdWarning``; `nil` for the others.
  public let event: String?
  /// The time zone the device was in when the callback ran, if the extension gave it.
  public let timeZone: TimeZone?
  /// The instant in milliseconds since 1970, within the supported range.
  package let instant: Int64

  /// Creates a fact.
  ///
  /// - Parameters:
  ///   - callback: Which callback ran.
  ///   - activity: The activity's name; 1 to 256 UTF-8 bytes.
  ///   - event: The event's name, 1 to 256 UTF-8 bytes, for the callbacks that concern an
  ///     event; `nil` for the others.
  ///   - at: When the callback ran; rounded to the millisecond.
  ///   - timeZone: The zone the device was in; `nil` when unknown.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)`` for an empty or
  ///   over-long name, an event given to a callback that concerns none (or missing from one that
  ///   does), or an instant that is not finite or lies outside 0001-01-03...9999-12-29.
  public init(
    _ callback: MonitorCallback, activity: String, event: String? = nil, at: Date,
    timeZone: TimeZone? = nil
  ) throws(SignalValuesError) {
    try self.init(
      callback, activity: activity, event: event, instant: TimeValues.instant(at, field: "at"),
      timeZone: timeZone)
  }

  init(
    _ callback: MonitorCallback, activity: String, event: String?, instant: Int64,
    timeZone: TimeZone?
  ) throws(SignalValuesError) {
    try Self.checkName(activity, field: "activity")
    if callback.concernsEvent {
      guard let event else {
        throw .invalidValue(
          field: "event", value: "nil", requirement: "an event name for \(callback.rawValue)")
      }
      try Self.checkName(event, field: "event")
    } else if let event {
      throw .invalidValue(
        field: "event", value: event.debugDescription,
        requirement: "no event for \(callback.rawValue), which concerns the activity only")
    }
    self.callback = callback
    self.activity = activity
    self.event = event
    self.instant = instant
    self.timeZone = timeZone
  }

  /// When the callback ran.
  public var at: Date { Milliseconds.date(instant) }

  private static func checkName(_ name: String, field: String) throws(SignalValuesError) {
    guard (1...maximumNameLength).contains(name.utf8.count) else {
      throw .invalidValue(
        field: field, value: "\(name.utf8.count) bytes",
        requirement: "a name of 1 to \(maximumNameLength) UTF-8 bytes")
    }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case callback
    case activity
    case event
    case at
    case timeZone
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let callback = try container.decode(MonitorCallback.self, forKey: .callback)
    let activity = try container.decode(String.self, forKey: .activity)
    let event = try container.decodeIfPresent(String.self, forKey: .event)
    let instant = try container.decodeInstant(forKey: .at)
    let timeZone = try container.decodeTimeZoneIfPresent(forKey: .timeZone)
    do {
      try self.init(
        callback, activity: activity, event: event, instant: instant, timeZone: timeZone)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: error.codingKey(CodingKeys.self) ?? .activity, in: container,
        debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(activity, forKey: .activity)
    try container.encodeInstant(instant, forKey: .at)
    try container.encode(callback, forKey: .callback)
    try container.encodeIfPresent(event, forKey: .event)
    try container.encodeTimeZoneIfPresent(timeZone, forKey: .timeZone)
  }
}

extension MonitorFact: CanonicalJSONEncodable {
  /// Appends the documented JSON form, byte for byte as `JSONEncoder` writes it with sorted keys
  /// and without escaping slashes: each callback's outbox append writes one.
  ///
  /// - Parameter output: The bytes to append to; unchanged when this throws.
  /// - Throws: `EncodingError.invalidValue` for a zone ``/UsageModel/StoredTimeZone`` cannot
  ///   write, as ``encode(to:)`` does.
  package func appendCanonicalJSON(to output: inout [UInt8]) throws {
    // Sorted keys: activity, at, callback, event, timeZone.
    var zone: String?
    if let timeZone {
      do throws(UsageModelError) {
        zone = try StoredTimeZone.identifier(of: timeZone)
      } catch {
        throw EncodingError.invalidValue(
          timeZone.identifier,
          EncodingError.Context(
            codingPath: [CodingKeys.timeZone], debugDescription: error.description,
            underlyingError: error))
      }
    }
    output.append(UInt8(ascii: "{"))
    CanonicalJSON.appendKey("activity", to: &output)
    CanonicalJSON.appendString(activity, to: &output)
    output.append(UInt8(ascii: ","))
    CanonicalJSON.appendKey("at", to: &output)
    // The instant's text is digits, `-`, `:`, `.`, `T` and `Z`: nothing to escape.
    output.append(UInt8(ascii: "\""))
    ISO8601Instant.append(instant, to: &output)
    output.append(UInt8(ascii: "\""))
    output.append(UInt8(ascii: ","))
    CanonicalJSON.appendKey("callback", to: &output)
    CanonicalJSON.appendString(callback.rawValue, to: &output)
    if let event {
      output.append(UInt8(ascii: ","))
      CanonicalJSON.appendKey("event", to: &output)
      CanonicalJSON.appendString(event, to: &output)
    }
    if let zone {
      output.append(UInt8(ascii: ","))
      CanonicalJSON.appendKey("timeZone", to: &output)
      CanonicalJSON.appendString(zone, to: &output)
    }
    output.append(UInt8(ascii: "}"))
  }
}
