/// The error `body` throws, typed as it throws it, or `nil` when it returns: for a test that
/// checks what an error says, on every toolchain the package supports (the error that
/// `#expect(throws:)` returns needs Swift 6.1).
///
/// - Parameter body: The call to make.
/// - Returns: The error, or `nil`.
package func thrownError<Failure: Error>(_ body: () throws(Failure) -> Void) -> Failure? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
