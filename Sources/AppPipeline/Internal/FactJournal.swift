import Foundation
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// Where the app side keeps the facts it drained: one append-only log per UTC day of the facts'
/// instants, and a copy of the `intervalDidStart` facts in a log of their own.
///
/// **Write, then commit.** A drain appends the facts it read from the outbox here first, and
/// only then moves the consumer's cursor past them (`OutboxConsumer.drain(through:_:)`). A kill
/// in between leaves the cursor where it was, and the next drain appends the same facts again:
/// the journal is read as a set (sorted, each fact once), so a fact appended twice is one fact.
///
/// **Why per UTC day.** A drain writes only what it drained — one record per fact, in the log of
/// its day — and a dashboard reads only the days its monitoring intervals span. The day is the
/// UTC one, a property of the fact alone, so no configuration (zone, day start) decides where a
/// fact is kept. Retention removes whole days.
///
/// Formats: each record is a `MonitorFact` in its JSON form, in the store's append-only log
/// format (checksummed records; a torn append is discarded on read).
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md`
/// describes both.
struct FactJournal: Sendable {
  /// The most facts one UTC day's log keeps.
  ///
  /// Far more than the platform delivers: a threshold ladder of every minute over 50 apps is
  /// 72,000 callbacks a day. Beyond it the log evicts its oldest facts.
  static let dayCapacity = 100_000
  /// The most `intervalDidStart` facts the starts' log keeps.
  static let startsCapacity = 100_000
  /// A UTC day, in milliseconds.
  static let dayMilliseconds: Int64 = 86_400_000

  let store: any SharedStore
  let layout: SharedFolderLayout
  let cache: JournalCache

  init(store: any SharedStore, layout: SharedFolderLayout) {
    self.store = store
    self.layout = layout
    cache = JournalCache()
  }

  /// The UTC day of `instant`.
  static func utcDay(of instant: Int64) -> LocalDay {
    let dayNumber = Int(instant.floorDivided(by: dayMilliseconds))
    return LocalDay(
      uncheckedDayNumber: min(
        max(dayNumber, LocalDay.supportedDayNumbers.lowerBound),
        LocalDay.supportedDayNumbers.upperBound))
  }

  // MARK: - Writing

  /// Appends `facts` to the logs of their days, and the `intervalDidStart` ones to the starts'
  /// log too; idempotent as a set.
  ///
  /// - Throws: ``PipelineError/store(_:)``; what was appended before the error stays, which the
  ///   next drain appends again.
  /// - Complexity: O(*k*) in the facts, one append per day they fall on.
  func append(_ facts: some Collection<MonitorFact>) throws(PipelineError) {
    guard !facts.isEmpty else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var byDay: [LocalDay: [Data]] = [:]
    var starts: [Data] = []
    for fact in facts {
      let bytes = try Self.encode(fact, with: encoder, key: layout.appStartsKey)
      byDay[Self.utcDay(of: fact.instant), default: []].append(bytes)
      if fact.callback == .intervalDidStart { starts.append(bytes) }
    }
    do throws(SharedStoreError) {
      for day in byDay.keys.sorted() {
        try store.append(
          byDay[day] ?? [], toLog: layout.appFactsKey(of: day), capacity: Self.dayCapacity)
      }
      if !starts.isEmpty {
        try store.append(starts, toLog: layout.appStartsKey, capacity: Self.startsCapacity)
      }
    } catch {
      throw .store(error)
    }
  }

  /// The JSON form of `fact`.
  private static func encode(_ fact: MonitorFact, with encoder: JSONEncoder, key: String)
    throws(PipelineError) -> Data
  {
    do {
      return try encoder.encode(fact)
    } catch {
      throw .store(.encoding(key: key, type: "MonitorFact", description: "\(error)"))
    }
  }

  // MARK: - Reading

  /// The facts whose instants fall on the UTC days from `first` through `last`, sorted and
  /// unique, with how many each day's log evicted.
  ///
  /// - Complexity: O(*n* log *n*) in the facts of those days; a day read before and unchanged
  ///   since (its newest record says so) is not read again, and one that grew is read from
  ///   where it was.
  func facts(from first: LocalDay, through last: LocalDay) throws(PipelineError)
    -> (facts: [MonitorFact], evicted: UInt64)
  {
    guard first <= last else { return ([], 0) }
    var facts: [MonitorFact] = []
    var evicted: UInt64 = 0
    for day in first...last {
      let log = try read(layout.appFactsKey(of: day))
      facts += log.facts
      evicted += log.evicted
    }
    return (PipelineState.sortedSet(facts), evicted)
  }

  /// The `intervalDidStart` facts drained, sorted and unique.
  func starts() throws(PipelineError) -> [MonitorFact] {
    try read(layout.appStartsKey).facts
  }

  /// The UTC days whose logs exist, in order.
  ///
  /// - Complexity: O(*k*) in the keys of the store.
  func days() throws(PipelineError) -> [LocalDay] {
    let keys: [String]
    do throws(SharedStoreError) {
      keys = try store.keys()
    } catch {
      throw .store(error)
    }
    return keys.compactMap { key in
      if case .appFacts(let day) = layout.content(of: key) { return day }
      return nil
    }.sorted()
  }

  /// Every fact of every day, and the starts kept beyond them; sorted and unique.
  func allFacts() throws(PipelineError) -> [MonitorFact] {
    let days = try days()
    let starts = try starts()
    guard let first = days.first, let last = days.last else { return starts }
    return PipelineState.sortedSet(try facts(from: first, through: last).facts + starts)
  }

  // MARK: - Retention

  /// Removes the logs of the UTC days before `day`, and the starts before `startsDay` from the
  /// starts' log.
  ///
  /// - Returns: Whether anything was removed.
  /// It lists the store's keys once per process and UTC day of `day`: a removal already done
  /// for `day` is not looked for again.
  @discardableResult
  func remove(daysBefore day: LocalDay, startsBefore startsDay: LocalDay) throws(PipelineError)
    -> Bool
  {
    if let done = cache.removedBefore, done >= day { return false }
    var removed = false
    let days = try days()
    let starts = try starts()
    do throws(SharedStoreError) {
      for old in days where old < day {
        try store.remove(layout.appFactsKey(of: old))
        removed = true
      }
      if let first = starts.first, Self.utcDay(of: first.instant) < startsDay {
        let limit = Int64(startsDay.dayNumber) * Self.dayMilliseconds
        let decoder = JSONDecoder()
        try store.compactLog(layout.appStartsKey) { record in
          do {
            return try decoder.decodeStored(MonitorFact.self, from: record.bytes).instant >= limit
          } catch {
            return false  // a record no reader can use, past the retention as well
          }
        }
        removed = true
      }
    } catch {
      throw .store(error)
    }
    cache.removedBefore = day
    return removed
  }

  // MARK: - The cache

  /// The decoded facts of the log under `key`: from the cache when the log's newest record is
  /// where it was, with only the records appended since decoded when it grew.
  ///
  /// The log's identity and next position, read from its newest record, say whether it changed:
  /// an append moves the position, a removal or rewrite changes the identity.
  private func read(_ key: String) throws(PipelineError) -> JournalCache.Log {
    guard let tail = try snapshot(key, newest: 1) else {
      return JournalCache.Log(position: nil, facts: [], evicted: 0)
    }
    let position = JournalCache.Position(
      identity: tail.identity, next: tail.nextPosition, count: tail.count)
    let cached = cache.log(key)
    if let cached, cached.position == position { return cached }
    if let cached, let before = cached.position, before.identity == position.identity,
      before.next < position.next, tail.evictedCount == cached.evicted,
      position.next - before.next <= UInt64(Self.incrementalLimit),
      UInt64(position.count - before.count) == position.next - before.next,
      let newer = try snapshot(key, newest: Int(position.next - before.next)),
      newer.records.first?.position == before.next,
      newer.identity == position.identity, newer.evictedCount == cached.evicted
    {
      let log = JournalCache.Log(
        position: JournalCache.Position(
          identity: newer.identity, next: newer.nextPosition, count: newer.count),
        facts: PipelineState.sortedSet(cached.facts + (try decode(newer, key: key))),
        evicted: newer.evictedCount)
      cache.store(log, for: key)
      return log
    }
    guard let whole = try snapshot(key, newest: nil) else {
      return JournalCache.Log(position: nil, facts: [], evicted: 0)
    }
    let log = JournalCache.Log(
      position: JournalCache.Position(
        identity: whole.identity, next: whole.nextPosition, count: whole.count),
      facts: PipelineState.sortedSet(try decode(whole, key: key)), evicted: whole.evictedCount)
    cache.store(log, for: key)
    return log
  }

  /// The most records appended since a log was cached that are read on their own; past it, the
  /// log is read whole.
  static let incrementalLimit = 4_096

  /// The log under `key`, its newest `newest` records (all when `nil`).
  private func snapshot(_ key: String, newest: Int?) throws(PipelineError) -> LogSnapshot? {
    do throws(SharedStoreError) {
      return try store.readLog(key, newest: newest)
    } catch {
      throw .store(error)
    }
  }

  /// The facts of `snapshot`'s records.
  private func decode(_ snapshot: LogSnapshot, key: String) throws(PipelineError) -> [MonitorFact] {
    let decoder = JSONDecoder()
    var facts: [MonitorFact] = []
    facts.reserveCapacity(snapshot.records.count)
    for record in snapshot.records {
      do {
        facts.append(try decoder.decodeStored(MonitorFact.self, from: record.bytes))
      } catch {
        throw .store(.decoding(key: key, type: "MonitorFact", description: "\(error)"))
      }
    }
    return facts
  }
}

/// The logs a ``FactJournal`` decoded, by key, each with the position it was read at.
///
/// Shared by the copies of one ``UsagePipeline``; a lock guards it, since a pipeline is
/// `Sendable`. It keeps the logs most recently read, at most ``capacity`` of them, so that its
/// memory does not grow with the history.
final class JournalCache: @unchecked Sendable {
  /// A log's identity and the position its next record takes.
  struct Position: Sendable, Hashable {
    var identity: UInt64
    var next: UInt64
    /// How many records the log holds: a compaction removes some and keeps the others'
    /// positions.
    var count: Int
  }

  struct Log: Sendable {
    var position: Position?
    var facts: [MonitorFact]
    var evicted: UInt64
  }

  /// The most logs kept: a dashboard reads two or three days and the starts.
  static let capacity = 8

  private let lock = NSLock()
  private var logs: [String: Log] = [:]
  private var recent: [String] = []
  private var summaryDays: (token: ChangeToken, days: [LocalDay: FactJournal.SummaryRecord])?
  private var summaryUsage:
    (identity: UInt64, days: [FactJournal.SummaryUsageKey: DaySummary.BoundUsage])?
  private var removed: LocalDay?
  private var ledgerFold: LedgerJournal.Fold?
  private var heartbeatHistory: HeartbeatHistory?
  private var derivation: Derivation?

  /// A derivation of a window's facts, and what identifies them: the window's start, how many
  /// facts, the first and the last.
  struct Derivation: Sendable {
    var from: Int64
    var count: Int
    var first: MonitorFact?
    var last: MonitorFact?
    var derived: DerivedUsage

    init(_ window: FactWindow, _ derived: DerivedUsage) {
      from = window.from
      count = window.facts.count
      first = window.facts.first
      last = window.facts.last
      self.derived = derived
    }
  }

  /// The last derivation of a window.
  var derived: Derivation? {
    get { locked { derivation } }
    set { locked { derivation = newValue } }
  }

  /// The monitor extension's heartbeat history as last read.
  var heartbeats: HeartbeatHistory? {
    get { locked { heartbeatHistory } }
    set { locked { heartbeatHistory = newValue } }
  }

  /// The reward ledger as last folded, with the log position it was folded at.
  var ledger: LedgerJournal.Fold? {
    get { locked { ledgerFold } }
    set { locked { ledgerFold = newValue } }
  }

  /// The day before which this process last removed the day logs.
  var removedBefore: LocalDay? {
    get { locked { removed } }
    set { locked { removed = newValue } }
  }

  /// The latest summary record of each day, with the change token the log was read at.
  var summaries: (token: ChangeToken, days: [LocalDay: FactJournal.SummaryRecord])? {
    get { locked { summaryDays } }
    set { locked { summaryDays = newValue } }
  }

  /// The summaries' usage decoded, by position in the log of `identity` and bound: a record
  /// never changes in place, so each is decoded once per process.
  var decodedSummaries:
    (identity: UInt64, days: [FactJournal.SummaryUsageKey: DaySummary.BoundUsage])?
  {
    get { locked { summaryUsage } }
    set { locked { summaryUsage = newValue } }
  }

  /// `body`'s result, with the cache locked.
  private func locked<Value>(_ body: () -> Value) -> Value {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  func log(_ key: String) -> Log? {
    lock.lock()
    defer { lock.unlock() }
    return logs[key]
  }

  func store(_ log: Log, for key: String) {
    lock.lock()
    defer { lock.unlock() }
    logs[key] = log
    recent.removeAll { $0 == key }
    recent.append(key)
    while recent.count > Self.capacity {
      logs[recent.removeFirst()] = nil
    }
  }
}

extension Int64 {
  /// The quotient rounded toward negative infinity.
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }
}
