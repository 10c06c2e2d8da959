import Foundation

/// A typed key: a name in a ``SharedStore``, the value used when nothing is stored, and a codec.
///
/// Declare keys once, as static constants, and use them from the app and its extensions alike:
///
/// ```swift
/// extension StoreKey where Value == Int {
///   static let launchCount = StoreKey("launch-count", default: 0)
/// }
/// let count = try store.value(for: .launchCount)
/// ```
///
/// A default that is expensive to build, or built from parts that can throw, is given as a
/// closure instead, and built when it is first needed — when a read or an update finds nothing
/// stored:
///
/// ```swift
/// let alerts = StoreKey("budget-alerts") { try BudgetAlertState(thresholds: [50, 80, 100]) }
/// ```
///
/// The name is validated when the key is used (see ``StoreKeyRules``), so declaring a key never
/// throws; using a key with an invalid name throws ``SharedStoreError/invalidKey(key:reason:)``.
public struct StoreKey<Value: Codable & Sendable>: Sendable {
  /// The key's name in the store.
  public let name: String
  /// How values are turned into bytes and back.
  public let codec: StoreCodec<Value>
  /// Whether a change replaces the stored value or appends a new version of it.
  public let storage: ValueStorage
  private let defaultSource: DefaultSource
  /// The version last decoded or stored through this key (and its copies), with its bytes: a
  /// key kept as versions is read and changed often, and the same bytes decode once.
  let lastVersion = LockedValue<(bytes: Data, value: Value)?>(nil)

  /// Creates a typed key whose default value is given now.
  ///
  /// - Parameters:
  ///   - name: The key's name in the store.
  ///   - defaultValue: The value read when nothing is stored.
  ///   - codec: How values are stored; JSON with sorted keys unless you choose otherwise.
  ///   - storage: Whether a change replaces the value or appends a version of it;
  ///     ``ValueStorage/replaced`` unless you choose otherwise.
  public init(
    _ name: String, default defaultValue: Value, codec: StoreCodec<Value> = .json,
    storage: ValueStorage = .replaced
  ) {
    self.name = name
    self.codec = codec
    self.storage = storage
    self.defaultSource = .value(defaultValue)
  }

  /// Creates a typed key whose default value is built by a closure, once, when first needed.
  ///
  /// The closure runs the first time a read or an update finds nothing stored under `name` (or
  /// when ``defaultValue`` is first asked for), never when the key is declared. Its value is kept
  /// and shared by every copy of this key, so it runs at most once *successfully*, however many
  /// threads ask at the same time. When it throws, nothing is kept: the operation that needed the
  /// default throws ``SharedStoreError/defaultValueFailed(key:type:description:)`` — it never
  /// falls back to another value — and the next use runs the closure again.
  ///
  /// ```swift
  /// let alerts = StoreKey("budget-alerts") { try BudgetAlertState(thresholds: [50, 80, 100]) }
  /// ```
  ///
  /// The closure may run inside a store's ``SharedStore/update(_:_:)`` while the store is locked:
  /// it must be quick, must not use any store, and must not ask this key for its default.
  ///
  /// - Parameters:
  ///   - name: The key's name in the store.
  ///   - codec: How values are stored; JSON with sorted keys unless you choose otherwise.
  ///   - storage: Whether a change replaces the value or appends a version of it;
  ///     ``ValueStorage/replaced`` unless you choose otherwise.
  ///   - defaultValue: Builds the value read when nothing is stored.
  public init(
    _ name: String,
    codec: StoreCodec<Value> = .json,
    storage: ValueStorage = .replaced,
    defaultValue: @escaping @Sendable () throws -> Value
  ) {
    self.name = name
    self.codec = codec
    self.storage = storage
    self.defaultSource = .lazy(LazyDefault(defaultValue))
  }

  /// The value read when nothing is stored under ``name``.
  ///
  /// It is only used for a *missing* value: a stored value that fails to decode throws
  /// ``SharedStoreError/decoding(key:type:description:)`` instead. A key declared with
  /// ``init(_:default:codec:storage:)`` never throws here; a key declared with
  /// ``init(_:codec:storage:defaultValue:)`` builds its default on first access and keeps it.
  ///
  /// - Throws: ``SharedStoreError/defaultValueFailed(key:type:description:)`` when the default's
  ///   closure throws; nothing is kept, so the next access runs it again.
  public var defaultValue: Value {
    get throws(SharedStoreError) {
      switch defaultSource {
      case .value(let value):
        return value
      case .lazy(let lazy):
        do {
          return try lazy.value()
        } catch {
          throw .defaultValueFailed(key: name, type: "\(Value.self)", description: "\(error)")
        }
      }
    }
  }
}

// MARK: - Default values

extension StoreKey {
  /// Where a key's default comes from.
  private enum DefaultSource: Sendable {
    /// A value given when the key was declared.
    case value(Value)
    /// A closure run when the default is first needed.
    case lazy(LazyDefault)
  }

  /// A default built on first use and kept once built, shared by every copy of a key.
  private final class LazyDefault: Sendable {
    private let make: @Sendable () throws -> Value
    private let built = LockedValue<Value?>(nil)

    init(_ make: @escaping @Sendable () throws -> Value) {
      self.make = make
    }

    /// Returns the kept value, or builds it under the lock and keeps it if building succeeds.
    func value() throws -> Value {
      try built.withLock { built throws -> Value in
        if let built { return built }
        let value = try make()
        built = value
        return value
      }
    }
  }
}
