/// An opaque identifier of an app: a bundle ID, or a token string an integrator maps apps to.
///
/// ScreenTimeKit never interprets an app ID beyond comparing it; ``CategoryRules`` match on it.
/// An app ID is 1 to 255 characters of printable ASCII without spaces (`!` through `~`), which
/// admits bundle IDs (`com.instagram.instagram`), UUIDs, hexadecimal and base64 tokens.
/// Comparison is exact and case-sensitive.
///
/// ```swift
/// let instagram = try AppID("com.instagram.instagram")
/// ```
///
/// JSON form: the bare string, for example `"com.instagram.instagram"`.
public struct AppID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
  RawRepresentable
{
  /// The most characters an app ID may have.
  public static let maximumLength = 255

  /// The identifier's text.
  public let rawValue: String

  /// Creates an app ID, validating its text.
  ///
  /// - Parameter value: 1 to 255 characters of printable ASCII without spaces.
  /// - Throws: ``UsageModelError/invalidAppID(value:reason:)``.
  public init(_ value: String) throws(UsageModelError) {
    if let reason = Self.problem(with: value) { throw .invalidAppID(value: value, reason: reason) }
    rawValue = value
  }

  /// Creates an app ID, or `nil` when `rawValue` is not valid.
  ///
  /// Prefer ``init(_:)``, which says what is wrong.
  ///
  /// - Parameter rawValue: The identifier's text.
  public init?(rawValue: String) {
    guard Self.problem(with: rawValue) == nil else { return nil }
    self.rawValue = rawValue
  }

  static func problem(with value: String) -> String? {
    let bytes = value.utf8
    guard !bytes.isEmpty else { return "an app ID must not be empty" }
    guard bytes.count <= maximumLength else {
      return "\(bytes.count) characters, more than the limit of \(maximumLength)"
    }
    if let index = bytes.firstIndex(where: { !(0x21...0x7E).contains($0) }) {
      let offset = bytes.distance(from: bytes.startIndex, to: index)
      return
        "the character at offset \(offset) is not printable ASCII (spaces and control "
        + "characters are not allowed either)"
    }
    return nil
  }

  /// Whether `lhs` sorts before `rhs` (by the UTF-8 bytes of their text).
  public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The identifier's text.
  public var description: String { rawValue }

  /// Decodes the bare string form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid app ID.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self($0) }
  }

  /// Encodes the bare string form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
