/// The mapping between store keys and file names, safe on case-insensitive volumes.
///
/// Keys are case-sensitive but macOS volumes usually are not, so `Count` and `count` would share
/// one file. Each uppercase letter is therefore written as `^` followed by the lowercase letter:
/// `launchCount` is stored in the file `launch^count`. `^` is outside the key alphabet, so the
/// mapping is one-to-one and every file name it produces is unique under case folding. Names that
/// start with `.` belong to the store itself (lock, temporary and quarantined files) and are never
/// keys.
enum FileName {
  /// The lock file, created once and never renamed or removed.
  static let lock = ".lock"
  /// The prefix of temporary files written before they are renamed into place.
  static let temporaryPrefix = ".tmp."
  /// The prefix of files moved aside by quarantine.
  static let quarantinePrefix = ".quarantined."

  /// The file name for a valid key.
  ///
  /// - Complexity: O(*n*) in the key's length; a key without an uppercase letter is its own
  ///   name, returned without a copy (a read inside a hold looks a name up before each publish).
  static func forKey(_ key: String) -> String {
    guard key.utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return key }
    var name = ""
    name.unicodeScalars.reserveCapacity(key.unicodeScalars.count)
    for scalar in key.unicodeScalars {
      if case "A"..."Z" = scalar {
        name.unicodeScalars.append("^")
        name.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value + 32)))
      } else {
        name.unicodeScalars.append(scalar)
      }
    }
    return name
  }

  /// The key stored in the file `name`, or `nil` when the file is not a value file of the store.
  static func key(forFileName name: String) -> String? {
    var key = ""
    var escaped = false
    for scalar in name.unicodeScalars {
      if escaped {
        guard case "a"..."z" = scalar else { return nil }
        key.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value - 32)))
        escaped = false
      } else if scalar == "^" {
        escaped = true
      } else if case "A"..."Z" = scalar {
        return nil
      } else {
        key.unicodeScalars.append(scalar)
      }
    }
    guard !escaped, StoreKeyRules.violation(in: key) == nil else { return nil }
    return key
  }
}
