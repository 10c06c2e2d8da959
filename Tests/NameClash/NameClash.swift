// A module whose public types share their names with SharedStore's, as an app's own module or
// Apple's System framework (which has an `Errno`) may. SharedStoreTests imports it beside
// SharedStore to prove that integrators can still name SharedStore's types, although the module
// and its protocol are both called `SharedStore`.

/// A file store that is not SharedStore's.
public struct FileStore: Sendable {
  /// Creates one.
  public init() {}
}

/// A store key that is not SharedStore's.
public struct StoreKey: Sendable {
  /// The key's name.
  public var name: String

  /// Creates one.
  ///
  /// - Parameter name: The key's name.
  public init(_ name: String) {
    self.name = name
  }
}

/// An error number that is not SharedStore's, like the System framework's.
public struct Errno: Sendable, Equatable {
  /// The number.
  public var rawValue: Int32

  /// Creates one.
  ///
  /// - Parameter rawValue: The number.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }
}
