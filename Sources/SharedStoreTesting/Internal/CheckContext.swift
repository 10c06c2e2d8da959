import Foundation
import SharedStore

/// What a check's body works with: fresh stores, and expectations that fail with the check's
/// name, the key, and the expected and actual values.
struct CheckContext: Sendable {
  let check: SharedStoreConformance.Check
  let configuration: SharedStoreConformance.Configuration
  let makeStore: @Sendable () throws -> any SharedStore

  /// A new, empty store from the integrator's `makeStore`.
  func freshStore() throws -> any SharedStore {
    let store: any SharedStore
    do {
      store = try makeStore()
    } catch {
      throw failure(key: nil, step: "makeStore()", expected: "a new store", actual: "\(error)")
    }
    let keys = try store.keys()
    try expect(keys, [], key: nil, "keys() of a store just made")
    return store
  }

  func failure(key: String?, step: String, expected: String, actual: String)
    -> SharedStoreConformanceFailure
  {
    SharedStoreConformanceFailure(
      check: check.name, rule: check.rule, key: key, step: step, expected: expected,
      actual: actual)
  }

  /// The failure for an error the store threw where the rule allows none.
  func unexpected(_ error: any Error) -> SharedStoreConformanceFailure {
    failure(
      key: (error as? SharedStoreError)?.key, step: "an operation the rule allows",
      expected: "no error", actual: "\(error)")
  }

  /// Fails unless `actual == expected`.
  func expect<Value: Equatable>(
    _ actual: Value, _ expected: Value, key: String?, _ step: String
  ) throws(SharedStoreConformanceFailure) {
    guard actual != expected else { return }
    throw failure(key: key, step: step, expected: describe(expected), actual: describe(actual))
  }

  /// Fails unless `condition` holds.
  func expect(
    _ condition: Bool, key: String?, _ step: String, expected: String,
    actual: @autoclosure () -> String
  ) throws(SharedStoreConformanceFailure) {
    guard !condition else { return }
    throw failure(key: key, step: step, expected: expected, actual: actual())
  }

  /// Fails unless `operation` throws exactly `expected`.
  func expect<Value>(
    throws expected: SharedStoreError, key: String?, _ step: String,
    _ operation: () throws -> Value
  ) throws(SharedStoreConformanceFailure) {
    try expect(throwing: key, step, expected: "\(expected)", operation) { $0 == expected }
  }

  /// Fails unless `operation` throws a `SharedStoreError` that `matches` accepts.
  func expect<Value>(
    throwing key: String?, _ step: String, expected: String, _ operation: () throws -> Value,
    matching matches: (SharedStoreError) -> Bool
  ) throws(SharedStoreConformanceFailure) {
    let actual: String
    do {
      let value = try operation()
      actual = value is Void ? "no error" : "no error, and \(describe(value))"
    } catch let error as SharedStoreError {
      if matches(error) { return }
      actual = "\(error)"
    } catch {
      actual = "\(type(of: error)): \(error)"
    }
    throw failure(key: key, step: step, expected: "the error \(expected)", actual: actual)
  }
}

/// A value as a failure shows it: bytes in hex when there are few of them, their count otherwise.
func describe(_ value: Any) -> String {
  if case .some(.optional) = Mirror(reflecting: value).displayStyle {
    guard let wrapped = Mirror(reflecting: value).children.first?.value else { return "nil" }
    return describe(wrapped)
  }
  if let data = value as? Data {
    let hex = data.prefix(16).map { String($0, radix: 16) }.joined(separator: " ")
    return data.count <= 16 ? "\(data.count) bytes [\(hex)]" : "\(data.count) bytes [\(hex) …]"
  }
  if let string = value as? String { return string.debugDescription }
  return "\(value)"
}

extension SharedStoreError {
  /// The key the error names, if it names one.
  var key: String? {
    switch self {
    case .invalidKey(let key, _), .corrupted(let key, _, _),
      .unsupportedFormatVersion(let key, _, _, _), .decoding(let key, _, _),
      .encoding(let key, _, _), .defaultValueFailed(let key, _, _), .notDurable(let key, _, _),
      .tooLarge(let key, _, _, _), .invalidCapacity(let key, _), .kindMismatch(let key, _):
      return key
    case .notARegularFile(let key, _, _), .protectedDataUnavailable(let key, _):
      return key
    case .io:
      return nil
    }
  }
}
