/// What a store key holds: a value, replaced as a whole, or an append-only log of records.
///
/// A key holds one or the other until it is removed. Reading or updating a log as a value, or
/// appending to a value as a log, throws ``SharedStoreError/kindMismatch(key:holds:)`` and
/// changes nothing.
///
/// JSON form: the raw value, `"value"` or `"log"`.
public enum StoredKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
  /// A value written by ``SharedStore/write(_:for:)`` or ``SharedStore/update(_:_:)``.
  case value
  /// An append-only log written by ``SharedStore/appendToLog(_:capacity:examiningNewest:_:)``.
  case log

  /// "a value" or "an append-only log".
  public var description: String {
    switch self {
    case .value: return "a value"
    case .log: return "an append-only log"
    }
  }
}
