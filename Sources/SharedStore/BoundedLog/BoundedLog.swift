import Foundation

/// An append-only log on one key of a ``SharedStore`` that keeps the newest `capacity` entries.
///
/// Each entry is one record of the key's append-only log (see
/// ``SharedStore/appendToLog(_:capacity:examiningNewest:_:)``), so an append writes that entry
/// only — not the entries before it — and several processes can append at once without losing
/// one. When the log is full, the oldest entries are evicted and counted, never dropped silently.
/// An entry that fails to decode throws ``SharedStoreError/decoding(key:type:description:)``: the
/// log is never reset behind your back (quarantine the key to start afresh).
///
/// ```swift
/// let log = try BoundedLog<DiagnosticEntry>(store: store, key: "diagnostics", capacity: 100)
/// try log.append(entry)
/// let recent = try log.entries()
/// ```
///
/// Stored form: an append-only log whose records are the entries' JSON (``StoreCodec/json``),
/// oldest first. Every writer of a key should use the same capacity; an append with another one
/// changes the log's capacity to it, keeping the newest entries.
public struct BoundedLog<Entry: Codable & Sendable>: Sendable {
  /// The store key holding the log.
  public let key: String
  /// The most entries kept; appending beyond it evicts the oldest.
  public let capacity: Int
  private let store: any SharedStore
  /// The store the log is kept in.
  package var backingStore: any SharedStore { store }
  private let codec = StoreCodec<Entry>.json

  /// Creates a log on `key` of `store`; nothing is written until the first append.
  ///
  /// - Parameters:
  ///   - store: The store holding the log.
  ///   - key: A valid store key.
  ///   - capacity: The most entries kept, at least 1.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)`` or
  ///   ``SharedStoreError/invalidCapacity(key:capacity:)``.
  public init(store: any SharedStore, key: String, capacity: Int) throws(SharedStoreError) {
    try StoreKeyRules.validate(key)
    guard capacity >= 1 else { throw .invalidCapacity(key: key, capacity: capacity) }
    self.store = store
    self.key = key
    self.capacity = capacity
  }

  /// Appends one entry, evicting the oldest when the log is full.
  ///
  /// - Parameter entry: The entry to append.
  /// - Returns: How many entries this append evicted (0 or 1, more if the capacity shrank).
  /// - Throws: ``SharedStoreError``; on failure the log is unchanged.
  /// - Complexity: O(1) in the number of entries kept, amortised: the entry is appended to the
  ///   stored log, which is compacted once every *capacity* appends.
  @discardableResult
  public func append(_ entry: Entry) throws(SharedStoreError) -> Int {
    try append(contentsOf: [entry])
  }

  /// Appends entries in order in one atomic step, evicting the oldest beyond the capacity.
  ///
  /// - Parameter newEntries: The entries to append, oldest first.
  /// - Returns: How many entries this append evicted.
  /// - Throws: ``SharedStoreError``; on failure the log is unchanged.
  /// - Complexity: O(*k*) to encode and append the *k* new entries, amortised.
  @discardableResult
  public func append(contentsOf newEntries: some Sequence<Entry>) throws(SharedStoreError) -> Int {
    var records: [Data] = []
    for entry in newEntries { records.append(try codec.encode(entry, key: key)) }
    guard !records.isEmpty else { return 0 }
    return try store.append(records, toLog: key, capacity: capacity)?.evictedCount ?? 0
  }

  /// Appends `entry` unless `isPresent` finds it among the entries kept, in one atomic step.
  ///
  /// - Parameters:
  ///   - entry: The entry to append.
  ///   - isPresent: Whether a kept entry stands for `entry` already.
  /// - Returns: How many entries were evicted, or `nil` when `entry` was present.
  /// - Throws: ``SharedStoreError``, including `decoding` for a kept entry that does not decode.
  /// - Complexity: O(*capacity*): every kept entry is read and decoded.
  package func append(
    _ entry: Entry, unlessPresent isPresent: (Entry) -> Bool
  ) throws(SharedStoreError) -> Int? {
    let record = try codec.encode(entry, key: key)
    let appended = try store.appendToLog(key, capacity: capacity, examiningNewest: .max) {
      log throws(SharedStoreError) -> [Data] in
      for stored in log.records {
        if isPresent(try decode(stored)) { return [] }
      }
      return [record]
    }
    return appended?.evictedCount
  }

  /// Returns every entry, oldest first.
  ///
  /// - Returns: The entries.
  /// - Throws: ``SharedStoreError``.
  /// - Complexity: O(*capacity*).
  public func entries() throws(SharedStoreError) -> [Entry] {
    try snapshot().entries
  }

  /// Returns the entries together with the number evicted so far.
  ///
  /// - Returns: A snapshot of the log.
  /// - Throws: ``SharedStoreError``.
  /// - Complexity: O(*capacity*).
  public func snapshot() throws(SharedStoreError) -> BoundedLogContents<Entry> {
    guard let log = try store.readLog(key) else { return BoundedLogContents() }
    var entries: [Entry] = []
    entries.reserveCapacity(log.records.count)
    for record in log.records { entries.append(try decode(record)) }
    return BoundedLogContents(
      entries: entries, evictedCount: Int(clamping: log.evictedCount))
  }

  /// Removes every entry and resets the eviction count.
  ///
  /// - Throws: ``SharedStoreError``.
  public func clear() throws(SharedStoreError) {
    try store.remove(key)
  }

  /// Removes the entries whose timestamp is before `cutoff`, wherever they are in the log.
  ///
  /// Pruned entries are removed deliberately and do not count as evicted.
  ///
  /// - Parameters:
  ///   - cutoff: Entries strictly before this instant are removed; entries at it are kept.
  ///   - timestamp: The instant of an entry.
  /// - Returns: How many entries were removed.
  /// - Throws: ``SharedStoreError``; on failure the log is unchanged.
  /// - Complexity: O(*capacity*).
  @discardableResult
  public func prune(
    before cutoff: Date,
    timestamp: (Entry) -> Date
  ) throws(SharedStoreError) -> Int {
    try store.compactLog(key) { record throws(SharedStoreError) in
      timestamp(try decode(record)) >= cutoff
    }
  }

  private func decode(_ record: LogRecord) throws(SharedStoreError) -> Entry {
    try codec.decode(record.bytes, key: key)
  }
}

/// What a ``BoundedLog`` holds: its entries and how many were evicted.
public struct BoundedLogContents<Entry: Codable & Sendable>: Codable, Sendable {
  /// The entries, oldest first.
  public var entries: [Entry]
  /// How many entries were evicted to respect the capacity since the log was created or cleared.
  public var evictedCount: Int

  /// Creates contents.
  ///
  /// - Parameters:
  ///   - entries: The entries, oldest first.
  ///   - evictedCount: How many entries were evicted before these.
  public init(entries: [Entry] = [], evictedCount: Int = 0) {
    self.entries = entries
    self.evictedCount = evictedCount
  }
}

extension BoundedLogContents: Equatable where Entry: Equatable {}
extension BoundedLogContents: Hashable where Entry: Hashable {}
