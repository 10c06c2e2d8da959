import SharedStore

extension SequenceTrackingError {
  /// Runs `body`, which throws only ``SequenceTrackingError`` or `SharedStoreError`, and reports
  /// both as ``SequenceTrackingError``.
  ///
  /// `SharedStore/update(_:_:)` is untyped because its body may throw anything; the bodies this
  /// module passes throw only its own errors, so any other error is a broken invariant.
  static func collecting<Result>(
    _ body: () throws -> Result
  ) throws(SequenceTrackingError) -> Result {
    do {
      return try body()
    } catch let error as SequenceTrackingError {
      throw error
    } catch let error as SharedStoreError {
      throw .store(error)
    } catch {
      preconditionFailure("an update body of SequenceTracking threw a foreign error: \(error)")
    }
  }
}
