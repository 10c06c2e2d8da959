import Foundation
import SignalValues
import TrackerSignals
import UsageModel

/// What the facts say, derived afresh from the whole set: threshold accounting, usage records,
/// the facts that could not be used, and the signs of life they are.
///
/// A pure function of the facts and the configuration, independent of the order in which the
/// facts arrived: the facts are a sorted set, and they are replayed in that order.
struct DerivedUsage {
  /// The threshold accounting of every attributed threshold event; its usage records are the
  /// usage, and its upper bound the upper bound.
  var accountant: ThresholdAccountant
  /// The threshold accounting of the events that may count in the lower bound: all but the
  /// held deliveries (`ThresholdAttribution.heldDelivery`), which count in the upper bound only.
  var confirmable: ThresholdAccountant
  /// The threshold events that could not be counted, and why.
  var rejected: [RejectedFact]
  /// What recording each counted event did, by the instant it was received.
  var outcomes: [(instant: Int64, outcome: ThresholdOutcome)]
  /// One heartbeat of the monitor extension per fact: each callback is a sign of life.
  var signsOfLife: [Heartbeat]
  /// The zone each interval is read in, by its start in milliseconds: the zone the device was
  /// in when it began (`IntervalAttribution`).
  var zones: [Int64: TimeZone] = [:]
  /// The attribution of events to intervals, with every start of the facts.
  var attribution: IntervalAttribution

  /// The accounting that `bound` is read from: ``accountant`` for the upper bound,
  /// ``confirmable`` for the lower.
  func accountant(for bound: UsageBound) -> ThresholdAccountant {
    bound == .lower ? confirmable : accountant
  }

  /// The usage records within `bound` as of `now`, laid out by
  /// `MonitoringIntervalUsage.usageRecords(bound:asOf:)`.
  func records(bound: UsageBound, asOf now: Date) -> [UsageRecord] {
    accountant(for: bound).usageRecords(bound: bound, asOf: now)
  }

  /// The usage records within `bound` as of `now`, grouped by the zone their interval is read
  /// in; `zone` for intervals with none recorded.
  func recordsByZone(bound: UsageBound, asOf now: Date, default zone: TimeZone)
    -> [(zone: TimeZone, records: [UsageRecord])]
  {
    var groups: [String: (zone: TimeZone, records: [UsageRecord])] = [:]
    for interval in accountant(for: bound).intervals {
      let start = Milliseconds.clampedInstant(interval.start)
      let intervalZone = zones[start] ?? zone
      groups[intervalZone.identifier, default: (intervalZone, [])].records +=
        interval.usageRecords(bound: bound, asOf: now)
    }
    return groups.keys.sorted().compactMap { groups[$0] }
  }

  /// Adds `fact`, which comes after every fact added before: a sign of life, and its threshold
  /// event counted or rejected.
  mutating func add(_ fact: MonitorFact, configuration: PipelineConfiguration) {
    signsOfLife.append(
      Heartbeat(instant: fact.instant, source: .monitorExtension, sequence: nil, memoryBytes: nil))
    guard fact.callback == .eventDidReachThreshold, let name = fact.event else { return }
    switch FactDerivation.reading(
      name, of: fact, attribution: attribution, configuration: configuration)
    {
    case .event(let event, let upperOnly):
      outcomes.append((fact.instant, accountant.record(event)))
      if !upperOnly { _ = confirmable.record(event) }
      let start = Milliseconds.clampedInstant(event.intervalStart)
      if zones[start] == nil {
        zones[start] = attribution.zone(of: fact.activity, at: start, eventZone: fact.timeZone)
      }
    case .rejected(let rejection): rejected.append(rejection)
    }
  }

  /// What recording the events received in `range` did, counted.
  func counts(in range: Range<Int64>) -> ThresholdCounts {
    var counts = ThresholdCounts()
    for item in outcomes where range.contains(item.instant) { counts.count(item.outcome) }
    return counts
  }
}

enum FactDerivation {
  /// Derives the usage of `facts` by UsageModel's rules.
  ///
  /// Each `intervalDidStart` is recorded for the attribution of events to intervals, and each
  /// threshold event is attributed (`IntervalAttribution`, with the configuration's
  /// registrations) and counted (`ThresholdAccountant`). A replay of an older generation, an unknown generation and an
  /// event outside every known interval are rejected facts, each with its reason.
  ///
  /// - Parameters:
  ///   - facts: The facts, sorted and unique (``PipelineState/facts``).
  ///   - configuration: The pipeline's configuration.
  ///   - accountant: An empty accountant with the configuration's zone and tolerance.
  /// - Returns: What the facts say.
  /// - Complexity: O(*n* log *n*) for *n* facts.
  static func derive(
    _ facts: some Collection<MonitorFact>, configuration: PipelineConfiguration,
    accountant: ThresholdAccountant
  ) -> DerivedUsage {
    var attribution = IntervalAttribution(
      plan: configuration.monitoring, timeZone: configuration.timeZone,
      registrations: configuration.registrations)
    for fact in facts where fact.callback == .intervalDidStart {
      attribution.recordStart(of: fact.activity, at: fact.instant, timeZone: fact.timeZone)
    }
    var derived = DerivedUsage(
      accountant: accountant, confirmable: accountant, rejected: [], outcomes: [],
      signsOfLife: [], attribution: attribution)
    derived.signsOfLife.reserveCapacity(facts.count)
    for fact in facts { derived.add(fact, configuration: configuration) }
    return derived
  }

  /// `derived`, the derivation of some facts, with `later` added: what ``derive(_:configuration:
  /// accountant:)`` gives for all of them, when every one of `later` comes after the facts
  /// `derived` was made from, in their order; `nil` when `later` holds an `intervalDidStart`,
  /// which can change how earlier events are attributed.
  ///
  /// - Complexity: O(*k*) in the facts of `later`.
  static func extend(
    _ derived: DerivedUsage, with later: some Collection<MonitorFact>,
    configuration: PipelineConfiguration
  ) -> DerivedUsage? {
    guard !later.contains(where: { $0.callback == .intervalDidStart }) else { return nil }
    var extended = derived
    for fact in later { extended.add(fact, configuration: configuration) }
    return extended
  }

  /// What a threshold fact reports: an event, or why it cannot be counted.
  enum Reading {
    /// An event; `upperOnly` for a held delivery, which counts in the upper bound only.
    case event(ThresholdEvent, upperOnly: Bool)
    case rejected(RejectedFact)
  }

  /// The threshold event of `fact`, named `eventName`, or why it cannot be counted.
  static func reading(
    _ eventName: String, of fact: MonitorFact, attribution: IntervalAttribution,
    configuration: PipelineConfiguration
  ) -> Reading {
    do throws(UsageModelError) {
      let name = try ThresholdEventName(parsing: eventName)
      let start: Date
      var reachedBy = fact.at
      var includesPastActivity = configuration.includesPastActivity
      var upperOnly = false
      switch attribution.attribute(
        name, of: fact.activity, receivedAt: fact.instant, timeZone: fact.timeZone)
      {
      case .interval(let intervalStart, let registration):
        start = intervalStart
        includesPastActivity = registration?.includesPastActivity ?? includesPastActivity
      case .lateDelivery(let intervalStart, let registration, let end):
        start = intervalStart
        reachedBy = end
        includesPastActivity = registration?.includesPastActivity ?? includesPastActivity
      case .heldDelivery(let intervalStart, let registration, let end):
        start = intervalStart
        reachedBy = end
        includesPastActivity = registration?.includesPastActivity ?? includesPastActivity
        upperOnly = true
      case .replay(let generation, let current):
        return .rejected(
          RejectedFact(
            fact: fact,
            reason: "a replay of generation \(generation): generation \(current.generation) of "
              + "activity '\(fact.activity)' was registered at \(current.registeredAt), before it"
          ))
      case .unknownGeneration(let generation):
        return .rejected(
          RejectedFact(
            fact: fact,
            reason: "generation \(generation) of activity '\(fact.activity)' is not among the "
              + "configuration's registrations made before it"))
      case .noKnownInterval:
        return .rejected(
          RejectedFact(
            fact: fact,
            reason: "no interval of activity '\(fact.activity)' is known to contain it: no "
              + "intervalDidStart in the 7 days before it, and no schedule in the monitoring plan"
          ))
      }
      return .event(
        try ThresholdEvent(
          name: name, intervalStart: start, receivedAt: reachedBy,
          includesPastActivity: includesPastActivity), upperOnly: upperOnly)
    } catch {
      return .rejected(RejectedFact(fact: fact, reason: error.description))
    }
  }
}
