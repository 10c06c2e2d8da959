import Foundation

/// An append-only log on one key of a ``SharedStore`` that keeps the newest `capacity` entries.
///
/// Appends are atomic read-modify-writes (``SharedStore/update(_:_:)``), so several processes
/// can append at once without losing an entry to a race; when the log is full, the oldest
/// entries are evicted and counted, never dropped silently. A stored log that fails to decode
/// throws ``SharedStoreError/decoding(key:type:description:)``: the log is never reset behind
/// your back (quarantine the key to start afresh).
///
/// ```swift
/// let log = try BoundedLog<DiagnosticEntry>(store: store, key: "diagnostics", capacity: 100)
/// try log.append(entry)
/// let recent = try log.entries()
/// ```
///
/// JSON form of the stored value: `{"entries": [...], "evictedCount": 12}`, entries oldest
/// first, each in its own `Codable` form (see ``StoreCodec/json`` for dates).
public struct BoundedLog<Entry: Codable & Sendable>: Sendable {
  /// The store key holding the log.
  public let key: String
  /// The most entries kept; appending beyond it evicts the oldest.
  public let capacity: Int
  private let store: any SharedStore
  private let storeKey: StoreKey<BoundedLogContents<Entry>>

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
    self.storeKey = StoreKey(key, default: BoundedLogContents())
  }

  /// Appends one entry, evicting the oldest when the log is full.
  ///
  /// - Parameter entry: The entry to append.
  /// - Returns: How many entries this append evicted (0 or 1, more if the capacity shrank).
  /// - Throws: ``SharedStoreError``; on failure the log is unchanged.
  @discardableResult
  public func append(_ entry: Entry) throws(SharedStoreError) -> Int {
    try append(contentsOf: [entry])
  }

  /// Appends entries in order in one atomic step, evicting the oldest beyond the capacity.
  ///
  /// - Parameter newEntries: The entries to append, oldest first.
  /// - Returns: How many entries this append evicted.
  /// - Throws: ``SharedStoreError``; on failure the log is unchanged.
  /// - Complexity: O(*capacity* + *k*) to decode, change and re-encode the log.
  @discardableResult
  public func append(contentsOf newEntries: some Sequence<Entry>) throws(SharedStoreError) -> Int {
    let newEntries = Array(newEntries)
    guard !newEntries.isEmpty else { return 0 }
    return try modify { contents in
      contents.entries.append(contentsOf: newEntries)
      let excess = max(0, contents.entries.count - capacity)
      contents.entries.removeFirst(excess)
      contents.evictedCount += excess
      return excess
    }
  }

  /// Returns every entry, oldest first.
  ///
  /// - Returns: The entries.
  /// - Throws: ``SharedStoreError``.
  public func entries() throws(SharedStoreError) -> [Entry] {
    try store.value(for: storeKey).entries
  }

  /// Returns the entries together with the number evicted so far.
  ///
  /// - Returns: A snapshot of the log.
  /// - Throws: ``SharedStoreError``.
  public func snapshot() throws(SharedStoreError) -> BoundedLogContents<Entry> {
    try store.value(for: storeKey)
  }

  /// Removes every entry and resets the eviction count.
  ///
  /// - Throws: ``SharedStoreError``.
  public func clear() throws(SharedStoreError) {
    try store.removeValue(for: storeKey)
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
    try modify { contents in
      let before = contents.entries.count
      contents.entries.removeAll { timestamp($0) < cutoff }
      return before - contents.entries.count
    }
  }

  private func modify<Result>(
    _ change: (inout BoundedLogContents<Entry>) -> Result
  ) throws(SharedStoreError) -> Result {
    try store.update(storeKey, change)
  }
}

/// The stored form of a ``BoundedLog``: its entries and how many were evicted.
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
