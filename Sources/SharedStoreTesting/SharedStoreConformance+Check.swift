import SharedStore

extension SharedStoreConformance {
  /// One rule of the ``/SharedStore`` contract, and the code that shows a store keeps it.
  ///
  /// Checks are compared by ``name``, which stays the same from release to release; a new rule
  /// comes as a new check.
  public struct Check: Sendable, Hashable, CustomStringConvertible {
    /// A short, stable identifier such as `update-is-atomic-across-threads`.
    public let name: String

    /// The rule the check proves, as a sentence.
    public let rule: String

    let body: @Sendable (CheckContext) throws -> Void

    init(_ name: String, _ rule: String, _ body: @escaping @Sendable (CheckContext) throws -> Void)
    {
      self.name = name
      self.rule = rule
      self.body = body
    }

    /// The check's name, which is what a test report shows for it.
    public var description: String { name }

    /// Returns whether two checks have the same name.
    ///
    /// - Parameters:
    ///   - lhs: A check.
    ///   - rhs: Another check.
    /// - Returns: Whether they are the same check.
    public static func == (lhs: Check, rhs: Check) -> Bool { lhs.name == rhs.name }

    /// Hashes the check's name.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every check, grouped as the protocol is: values, keys, typed keys, updates, change tokens,
    /// quarantine, then append-only logs.
    public static var all: [Check] {
      valueChecks + keyChecks + typedKeyChecks + updateChecks + changeTokenChecks
        + quarantineChecks + appendLogChecks
    }
  }
}
