import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SignalValues
import TrackerSignals
import UsageModel

/// What the app side of the pipeline keeps beside the facts it drained: the little it must
/// remember that the facts do not say.
///
/// The state lives in one ``/SequenceTracking/OutboxConsumerRecord`` together with the outbox
/// cursor, so that a drain observes a batch's numbers and moves the cursor in one atomic write. The
/// facts themselves are not here: a drain first appends them to the folder's per-day logs (see
/// ``UsagePipeline``), then commits this record. Everything a dashboard shows — usage, budgets,
/// health, gaps — is derived from the facts; only what cannot be derived is kept here:
///
/// - ``sequence``: the drained numbers, which make lost facts visible, and ``losses``: the
///   numbers that were never delivered, with their epochs and the stretch of time they fell in;
/// - ``outboxRecoveries``: the outbox epochs that ended before the app reached their ends (a
///   damaged outbox moved aside, a vanished one);
/// - ``alerts`` and ``acknowledgedTrackerDown``: the alerts the app acknowledged, so that no
///   dashboard shows them again;
/// - ``recoveries``: the app side's files that were damaged, moved aside and rebuilt, with what
///   could not be rebuilt;
/// - the reward ledger's position after the app's last own transaction, so that a ledger cut
///   short, rolled back or removed — which reads without an error — is found, not paid from twice;
/// - whether a drain began, so that a state removed beside its day logs is told from a first
///   drain that appended its facts and was killed before it committed.
///
/// The reward ledger is in a log of its own (`UsagePipeline.ledger()`).
///
/// **Bounds.** Losses and acknowledged alerts older than the configured
/// retention (``PipelineConfiguration/retentionDays``, counted back from the `now` of each
/// drain) are dropped, and so are recoveries. ``losses``, ``undecodable``, ``recoveries`` and
/// ``outboxRecoveries`` keep at most ``maximumListLength`` items each, the newest.
///
/// JSON form: `{"sequence": SequenceTracker, "lastApplied": {"number": SequenceNumber, "at":
/// "…"}, "losses": [SequenceLoss, …], "undecodable": [SequenceNumber, …], "outboxRecoveries":
/// [OutboxRecovery, …], "alerts": BudgetAlertState, "acknowledgedTrackerDown":
/// ["2026-03-08T00:00:00Z", …], "recoveries": [PipelineRecovery, …], "ledger": {"identity":
/// "5f1c0a3be29d4471", "next": 42}, "drainBegan": true}`; `lastApplied` is omitted before the
/// first fact, `ledger` before the app's first transaction, `drainBegan` before the first drain
/// appends a fact to the day logs, and an empty list is left out.
public struct PipelineState: Sendable, Hashable, Codable {
  /// The most items ``losses``, ``undecodable``, ``recoveries`` and ``outboxRecoveries`` keep:
  /// 1,000 each.
  public static let maximumListLength = 1_000

  /// The last fact applied, and its number.
  ///
  /// JSON form: `{"number": SequenceNumber, "at": "2026-03-08T14:05:00Z"}`.
  public struct AppliedFact: Sendable, Hashable, Codable {
    /// The fact's number in the outbox.
    public let number: SequenceNumber
    let instant: Int64

    init(number: SequenceNumber, instant: Int64) {
      self.number = number
      self.instant = instant
    }

    /// When the callback ran.
    public var at: Date { Milliseconds.date(instant) }

    private enum CodingKeys: String, CodingKey {
      case number, at
    }

    /// Decodes the documented JSON form.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      number = try container.decode(SequenceNumber.self, forKey: .number)
      instant = try container.decodeInstant(forKey: .at)
    }

    /// Encodes the documented JSON form.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(number, forKey: .number)
      try container.encodeInstant(instant, forKey: .at)
    }
  }

  /// Every number drained, for the delivery statistics and to find lost facts.
  public internal(set) var sequence: SequenceTracker
  /// The last fact applied.
  public internal(set) var lastApplied: AppliedFact?
  /// Facts that were published but never delivered (evicted from the outbox before the app
  /// drained them, or lost with a reset outbox), with their epoch and the stretch of time
  /// between the facts around them: the gap report's notification-loss evidence.
  public internal(set) var losses: [SequenceLoss]
  /// Outbox entries that could not be decoded and were passed over (written by a newer version
  /// of the extension, for example).
  public internal(set) var undecodable: [SequenceNumber]
  /// The outbox epochs that ended before the app reached their ends, oldest first.
  ///
  /// An epoch ends early when the outbox could not be read and was moved aside (by the
  /// extension or the app), or when it vanished. Each says what was quarantined, where its
  /// bytes are, and the last number handed out; the numbers each cost the app are in
  /// ``losses``.
  public internal(set) var outboxRecoveries: [OutboxRecovery]
  /// The budget thresholds whose alerts the app acknowledged.
  public internal(set) var alerts: BudgetAlertState
  /// The windows whose tracker-down alert the app acknowledged, by the window's start in
  /// milliseconds, sorted.
  var acknowledgedTrackerDownInstants: [Int64]
  /// The app side's files that were found damaged, moved aside and rebuilt, oldest first, with
  /// what their rebuild could not bring back.
  public internal(set) var recoveries: [PipelineRecovery]
  /// The reward ledger log's identity and next position after the app's last own transaction
  /// (or its last rebuild): the log must hold at least that much.
  var ledgerMark: LedgerMark?
  /// Whether the day logs may hold facts this state did not apply: written, with nothing else
  /// changed, before the first drain appends anything, and with the recovery of a rebuilt state.
  ///
  /// A state with nothing applied and day logs beside it was removed or replaced — unless its
  /// first drain appended the facts and had not committed yet (another app process reads in
  /// between, or the app was killed in between): this tells the two apart. No drain clears it.
  var drainBegan: Bool

  /// A position in the reward ledger's log.
  ///
  /// JSON form: `{"identity": "5f1c0a3be29d4471", "next": 42}`, the identity in hexadecimal.
  struct LedgerMark: Sendable, Hashable, Codable {
    var identity: UInt64
    var next: UInt64

    init(identity: UInt64, next: UInt64) {
      self.identity = identity
      self.next = next
    }

    private enum CodingKeys: String, CodingKey {
      case identity, next
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let text = try container.decode(String.self, forKey: .identity)
      guard let identity = UInt64(text, radix: 16) else {
        throw DecodingError.dataCorruptedError(
          forKey: .identity, in: container, debugDescription: "not hexadecimal: \(text)")
      }
      self.identity = identity
      next = try container.decode(UInt64.self, forKey: .next)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(String(identity, radix: 16), forKey: .identity)
      try container.encode(next, forKey: .next)
    }
  }

  /// The windows whose tracker-down alert the app acknowledged, by the window's start.
  public var acknowledgedTrackerDown: [Date] {
    acknowledgedTrackerDownInstants.map(Milliseconds.date)
  }

  /// Creates the state before anything was drained.
  public init() {
    sequence = SequenceTracker()
    lastApplied = nil
    losses = []
    undecodable = []
    outboxRecoveries = []
    alerts = BudgetAlertState()
    acknowledgedTrackerDownInstants = []
    recoveries = []
    ledgerMark = nil
    drainBegan = false
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case sequence, lastApplied, losses, undecodable, outboxRecoveries, alerts
    case acknowledgedTrackerDown, recoveries
    case ledgerMark = "ledger"
    case drainBegan
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field; also when ``losses``,
  /// ``undecodable`` or ``recoveries`` hold more than ``maximumListLength`` items — which no
  /// state written by this library holds.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sequence = try container.decode(SequenceTracker.self, forKey: .sequence)
    lastApplied = try container.decodeIfPresent(AppliedFact.self, forKey: .lastApplied)
    losses = try container.decodeIfPresent([SequenceLoss].self, forKey: .losses) ?? []
    undecodable = try container.decodeIfPresent([SequenceNumber].self, forKey: .undecodable) ?? []
    outboxRecoveries =
      try container.decodeIfPresent([OutboxRecovery].self, forKey: .outboxRecoveries) ?? []
    recoveries =
      try container.decodeIfPresent([PipelineRecovery].self, forKey: .recoveries) ?? []
    ledgerMark = try container.decodeIfPresent(LedgerMark.self, forKey: .ledgerMark)
    drainBegan = try container.decodeIfPresent(Bool.self, forKey: .drainBegan) ?? false
    for (key, count) in [
      (CodingKeys.losses, losses.count), (.undecodable, undecodable.count),
      (.recoveries, recoveries.count), (.outboxRecoveries, outboxRecoveries.count),
    ] where count > Self.maximumListLength {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container,
        debugDescription: "\(count) items, more than the \(Self.maximumListLength) kept")
    }
    alerts = try container.decode(BudgetAlertState.self, forKey: .alerts)
    var instants: [Int64] = []
    if container.contains(.acknowledgedTrackerDown) {
      var reported = try container.nestedUnkeyedContainer(forKey: .acknowledgedTrackerDown)
      while !reported.isAtEnd {
        let text = try reported.decode(String.self)
        guard case .success(let instant) = ISO8601Instant.parse(text) else {
          throw DecodingError.dataCorruptedError(
            in: reported, debugDescription: "not an ISO 8601 instant: \(text)")
        }
        instants.append(instant)
      }
    }
    acknowledgedTrackerDownInstants = instants.sorted()
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sequence, forKey: .sequence)
    try container.encodeIfPresent(lastApplied, forKey: .lastApplied)
    // The record is written at every drain: empty lists are left out.
    if !losses.isEmpty { try container.encode(losses, forKey: .losses) }
    if !undecodable.isEmpty { try container.encode(undecodable, forKey: .undecodable) }
    if !outboxRecoveries.isEmpty {
      try container.encode(outboxRecoveries, forKey: .outboxRecoveries)
    }
    try container.encode(alerts, forKey: .alerts)
    if !acknowledgedTrackerDownInstants.isEmpty {
      try container.encode(
        acknowledgedTrackerDownInstants.map(ISO8601Instant.format),
        forKey: .acknowledgedTrackerDown)
    }
    if !recoveries.isEmpty { try container.encode(recoveries, forKey: .recoveries) }
    try container.encodeIfPresent(ledgerMark, forKey: .ledgerMark)
    if drainBegan { try container.encode(true, forKey: .drainBegan) }
  }

  // MARK: - Applying

  /// Applies one drained entry, whose fact is in the folder's per-day logs already: observes its
  /// number and records what the number says was lost before it.
  mutating func apply(_ entry: SequencedEntry<MonitorFact>) {
    let fact = entry.payload
    let observation = sequence.observe(entry.number)
    let missing: SequenceRange?
    switch observation {
    case .gap(_, let range): missing = range
    case .reset(_, _, let range): missing = range
    case .first(let number):
      // A state rebuilt after its record was damaged does not know whether the numbers before
      // its first were drained: its recovery reports them (`PipelineRecovery.Loss.deliveries`),
      // and their facts are in the per-day logs if they were.
      let rebuilt = recoveries.contains { $0.file == .state }
      missing =
        number.value > 1 && !rebuilt
        ? SequenceRange(epoch: number.epoch, values: 1...(number.value - 1)) : nil
    case .inOrder, .duplicate, .lateArrival, .stale: missing = nil
    }
    if let missing {
      appendBounded(
        &losses,
        SequenceLoss(
          range: missing,
          after: min(lastApplied?.instant ?? fact.instant, fact.instant), before: fact.instant))
    }
    lastApplied = AppliedFact(number: entry.number, instant: fact.instant)
  }

  /// Records the recoveries among `found` not recorded yet, and the numbers each cost a
  /// consumer whose last applied number was the highest of `applied` in the recovery's epoch
  /// (none: it applied nothing of it), lost between `after` and `before` (milliseconds);
  /// returns the ones recorded now.
  mutating func record(
    _ found: [OutboxRecovery], after applied: [SequenceNumber], between after: Int64,
    and before: Int64
  ) -> [OutboxRecovery] {
    var recorded: [OutboxRecovery] = []
    for recovery in found where !outboxRecoveries.contains(recovery) {
      appendBounded(&outboxRecoveries, recovery)
      recorded.append(recovery)
      let last = applied.filter { $0.epoch == recovery.epoch }.max { $0.value < $1.value }
      if let lost = recovery.lost(after: last) {
        appendBounded(
          &losses, SequenceLoss(range: lost, after: min(after, before), before: before))
      }
    }
    return recorded
  }

  /// Records the recovery of a damaged file.
  mutating func record(_ recovery: PipelineRecovery) {
    appendBounded(&recoveries, recovery)
  }

  /// Records an entry passed over because it does not decode, once: two app processes that
  /// find the same entry both see the cursor pass it, and only one of them skipped it.
  mutating func passOver(_ number: SequenceNumber) {
    guard !undecodable.contains(number) else { return }
    _ = sequence.observe(number)
    appendBounded(&undecodable, number)
  }

  /// Whether the app acknowledged `alert`.
  func hasAcknowledgedTrackerDown(_ alert: TrackerDownAlert) -> Bool {
    acknowledgedTrackerDownInstants.contains(Milliseconds.clampedInstant(alert.window.start))
  }

  /// Records `alert` as acknowledged; returns whether it was not before.
  mutating func acknowledgeTrackerDown(_ alert: TrackerDownAlert) -> Bool {
    let start = Milliseconds.clampedInstant(alert.window.start)
    let position = acknowledgedTrackerDownInstants.partitioningIndex { $0 >= start }
    if position < acknowledgedTrackerDownInstants.count,
      acknowledgedTrackerDownInstants[position] == start
    {
      return false
    }
    acknowledgedTrackerDownInstants.insert(start, at: position)
    return true
  }

  /// `facts` as a set: sorted by ``precedes(_:_:)``, each once.
  ///
  /// - Complexity: O(*n* log *n*).
  static func sortedSet(_ facts: [MonitorFact]) -> [MonitorFact] {
    var sorted = facts
    sorted.sort(by: precedes)
    var unique: [MonitorFact] = []
    unique.reserveCapacity(sorted.count)
    for fact in sorted where unique.last != fact { unique.append(fact) }
    return unique
  }

  /// The order of the facts: by instant, callback, activity, event and zone.
  static func precedes(_ left: MonitorFact, _ right: MonitorFact) -> Bool {
    (
      left.instant, left.callback.rawValue, left.activity, left.event ?? "",
      left.timeZone?.identifier ?? ""
    )
      < (
        right.instant, right.callback.rawValue, right.activity, right.event ?? "",
        right.timeZone?.identifier ?? ""
      )
  }

  private func appendBounded<Element>(_ list: inout [Element], _ element: Element) {
    list.append(element)
    if list.count > Self.maximumListLength { list.removeFirst(list.count - Self.maximumListLength) }
  }
}

extension Array {
  /// The index of the first element for which `belongs` is true, in an array where every such
  /// element comes after every other.
  fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
