/// A category of apps: one of nine well-known categories, or one of your own.
///
/// The well-known categories' raw values are the backend wire values of the budget app this
/// library grew from (`social_media`, `entertainment`, `gaming`, `productivity`, `shopping`,
/// `news_reading`, `health_fitness`, `education`, `other`). Any other raw value of 1 to 64
/// characters `a`-`z`, `0`-`9` and `_`, starting with a letter, is a custom category; a value
/// received from a newer backend therefore decodes instead of failing.
///
/// ```swift
/// AppCategory.socialMedia.displayName           // "Social Media"
/// let study = try AppCategory("study_time")     // a custom category
/// study.displayName                         // "Study Time"
/// ```
///
/// The type is called ``AppCategory``, not `Category`, because the Objective-C runtime declares a
/// `Category` type on every Apple platform, and an app that imports Foundation could not write the
/// name unqualified.
///
/// JSON form: the bare raw value, for example `"social_media"`.
public struct AppCategory: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
  RawRepresentable
{
  /// Social networks and messaging feeds, `social_media`.
  public static let socialMedia = AppCategory(uncheckedRawValue: "social_media")
  /// Video, music and streaming, `entertainment`.
  public static let entertainment = AppCategory(uncheckedRawValue: "entertainment")
  /// Games, `gaming`.
  public static let gaming = AppCategory(uncheckedRawValue: "gaming")
  /// Work and productivity tools, `productivity`.
  public static let productivity = AppCategory(uncheckedRawValue: "productivity")
  /// Shopping, `shopping`.
  public static let shopping = AppCategory(uncheckedRawValue: "shopping")
  /// News and reading, `news_reading`.
  public static let newsReading = AppCategory(uncheckedRawValue: "news_reading")
  /// Health and fitness, `health_fitness`.
  public static let healthFitness = AppCategory(uncheckedRawValue: "health_fitness")
  /// Education and learning, `education`.
  public static let education = AppCategory(uncheckedRawValue: "education")
  /// Everything not categorised otherwise, `other`.
  public static let other = AppCategory(uncheckedRawValue: "other")

  /// The nine well-known categories, in the order listed above.
  public static let wellKnown: [AppCategory] = [
    .socialMedia, .entertainment, .gaming, .productivity, .shopping, .newsReading,
    .healthFitness, .education, .other,
  ]

  private static let wellKnownDisplayNames: [String: String] = [
    "social_media": "Social Media", "entertainment": "Entertainment", "gaming": "Gaming",
    "productivity": "Productivity", "shopping": "Shopping", "news_reading": "News & Reading",
    "health_fitness": "Health & Fitness", "education": "Education", "other": "Other",
  ]

  /// The most characters a raw value may have.
  public static let maximumLength = 64

  /// The wire value, for example `social_media`.
  public let rawValue: String

  /// Creates a category from its raw value, well-known or custom.
  ///
  /// - Parameter rawValue: 1 to 64 characters `a`-`z`, `0`-`9` and `_`, starting with a letter.
  /// - Throws: ``UsageModelError/invalidCategory(rawValue:reason:)``.
  public init(_ rawValue: String) throws(UsageModelError) {
    if let reason = Self.problem(with: rawValue) {
      throw .invalidCategory(rawValue: rawValue, reason: reason)
    }
    self.rawValue = rawValue
  }

  /// Creates a category, or `nil` when `rawValue` is not valid.
  ///
  /// Prefer ``init(_:)``, which says what is wrong.
  ///
  /// - Parameter rawValue: The wire value.
  public init?(rawValue: String) {
    guard Self.problem(with: rawValue) == nil else { return nil }
    self.rawValue = rawValue
  }

  private init(uncheckedRawValue: String) {
    rawValue = uncheckedRawValue
  }

  private static func problem(with value: String) -> String? {
    let bytes = Array(value.utf8)
    guard let first = bytes.first else { return "a category must not be empty" }
    guard bytes.count <= maximumLength else {
      return "\(bytes.count) characters, more than the limit of \(maximumLength)"
    }
    guard (0x61...0x7A).contains(first) else { return "a category must start with a-z" }
    guard
      bytes.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
    else { return "use only a-z, 0-9 and '_'" }
    return nil
  }

  /// Whether this is one of the nine ``wellKnown`` categories.
  public var isWellKnown: Bool { Self.wellKnownDisplayNames[rawValue] != nil }

  /// A name to show a person: "Social Media", "News & Reading"; for a custom category, its raw
  /// value with each `_`-separated word capitalised ("study_time" → "Study Time").
  public var displayName: String {
    if let name = Self.wellKnownDisplayNames[rawValue] { return name }
    return rawValue.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }
      .joined(separator: " ")
  }

  /// Whether `lhs`'s raw value sorts before `rhs`'s.
  public static func < (lhs: AppCategory, rhs: AppCategory) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The raw value.
  public var description: String { rawValue }

  /// Decodes the bare raw value.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid category.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self($0) }
  }

  /// Encodes the bare raw value.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
