import ActivityPlanning
import Foundation
import UsageModel

/// A group of targets and the sources that restrict them: schedules and budgets here, focus
/// sessions, earned time and overrides through intents that name the profile.
///
/// Several profiles may be active at once: what is shielded is the union of what each
/// requires. A target named by several profiles is shielded while any of them requires it; a
/// lift (a break, earned time, an unlock) applies to its own profile only, so profiles that
/// disagree about a target resolve to *shielded* (see <doc:DecidingWhatToShield>).
///
/// ```swift
/// let social = try ShieldProfile(
///   id: "social", targets: [.application(instagram), .category(games)],
///   schedules: [.daily(bedtime)], budgets: ["social_media"])
/// ```
///
/// JSON form: `{"id": "social", "targets": [ShieldTarget, …], "schedules": [ShieldSchedule, …],
/// "budgets": ["social_media"], "earnedTimeLiftsSchedules": false}`.
public struct ShieldProfile<Token: ShieldToken>: Sendable, Hashable, Codable, Identifiable {
  /// The profile's identifier, unique among the profiles.
  public let id: String
  /// The targets it shields, without repeats, in the order given.
  public let targets: [ShieldTarget<Token>]
  /// The schedules during which it shields its targets.
  public let schedules: [ShieldSchedule]
  /// The names of the budgets whose exhaustion shields its targets (see
  /// ``ShieldIntent/Action/budget(name:status:until:)``).
  public let budgets: [String]
  /// Whether earned time also lifts this profile's schedules; it always lifts its budgets.
  ///
  /// `false` unless you say: a parent's schedule (bedtime, school hours) holds while a child
  /// spends earned time.
  public let earnedTimeLiftsSchedules: Bool

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - id: The identifier, not empty.
  ///   - targets: The targets; a repeat is dropped. At most ``ShieldLimits/maximumTokens`` of
  ///     each kind.
  ///   - schedules: When the targets are shielded; each at least 15 minutes long.
  ///   - budgets: The budgets whose exhaustion shields the targets.
  ///   - earnedTimeLiftsSchedules: Whether earned time lifts the schedules too.
  /// - Throws: ``ShieldingError/invalidValue(field:value:requirement:)`` for an empty
  ///   identifier or budget name, ``ShieldingError/tooManyTargets(profile:kind:count:limit:)``
  ///   for more targets of a kind than every store holds (a 10,000-app profile), and
  ///   ``ShieldingError/scheduleTooShort(profile:schedule:length:minimum:)`` for a timer under
  ///   15 minutes.
  /// - Complexity: O(*n*) in the number of targets.
  public init(
    id: String, targets: [ShieldTarget<Token>], schedules: [ShieldSchedule] = [],
    budgets: [String] = [], earnedTimeLiftsSchedules: Bool = false
  ) throws(ShieldingError) {
    guard !id.isEmpty else {
      throw .invalidValue(field: "profile id", value: "\"\"", requirement: "not empty")
    }
    var seen: Set<ShieldTarget<Token>> = []
    var unique: [ShieldTarget<Token>] = []
    var counts: [ShieldTargetKind: Int] = [:]
    for target in targets where seen.insert(target).inserted {
      unique.append(target)
      counts[target.kind, default: 0] += 1
    }
    for kind in ShieldTargetKind.allCases {
      let count = counts[kind, default: 0]
      guard count <= ShieldLimits.maximumTokens else {
        throw .tooManyTargets(
          profile: id, kind: kind, count: count, limit: ShieldLimits.maximumTokens)
      }
    }
    for schedule in schedules {
      guard case .timer(let name, let window) = schedule else { continue }
      guard !name.isEmpty else {
        throw .invalidValue(field: "timer name", value: "\"\"", requirement: "not empty")
      }
      guard window.duration >= MonitoringLimits.minimumInterval else {
        throw .scheduleTooShort(
          profile: id, schedule: name, length: window.duration,
          minimum: MonitoringLimits.minimumInterval)
      }
    }
    guard !budgets.contains("") else {
      throw .invalidValue(field: "budget name", value: "\"\"", requirement: "not empty")
    }
    self.id = id
    self.targets = unique
    self.schedules = schedules
    self.budgets = budgets
    self.earnedTimeLiftsSchedules = earnedTimeLiftsSchedules
  }

  private enum CodingKeys: String, CodingKey {
    case id, targets, schedules, budgets, earnedTimeLiftsSchedules
  }

  /// Decodes the documented JSON form and checks it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: container.decode(String.self, forKey: .id),
        targets: container.decode([ShieldTarget<Token>].self, forKey: .targets),
        schedules: container.decode([ShieldSchedule].self, forKey: .schedules),
        budgets: container.decode([String].self, forKey: .budgets),
        earnedTimeLiftsSchedules: container.decode(Bool.self, forKey: .earnedTimeLiftsSchedules))
    } catch let error as ShieldingError {
      throw DecodingError.dataCorruptedError(
        forKey: .targets, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(targets, forKey: .targets)
    try container.encode(schedules, forKey: .schedules)
    try container.encode(budgets, forKey: .budgets)
    try container.encode(earnedTimeLiftsSchedules, forKey: .earnedTimeLiftsSchedules)
  }
}
