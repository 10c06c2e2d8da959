import Foundation
import SharedStore
import SignalValues
import UsageModel

/// The extension's diagnostic entries in a ``/SharedStore/BoundedLog``: the last 100, shared by the
/// app.
///
/// Appends are atomic across processes. A log that does not decode throws instead of starting
/// afresh (a `try?` there would silently replace a damaged log with an empty one). Appending an
/// entry whose `DiagnosticEntry.id` is already in the log changes nothing, so a retried append
/// is counted once. The stored value is a `BoundedLog`'s, so a `BoundedLog<DiagnosticEntry>`
/// on the same key reads it too.
///
/// ```swift
/// let log = try SharedFolder(directory: groupFolder).diagnostics
/// try log.append(entry)
/// let failures = try log.failures(on: today, boundary: boundary)
/// ```
public struct DiagnosticLog: Sendable {
  /// The default capacity: 100 entries.
  public static let defaultCapacity = 100
  private let log: BoundedLog<DiagnosticEntry>
  /// The store the log is kept in.
  package var backingStore: any SharedStore { log.backingStore }

  /// Creates a log on `key` of `store`; nothing is written until the first append.
  ///
  /// - Parameters:
  ///   - store: The shared store.
  ///   - key: The store key; a ``SharedFolder`` opens its log under
  ///     ``SharedFolderLayout/diagnosticsKey``.
  ///   - capacity: The most entries kept, at least 1; 100 unless you choose otherwise.
  /// - Throws: ``TrackerSignalsError/store(_:)`` with the store's `invalidKey` or
  ///   `invalidCapacity` for a key or capacity it does not accept.
  public init(store: any SharedStore, key: String, capacity: Int = defaultCapacity)
    throws(TrackerSignalsError)
  {
    do {
      log = try BoundedLog(store: store, key: key, capacity: capacity)
    } catch {
      throw .store(error)
    }
  }

  /// Appends an entry, evicting the oldest when the log is full; an entry already in the log
  /// (same identifier) changes nothing.
  ///
  /// The stored count of evictions saturates at `Int.max`, whatever a stored log claims.
  ///
  /// - Parameter entry: The entry.
  /// - Returns: How many entries were evicted (0 or 1).
  /// - Throws: ``TrackerSignalsError/store(_:)``; the log is then unchanged.
  /// - Complexity: O(*capacity*) to read the kept entries' identifiers, in one atomic append
  ///   that writes the new entry only.
  @discardableResult
  public func append(_ entry: DiagnosticEntry) throws(TrackerSignalsError) -> Int {
    do {
      return try log.append(entry, unlessPresent: { $0.id == entry.id }) ?? 0
    } catch {
      throw .store(error)
    }
  }

  /// Every entry, oldest first, each identifier once (its first occurrence).
  ///
  /// - Returns: The entries.
  /// - Throws: ``TrackerSignalsError/store(_:)``, including a log that does not decode.
  public func entries() throws(TrackerSignalsError) -> [DiagnosticEntry] {
    try snapshot().entries
  }

  /// The entries and how many were evicted to respect the capacity.
  ///
  /// - Returns: The entries, oldest first and each identifier once, and the eviction count.
  /// - Throws: ``TrackerSignalsError/store(_:)``.
  public func snapshot() throws(TrackerSignalsError) -> (entries: [DiagnosticEntry], evicted: Int) {
    do {
      let contents = try log.snapshot()
      var seen = Set<UUID>()
      return (contents.entries.filter { seen.insert($0.id).inserted }, contents.evictedCount)
    } catch {
      throw .store(error)
    }
  }

  /// The failed entries of one local day, oldest first — a health screen's "today's errors".
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - boundary: Where local days begin.
  /// - Returns: The failures of that day.
  /// - Throws: ``TrackerSignalsError/store(_:)``.
  public func failures(on day: LocalDay, boundary: DayBoundary) throws(TrackerSignalsError)
    -> [DiagnosticEntry]
  {
    DiagnosticEntry.failures(in: try entries(), on: day, boundary: boundary)
  }

  /// The failed entries of the local day that contains `now`.
  ///
  /// - Parameters:
  ///   - now: An instant of the day, usually the current one.
  ///   - boundary: Where local days begin.
  /// - Returns: That day's failures, oldest first.
  /// - Throws: ``TrackerSignalsError/store(_:)``, or
  ///   ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for an instant out of range.
  public func todaysFailures(now: Date, boundary: DayBoundary) throws(TrackerSignalsError)
    -> [DiagnosticEntry]
  {
    let day: LocalDay
    do {
      day = try boundary.day(containing: now)
    } catch {
      // Never `"\(now)"`: Foundation stops the process when it describes a NaN date.
      throw .invalidValue(
        field: "now", value: Milliseconds.describe(now), requirement: error.description)
    }
    return try failures(on: day, boundary: boundary)
  }

  /// Removes every entry.
  ///
  /// - Throws: ``TrackerSignalsError/store(_:)``.
  public func clear() throws(TrackerSignalsError) {
    do {
      try log.clear()
    } catch {
      throw .store(error)
    }
  }
}
