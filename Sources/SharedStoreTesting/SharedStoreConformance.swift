import SharedStore

/// The contract of the ``/SharedStore`` protocol, as checks that run against a store of yours.
///
/// A backend of your own — an App Group `UserDefaults` suite, a SQLite database — proves that it
/// keeps the contract the library's modules rely on by passing the same checks as
/// ``/SharedStore/InMemoryStore`` and ``/SharedStore/FileStore``. Each check gets a fresh, empty
/// store from `makeStore`, uses it and lets it go:
///
/// ```swift
/// let conformance = SharedStoreConformance { try MyDefaultsStore(suite: UUID().uuidString) }
/// try conformance.run()  // throws the first failure: its check, key, expected and actual
/// ```
///
/// In a test target, run each check as a test case of its own so that a failure names it:
///
/// ```swift
/// @Test(arguments: SharedStoreConformance.Check.all)
/// func conforms(check: SharedStoreConformance.Check) throws {
///   try SharedStoreConformance { try MyDefaultsStore(suite: UUID().uuidString) }.run(check)
/// }
/// ```
///
/// The checks use keys of their own, through the public API only, and never read the store's
/// storage behind its back; they take a few seconds in all, most of it in the concurrent checks.
/// This module imports neither XCTest nor Testing, so an app or a command-line tool can link it
/// too.
public struct SharedStoreConformance: Sendable {
  /// What a backend supports, and how hard the concurrent checks push it.
  public struct Configuration: Sendable, Hashable {
    /// Whether a key holding a log refuses value operations and the other way round, with
    /// `SharedStoreError.kindMismatch(key:holds:)`.
    ///
    /// `true` for a backend that implements the append-only log requirements itself. A backend
    /// that takes the protocol's default implementations keeps each log in its key's value, and
    /// cannot tell the two apart: set it to `false`, and the check of that rule passes trivially.
    public var logsAreSeparateFromValues: Bool

    /// How many threads the concurrent checks start at once, at least 2.
    public var concurrentThreads: Int

    /// How many updates or appends each thread of a concurrent check makes, at least 1.
    public var operationsPerThread: Int

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - logsAreSeparateFromValues: Whether the backend implements append-only logs itself and
    ///     so refuses to mix them with values.
    ///   - concurrentThreads: The threads of each concurrent check; values below 2 count as 2.
    ///   - operationsPerThread: The operations of each thread; values below 1 count as 1.
    public init(
      logsAreSeparateFromValues: Bool = true,
      concurrentThreads: Int = 8,
      operationsPerThread: Int = 50
    ) {
      self.logsAreSeparateFromValues = logsAreSeparateFromValues
      self.concurrentThreads = max(2, concurrentThreads)
      self.operationsPerThread = max(1, operationsPerThread)
    }
  }

  /// What the backend supports, and how hard the concurrent checks push it.
  public let configuration: Configuration

  private let makeStore: @Sendable () throws -> any SharedStore

  /// Creates the checks of a backend.
  ///
  /// - Parameters:
  ///   - configuration: What the backend supports; the defaults suit a backend that implements
  ///     every requirement of the protocol.
  ///   - makeStore: Returns a new, empty store each time it is called. The checks keep no
  ///     reference to a store after they finish, so a store that owns a temporary folder or
  ///     database can remove it when it is released.
  public init(
    configuration: Configuration = Configuration(),
    makeStore: @escaping @Sendable () throws -> any SharedStore
  ) {
    self.configuration = configuration
    self.makeStore = makeStore
  }

  /// Runs every check in ``Check/all``, in order, and stops at the first failure.
  ///
  /// - Throws: The first ``SharedStoreConformanceFailure``: which check, which key, what was
  ///   expected and what the store did.
  /// - Complexity: A few thousand store operations, and a few seconds for a file-backed store.
  public func run() throws(SharedStoreConformanceFailure) {
    for check in Check.all { try run(check) }
  }

  /// Runs one check on a fresh store.
  ///
  /// - Parameter check: The check to run, one of ``Check/all``.
  /// - Throws: ``SharedStoreConformanceFailure`` when the store breaks the check's rule, throws
  ///   where the rule says it must not, or when `makeStore` throws.
  public func run(_ check: Check) throws(SharedStoreConformanceFailure) {
    let context = CheckContext(check: check, configuration: configuration, makeStore: makeStore)
    do {
      try check.body(context)
    } catch let failure as SharedStoreConformanceFailure {
      throw failure
    } catch {
      throw context.unexpected(error)
    }
  }

  /// Runs every check in ``Check/all`` and returns the failures, one at most per check.
  ///
  /// - Returns: The failures in the order of ``Check/all``; empty when the store conforms.
  /// - Complexity: The same as ``run()`` when every check passes.
  public func failures() -> [SharedStoreConformanceFailure] {
    var failures: [SharedStoreConformanceFailure] = []
    for check in Check.all {
      do throws(SharedStoreConformanceFailure) {
        try run(check)
      } catch {
        failures.append(error)
      }
    }
    return failures
  }
}
