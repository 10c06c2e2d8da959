import Foundation

/// One `startMonitoring` the app made: which activity, under which generation of event names,
/// when, and how the platform counts its thresholds.
///
/// Each registration of an activity writes a new ``generation`` into its event names
/// (`stk:g<N>:<threshold>:<app>`, see ``ThresholdEventName``), so that the thresholds the
/// platform replays for an older registration can be told from the new ones.
/// ``IntervalAttribution`` applies the rules.
///
/// ```swift
/// let rearmed = try MonitoringRegistration(
///   activity: "daily", generation: 1, registeredAt: noon, includesPastActivity: true,
///   counting: .fromOccurrenceStart)
/// ```
///
/// JSON form: `{"activity": "daily", "generation": 1, "registeredAt": "2026-01-02T11:00:00Z",
/// "includesPastActivity": true, "counting": "fromOccurrenceStart"}`; `includesPastActivity`
/// may be absent (`false`).
public struct MonitoringRegistration: Sendable, Hashable, Codable {
  /// The activity's name.
  public let activity: String
  /// The generation its event names carry.
  public let generation: UInt32
  /// Whether its events count usage from the start of the hour in which the interval began.
  public let includesPastActivity: Bool
  /// Where the platform counts its usage from, when registered inside an occurrence.
  public let counting: ThresholdCounting
  /// When the registration was made, in milliseconds since 1970.
  let registeredInstant: Int64

  /// When the registration was made.
  public var registeredAt: Date { Milliseconds.date(registeredInstant) }

  /// Creates a registration.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - generation: The generation its event names carry.
  ///   - registeredAt: When `startMonitoring` was called; rounded to the millisecond.
  ///   - includesPastActivity: Whether its events were registered with past activity.
  ///   - counting: Where the platform counts its usage from.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for a non-finite
  ///   or out-of-range instant.
  public init(
    activity: String, generation: UInt32, registeredAt: Date, includesPastActivity: Bool = false,
    counting: ThresholdCounting
  ) throws(UsageModelError) {
    self.activity = activity
    self.generation = generation
    self.registeredInstant = try Milliseconds.instant(registeredAt, field: "registeredAt")
    self.includesPastActivity = includesPastActivity
    self.counting = counting
  }

  /// Why a list of registrations contradicts itself, if it does.
  ///
  /// Per activity, no two registrations may share a generation, and generations must increase
  /// with ``registeredAt``.
  ///
  /// - Parameter registrations: Registrations in any order.
  /// - Throws: ``UsageModelError/conflictingRegistrations(activity:reason:)`` naming the first
  ///   conflict.
  /// - Complexity: O(*n* log *n*) for *n* registrations.
  public static func validate(_ registrations: [MonitoringRegistration]) throws(UsageModelError) {
    let sorted = registrations.sorted {
      ($0.activity, $0.generation, $0.registeredInstant)
        < ($1.activity, $1.generation, $1.registeredInstant)
    }
    for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.activity == later.activity
    {
      if earlier.generation == later.generation {
        throw .conflictingRegistrations(
          activity: later.activity, reason: "generation \(later.generation) is registered twice")
      }
      if earlier.registeredInstant >= later.registeredInstant {
        throw .conflictingRegistrations(
          activity: later.activity,
          reason: "generation \(later.generation) was registered at \(later.registeredAt), not "
            + "after generation \(earlier.generation) at \(earlier.registeredAt)")
      }
    }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case activity, generation, registeredAt, includesPastActivity, counting
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    activity = try container.decode(String.self, forKey: .activity)
    generation = try container.decode(UInt32.self, forKey: .generation)
    registeredInstant = try container.decodeInstant(forKey: .registeredAt)
    includesPastActivity =
      try container.decodeIfPresent(Bool.self, forKey: .includesPastActivity) ?? false
    counting = try container.decode(ThresholdCounting.self, forKey: .counting)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(activity, forKey: .activity)
    try container.encode(generation, forKey: .generation)
    try container.encodeInstant(registeredInstant, forKey: .registeredAt)
    try container.encode(includesPastActivity, forKey: .includesPastActivity)
    try container.encode(counting, forKey: .counting)
  }
}
