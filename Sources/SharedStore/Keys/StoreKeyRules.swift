/// The rules every store key follows, whatever the backend.
///
/// A key is 1 to ``maximumLength`` characters from the safe alphabet — ASCII letters, digits,
/// `.`, `_` and `-` — and does not start with `.`. Keys are case-sensitive: `Count` and `count`
/// are different keys in every backend, including ``FileStore`` on a case-insensitive volume.
/// These rules make every key a plain file name: `../x`, `/etc/passwd`, `a/b`, the empty string
/// and strings with NUL are all rejected before any file is touched.
public enum StoreKeyRules {
  /// The longest key accepted, in characters.
  public static let maximumLength = 100

  /// Checks `key` against the rules.
  ///
  /// - Parameter key: The candidate key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)`` naming the first rule it breaks.
  /// - Complexity: O(*n*) in the length of the key.
  public static func validate(_ key: String) throws(SharedStoreError) {
    if let reason = violation(in: key) {
      throw .invalidKey(key: key, reason: reason)
    }
  }

  /// Returns the first rule `key` breaks, or `nil` when it is valid.
  ///
  /// - Parameter key: The candidate key.
  /// - Returns: The reason the key is invalid, or `nil`.
  /// - Complexity: O(*n*) in the length of the key.
  public static func violation(in key: String) -> InvalidKeyReason? {
    // Every store operation checks its key: a valid key is checked on its UTF-8 bytes, where
    // each allowed character is one byte, and only a key that breaks a rule is walked again by
    // scalars to name the rule.
    if isValid(key) { return nil }
    let scalars = key.unicodeScalars
    guard let first = scalars.first else { return .empty }
    if first == "." { return .leadingDot }
    for (offset, scalar) in scalars.enumerated() where !isAllowed(scalar) {
      return .disallowedCharacter(scalar, offset: offset)
    }
    // Every scalar is now ASCII, so the scalar count is the character count.
    if scalars.count > maximumLength {
      return .tooLong(length: scalars.count, limit: maximumLength)
    }
    return nil
  }

  /// Whether `key` is valid: 1 to ``maximumLength`` allowed ASCII bytes, not starting with `.`.
  ///
  /// Read through a buffer of the key's UTF-8 bytes: walking the `UTF8View` of a key of 20
  /// bytes cost several hundred instructions, at every store operation.
  private static func isValid(_ key: String) -> Bool {
    var key = key
    return key.withUTF8 { bytes in
      guard let first = bytes.first, first != UInt8(ascii: "."), bytes.count <= maximumLength
      else { return false }
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "-"):
          continue
        default: return false
        }
      }
      return true
    }
  }

  static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
    default: return false
    }
  }
}
