import Foundation
import SharedStore

/// Several reads and writes of the shared folder in one hold of its lock: what another process
/// writes comes before them all or after them all.
enum FolderHold {
  /// Runs `body` in one hold of the lock of `store` when it is a `FileStore` — the lock every
  /// process takes for each change to the folder, the extension's callbacks included — and
  /// simply runs it otherwise: a store in memory has no other process, and a store of your own,
  /// even one that forwards to a `FileStore`, gets no hold (each of its changes is still
  /// exclusive on its own).
  ///
  /// Every write in `body` must go through `store` or a sibling of it
  /// (`FileStore.withDurability(_:)`); a write through another `FileStore` opened on the same
  /// directory would wait for this hold forever. Another process's change waits for the whole of
  /// `body`: keep it to reads and writes.
  ///
  /// - Throws: What `body` throws; ``PipelineError/store(_:)`` when the lock cannot be taken
  ///   (`body` does not run then).
  static func holding<Result>(
    _ store: any SharedStore, _ body: () throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    guard let lock = store as? FileStore else { return try body() }
    do {
      return try lock.exclusively(body)
    } catch let error as PipelineError {
      throw error
    } catch {
      // `exclusively` throws the body's `PipelineError` or the lock's `SharedStoreError`.
      throw .store(
        error as? SharedStoreError
          ?? .io(operation: "flock: \(error)", path: lock.directory.path, errno: .ioError))
    }
  }
}
