extension FileStore {
  /// How much a write flushes before it returns.
  ///
  /// Both modes replace files by an atomic rename, so a reader never sees a torn value and a
  /// killed process never leaves one behind. They differ in what survives a power cut or a
  /// kernel panic. <doc:/ScreenTimeKit/Performance> has measured costs.
  public enum Durability: String, Sendable, Hashable, Codable, CaseIterable {
    /// Flush the new file before the rename and the directory after it (`fsync`; `F_FULLFSYNC`
    /// on Darwin, falling back to `fsync` where the file system lacks it). A write that returned
    /// survives a power cut. The default.
    case durable
    /// Skip both flushes. A write that returned survives the writing process being killed.
    ///
    /// A power cut or kernel panic may lose recent writes, and what survives is up to the file
    /// system: the key may read back an older value (so a counter or an outbox could hand out a
    /// number again), or the rename may reach the disk before the data, in which case the key
    /// reads as ``SharedStoreError/corrupted(key:path:reason:)`` until it is quarantined — it is
    /// reported, never read as garbage. Right for data that is rewritten every few seconds, such
    /// as heartbeats; keep counters, outboxes and ledgers on a ``durable`` store.
    case processCrashSafe
  }
}
