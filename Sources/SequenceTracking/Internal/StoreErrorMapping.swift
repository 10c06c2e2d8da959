import SharedStore

extension SequenceTrackingError {
  /// Runs `body`, which throws only ``SequenceTrackingError`` or `SharedStoreError`, and reports
  /// both as ``SequenceTrackingError``.
  ///
  /// `body` records in its argument what the store update it makes will have changed once its
  /// write is in place. When the store then reports `SharedStoreError/notDurable(key:path:errno:)`
  /// — the write is in place, only the flush after it failed — that record becomes
  /// ``notDurable(committed:key:path:errno:)``.
  ///
  /// `SharedStore/update(_:_:)` is untyped because its body may throw anything; the bodies this
  /// module passes throw only its own errors, so any other error is a broken invariant.
  static func collecting<Result>(
    _ body: (inout CommittedChange?) throws -> Result
  ) throws(SequenceTrackingError) -> Result {
    var committed: CommittedChange?
    do {
      return try body(&committed)
    } catch let error as SequenceTrackingError {
      throw error
    } catch let error as SharedStoreError {
      throw SequenceTrackingError(error, committed: committed)
    } catch {
      preconditionFailure("an update body of SequenceTracking threw a foreign error: \(error)")
    }
  }

  /// The error to report for a store error thrown by an update that would have made `committed`.
  init(_ error: SharedStoreError, committed: CommittedChange?) {
    if case .notDurable(let key, let path, let errno) = error, let committed {
      self = .notDurable(committed: committed, key: key, path: path, errno: errno)
    } else {
      self = .store(error)
    }
  }
}
