import Foundation
import SharedStore
import TrackerSignals
import UsageModel

extension FactJournal {
  /// The most records the summaries' log keeps: a summary and a stale mark a day, for years.
  static let summariesCapacity = 10_000

  /// Where a summary's usage within a bound is in the log.
  struct SummaryUsageKey: Hashable, Sendable {
    var position: UInt64
    var bound: UsageBound
  }

  /// A day's latest record in the summaries' log: its header, decoded, and its bytes, whose
  /// usage ``usage(of:bound:)`` decodes when a dashboard reads the day.
  struct SummaryRecord: Sendable {
    var header: DaySummary.Header
    /// Where the record is in the log whose identity is ``identity``.
    var position: UInt64
    var identity: UInt64
    var bytes: Data
  }

  /// The latest record of each past day that is a summary (not a stale mark), headers only.
  ///
  /// Every reader needs a day's configuration and `through`; only a dashboard needs its usage,
  /// and only for the days of its month. A header is the record's first line, parsed without
  /// the two `DailyUsage` after it, which are most of a record's bytes and cost.
  ///
  /// - Complexity: O(*n*) in the bytes of the log, once per change of it; then O(1).
  func summaries() throws(PipelineError) -> [LocalDay: SummaryRecord] {
    let key = layout.appSummariesKey
    let token: ChangeToken?
    do throws(SharedStoreError) {
      token = try store.changeToken(for: key)
    } catch {
      throw .store(error)
    }
    guard let token else { return [:] }
    if let cached = cache.summaries, cached.token == token { return cached.days }
    let snapshot: LogSnapshot?
    do throws(SharedStoreError) {
      snapshot = try store.readLog(key)
    } catch {
      throw .store(error)
    }
    let decoder = JSONDecoder()
    var days: [LocalDay: SummaryRecord] = [:]
    for record in snapshot?.records ?? [] {
      let header: DaySummary.Header
      do {
        header = try decoder.decodeStored(
          DaySummary.Header.self, from: DaySummary.line(0, of: record.bytes))
      } catch {
        // A summary is a cache of what the facts say: one that does not decode is derived again.
        continue
      }
      // A later record replaces the day's; a stale mark drops it.
      days[header.day] =
        header.isSummary
        ? SummaryRecord(
          header: header, position: record.position, identity: snapshot?.identity ?? 0,
          bytes: record.bytes)
        : nil
    }
    cache.summaries = (token, days)
    return days
  }

  /// The usage within `bound` of the summaries of `records`; a record whose usage does not
  /// decode is left out, so that its day is derived from its facts.
  ///
  /// - Complexity: O(*k*) in the bytes of the records not decoded before in this process.
  func usage(of records: [LocalDay: SummaryRecord], bound: UsageBound)
    -> [LocalDay: DaySummary.BoundUsage]
  {
    var cached = cache.decodedSummaries
    var decoded: [LocalDay: DaySummary.BoundUsage] = [:]
    let decoder = JSONDecoder()
    for (day, record) in records {
      if cached?.identity != record.identity { cached = (record.identity, [:]) }
      let key = SummaryUsageKey(position: record.position, bound: bound)
      if let usage = cached?.days[key] {
        decoded[day] = usage
        continue
      }
      let line = DaySummary.line(bound == .upper ? 1 : 2, of: record.bytes)
      // The plain form the package writes takes the quick reader; the decoder reads, or
      // refuses, anything else.
      guard
        let daily = DailyUsage(plainJSON: line)
          ?? (try? decoder.decodeStored(DailyUsage.self, from: line))
      else { continue }
      let usage = DaySummary.BoundUsage(
        usage: daily, uncategorized: record.header.uncategorized ?? [])
      cached?.days[key] = usage
      decoded[day] = usage
    }
    cache.decodedSummaries = cached
    return decoded
  }

  /// Appends `summaries` (or stale marks) to the summaries' log.
  func append(_ summaries: [DaySummary]) throws(PipelineError) {
    guard !summaries.isEmpty else { return }
    var records: [Data] = []
    for summary in summaries {
      do {
        records.append(try summary.record())
      } catch {
        throw .store(
          .encoding(key: layout.appSummariesKey, type: "DaySummary", description: "\(error)"))
      }
    }
    do throws(SharedStoreError) {
      try store.append(records, toLog: layout.appSummariesKey, capacity: Self.summariesCapacity)
    } catch {
      throw .store(error)
    }
  }
}
