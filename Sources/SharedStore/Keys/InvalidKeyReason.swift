/// Why a string is not a valid store key.
public enum InvalidKeyReason: Sendable, Hashable, CustomStringConvertible {
  /// The key is the empty string.
  case empty
  /// The key is longer than ``StoreKeyRules/maximumLength`` characters.
  case tooLong(length: Int, limit: Int)
  /// The key starts with `.`; names starting with a dot are reserved for the store's own files.
  case leadingDot
  /// The key contains a character outside the safe alphabet, at the given character offset.
  case disallowedCharacter(Unicode.Scalar, offset: Int)

  /// A phrase that completes "Invalid store key ...: ".
  public var description: String {
    switch self {
    case .empty:
      return "a key must not be empty"
    case .tooLong(let length, let limit):
      return "\(length) characters, more than the limit of \(limit)"
    case .leadingDot:
      return "a key must not start with '.'"
    case .disallowedCharacter(let scalar, let offset):
      let shown =
        scalar.properties.isWhitespace || scalar.value < 0x20
        ? "U+\(hex(scalar))" : "'\(scalar)' (U+\(hex(scalar)))"
      return
        "character \(shown) at offset \(offset) is not allowed; "
        + "use letters A-Z and a-z, digits, '.', '_' and '-'"
    }
  }
}

private func hex(_ scalar: Unicode.Scalar) -> String {
  let digits = String(scalar.value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
