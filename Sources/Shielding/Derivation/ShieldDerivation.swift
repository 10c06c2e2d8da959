import Foundation
import UsageModel

/// What is shielded at any instant, and when that next changes, as a pure function of the
/// intents and the time zone.
///
/// The monitor extension builds one from the intent log in each callback, applies
/// ``state(at:previous:)`` and schedules its next wake-up at ``nextChange(after:)``. The app
/// builds the same one to show why something is shielded. Nothing here reads the clock or the
/// folder: time and intents are parameters.
///
/// **Precedence**, per profile:
/// 1. a manual *lock* shields the profile's targets until it expires; nothing lifts it but a
///    later override of the same profile;
/// 2. a manual *unlock* lifts every other source of the profile until it expires;
/// 3. otherwise the profile's targets are shielded while one of its schedules is running, a
///    focus session naming it is active (a break lifts only that session's shield), or one of
///    its budgets has no time left;
/// 4. earned time lifts the profile's budget shields — and its schedules only when the profile
///    says so (``ShieldProfile/earnedTimeLiftsSchedules``) — never a focus session or a lock.
///
/// Then the union over the profiles: a target is shielded while any profile requires it.
///
/// ```swift
/// let derivation = ShieldDerivation(intents: intents, timeZone: zone)
/// let state = derivation.state(at: now)
/// let wakeUp = derivation.nextChange(after: now)
/// ```
public struct ShieldDerivation<Token: ShieldToken>: Sendable {
  /// The zone of the schedules' wall clock.
  public let timeZone: TimeZone
  /// What went wrong reading the intents.
  ///
  /// Undecodable records, conflicting or rejected intents, unknown profiles; every state
  /// carries them.
  public let diagnostics: [ShieldDiagnostic]

  private let timeline: IntentTimeline<Token>
  /// The intents before the first undecodable record, whose state is kept in the union.
  private let trusted: IntentTimeline<Token>?

  /// How far ahead ``nextChange(after:)`` looks at daily schedules: 8 days, more than a week
  /// of weekdays.
  static var scheduleHorizon: TimeInterval { 8 * 86_400 }

  /// A derivation from decoded intents.
  ///
  /// - Parameters:
  ///   - intents: The intents, in the order recorded; a repeated identifier counts once.
  ///   - timeZone: The zone of the schedules' wall clock.
  /// - Complexity: O(*n* log *n*) in the number of intents.
  public init(intents: [ShieldIntent<Token>], timeZone: TimeZone) {
    self.init(records: intents.map { .intent($0) }, timeZone: timeZone)
  }

  /// A derivation from the records of an intent log, some of which may not have decoded.
  ///
  /// An undecodable record makes every later intent doubtful. The state is then the union of
  /// the state from every decodable intent and of the state from the intents before the first
  /// undecodable record: an intent after it can add a shield, never lift one.
  ///
  /// - Parameters:
  ///   - records: The log's records, oldest first.
  ///   - timeZone: The zone of the schedules' wall clock.
  /// - Complexity: O(*n* log *n*) in the number of records.
  public init(records: [ShieldIntentRecord<Token>], timeZone: TimeZone) {
    var intents: [ShieldIntent<Token>] = []
    var prefix: [ShieldIntent<Token>]?
    var problems: [ShieldDiagnostic] = []
    for record in records {
      switch record {
      case .intent(let intent):
        intents.append(intent)
      case .undecodable(let position, let reason):
        if prefix == nil { prefix = intents }
        problems.append(.undecodableIntent(position: position, reason: reason))
      }
    }
    self.timeZone = timeZone
    self.timeline = IntentTimeline(intents: intents)
    self.trusted = prefix.map { IntentTimeline(intents: $0) }
    self.diagnostics = problems + timeline.diagnostics
  }

  /// What is shielded at `instant`, partitioned into stores.
  ///
  /// - Parameters:
  ///   - instant: The instant to ask about.
  ///   - previous: The state applied before, if any: each target stays in the store it was in,
  ///     so the stores do not churn.
  /// - Returns: The state, with its reasons and the derivation's diagnostics.
  /// - Complexity: O(*p* + *t* + *e*) in the profiles' schedules, targets and focus events.
  public func state(at instant: Date, previous: ShieldState<Token>? = nil) -> ShieldState<Token> {
    Self.state(
      instant: instant, targets: targets(at: instant), previous: previous, diagnostics: diagnostics)
  }

  /// The first instant after `instant` at which ``state(at:previous:)`` shields other targets
  /// or for other reasons.
  ///
  /// Nothing changes strictly between `instant` and the result. Schedule the extension's next
  /// DeviceActivity interval to start then.
  ///
  /// - Parameter instant: An instant.
  /// - Returns: The instant of the next change, or `nil` when nothing the intents say changes
  ///   the state again (daily schedules are looked at for 8 days ahead: a schedule that changes
  ///   nothing in 8 days never does).
  /// - Complexity: O(*c*) derivations of the state, for *c* instants at which a source changes
  ///   without changing the union (at most 10,000; past that, the last one is returned, which
  ///   is no later than the change).
  public func nextChange(after instant: Date) -> Date? {
    let base = targets(at: instant)
    let limit = instant.addingTimeInterval(Self.scheduleHorizon)
    var cursor = instant
    for _ in 0..<10_000 {
      let candidates = [
        timeline.nextBoundary(after: cursor, scheduleLimit: limit, in: timeZone),
        trusted?.nextBoundary(after: cursor, scheduleLimit: limit, in: timeZone),
      ].compactMap { $0 }
      guard let next = candidates.min() else { return nil }
      if targets(at: next) != base { return next }
      cursor = next
    }
    return cursor
  }

  /// The shielded targets at `instant`: the union of the full and the trusted timelines.
  func targets(at instant: Date) -> [ShieldedTarget<Token>] {
    let all = timeline.evaluate(at: instant, in: timeZone)
    guard let trusted else { return all }
    return Self.union(all, trusted.evaluate(at: instant, in: timeZone))
  }

  // MARK: - Composition

  /// The union of two lists of shielded targets: `first`'s order, then `second`'s new targets,
  /// each with the union of its reasons.
  static func union(_ first: [ShieldedTarget<Token>], _ second: [ShieldedTarget<Token>])
    -> [ShieldedTarget<Token>]
  {
    guard !second.isEmpty else { return first }
    var order = first.map(\.target)
    var reasons: [ShieldTarget<Token>: Set<ShieldReason>] = [:]
    for entry in first { reasons[entry.target, default: []].formUnion(entry.reasons) }
    for entry in second {
      if reasons[entry.target] == nil { order.append(entry.target) }
      reasons[entry.target, default: []].formUnion(entry.reasons)
    }
    return order.map { ShieldedTarget(target: $0, reasons: (reasons[$0] ?? []).sorted()) }
  }

  /// A state from its targets, partitioned against `previous`.
  static func state(
    instant: Date, targets: [ShieldedTarget<Token>], previous: ShieldState<Token>?,
    diagnostics: [ShieldDiagnostic]
  ) -> ShieldState<Token> {
    let partition = StorePartition.partition(targets.map(\.target), previous: previous?.stores)
    return ShieldState(
      instant: instant, targets: targets, stores: partition.stores,
      shieldsAllCategories: !partition.overflow.isEmpty,
      diagnostics: diagnostics + partition.overflow)
  }
}
