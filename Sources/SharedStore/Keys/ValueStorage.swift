/// How a ``StoreKey`` keeps its value: one value replaced whole on every change, or the newest
/// version of an append-only log.
///
/// The typed API — ``SharedStore/value(for:)``, ``SharedStore/set(_:for:)``,
/// ``SharedStore/update(_:_:)-(StoreKey<Value>,_)`` — reads and changes the value the same way
/// under either; what differs is what a change costs and what the key's file holds.
///
/// ```swift
/// // A cursor changed at every drain: one flushed append per change.
/// let cursor = StoreKey("drain-cursor", default: 0, storage: .versions(keeping: 16))
/// try store.update(cursor) { $0 += 1 }
/// ```
///
/// On a durable ``FileStore``, a change of a ``replaced`` value writes a new file, flushes it,
/// renames it over the old one and flushes the directory: two flushes. A change of a
/// ``versions(keeping:)`` value appends one checksummed frame to the key's log and flushes that
/// file once; once every `keeping` + 1 changes the log is compacted to its newest versions by a
/// rename, which costs the two flushes again. A reader sees the newest complete version: a change cut
/// short by a kill leaves a torn frame, which readers leave out, so they read the version
/// before it — the same atomicity as a rename.
///
/// A key keeps the storage it was first written with: the typed API on a key declared with the
/// other storage throws ``SharedStoreError/kindMismatch(key:holds:)``. Remove the key to change
/// its storage.
public enum ValueStorage: Sendable, Hashable {
  /// One value, replaced whole by every change (``SharedStore/write(_:for:)``). The default.
  case replaced
  /// Every change appended as the value's newest version to an append-only log
  /// (``SharedStore/appendToLog(_:capacity:examiningNewest:_:)``), which keeps the newest
  /// `keeping` versions, at least 1; reads take the newest version.
  ///
  /// A `keeping` below 1 throws ``SharedStoreError/invalidCapacity(key:capacity:)`` at the first
  /// change. Larger values compact less often and leave a larger file: a FileStore's file holds
  /// at most twice `keeping` versions.
  case versions(keeping: Int)
}
