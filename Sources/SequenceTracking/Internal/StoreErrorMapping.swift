import SharedStore

extension SequenceTrackingError {
  /// What an update body returned, or the error it threw.
  typealias Outcome<Success> = Swift.Result<Success, SequenceTrackingError>

  /// Runs `update`, a store update whose body's own error comes back as a value, and reports the
  /// store's error and the body's as ``SequenceTrackingError``.
  ///
  /// `update` records in its argument what the store update it makes will have changed once its
  /// write is in place. When the store then reports `SharedStoreError/notDurable(key:path:errno:)`
  /// — the write is in place, only the flush after it failed — that record becomes
  /// ``notDurable(committed:key:path:errno:)``.
  static func collecting<Result>(
    _ update: (inout CommittedChange?) throws(SharedStoreError) -> Outcome<Result>
  ) throws(SequenceTrackingError) -> Result {
    var committed: CommittedChange?
    let outcome: Outcome<Result>
    do {
      outcome = try update(&committed)
    } catch {
      throw SequenceTrackingError(error, committed: committed)
    }
    return try outcome.get()
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
