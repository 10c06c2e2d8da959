/// A rule of the ``/SharedStore`` contract that a store broke: the check, the key, what was
/// expected and what the store did.
///
/// Its ``description`` is a sentence meant for a test report:
///
/// ```
/// SharedStore conformance check 'update-is-atomic-across-threads' failed on key "counter":
/// 8 threads incrementing 50 times each: expected the values 1...400, each handed out once;
/// got 51 distinct values among 400, the largest 51: 349 increments were lost. Rule: No other
/// update or write of the key runs between update's read and its write: …
/// ```
public struct SharedStoreConformanceFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The name of the check that failed, as in ``SharedStoreConformance/Check/name``.
  public let check: String

  /// The rule the check proves.
  public let rule: String

  /// The key the failing operation used, or `nil` when it used none.
  public let key: String?

  /// What the check was doing when the store broke the rule.
  public let step: String

  /// What the rule requires.
  public let expected: String

  /// What the store did instead: a value, or an error it threw.
  public let actual: String

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - check: The name of the check that failed.
  ///   - rule: The rule the check proves.
  ///   - key: The key the failing operation used, if any.
  ///   - step: What the check was doing.
  ///   - expected: What the rule requires.
  ///   - actual: What the store did.
  public init(
    check: String, rule: String, key: String?, step: String, expected: String, actual: String
  ) {
    self.check = check
    self.rule = rule
    self.key = key
    self.step = step
    self.expected = expected
    self.actual = actual
  }

  /// The failure as a sentence: check, key, step, expected and actual, then the rule.
  public var description: String {
    let onKey = key.map { " on key \($0.debugDescription)" } ?? ""
    return
      "SharedStore conformance check '\(check)' failed\(onKey): \(step): expected \(expected); "
      + "got \(actual). Rule: \(rule)"
  }
}
