/// One rule of ``CategoryRules``: how an app ID is matched, and the category it then gets.
///
/// JSON form: `{"match": "exact" | "prefix" | "pattern", "value": "com.instagram.", "category":
/// "social_media"}`.
public struct CategoryRule: Sendable, Hashable, Codable {
  /// How a rule compares its ``value`` with an app ID.
  public enum Match: String, Sendable, Hashable, Codable, CaseIterable {
    /// The app ID equals the value.
    case exact
    /// The app ID starts with the value (plain text, case-sensitive: `com.google.` matches
    /// `com.google.Maps`).
    case prefix
    /// The app ID matches the value as a glob: `*` stands for any run of characters (also none),
    /// `?` for exactly one; every other character stands for itself. The whole ID must match.
    case pattern
  }

  /// How the value is compared.
  public let match: Match
  /// The text compared with app IDs.
  public let value: String
  /// The category of a matching app.
  public let category: AppCategory

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - match: How the value is compared.
  ///   - value: A non-empty text; for ``Match/pattern``, a glob.
  ///   - category: The category of a matching app.
  /// - Throws: ``UsageModelError/invalidCategoryRule(value:reason:)`` for an empty value.
  public init(_ match: Match, _ value: String, category: AppCategory) throws(UsageModelError) {
    guard !value.isEmpty else {
      throw .invalidCategoryRule(value: value, reason: "the value must not be empty")
    }
    self.match = match
    self.value = value
    self.category = category
  }

  /// A rule matching exactly one app ID.
  ///
  /// - Parameters:
  ///   - app: The app ID.
  ///   - category: Its category.
  /// - Returns: The rule.
  public static func exact(_ app: AppID, _ category: AppCategory) -> CategoryRule {
    CategoryRule(uncheckedMatch: .exact, value: app.rawValue, category: category)
  }

  /// A rule matching every app ID that starts with `prefix`.
  ///
  /// - Parameters:
  ///   - prefix: A non-empty prefix, for example `"com.netflix."`.
  ///   - category: The category of matching apps.
  /// - Returns: The rule.
  /// - Throws: ``UsageModelError/invalidCategoryRule(value:reason:)`` for an empty prefix.
  public static func prefix(_ prefix: String, _ category: AppCategory) throws(UsageModelError)
    -> CategoryRule
  {
    try CategoryRule(.prefix, prefix, category: category)
  }

  /// A rule matching every app ID that matches the glob `pattern` (`*` and `?`).
  ///
  /// - Parameters:
  ///   - pattern: A non-empty glob, for example `"com.*.game*"`.
  ///   - category: The category of matching apps.
  /// - Returns: The rule.
  /// - Throws: ``UsageModelError/invalidCategoryRule(value:reason:)`` for an empty pattern.
  public static func pattern(_ pattern: String, _ category: AppCategory) throws(UsageModelError)
    -> CategoryRule
  {
    try CategoryRule(.pattern, pattern, category: category)
  }

  private init(uncheckedMatch match: Match, value: String, category: AppCategory) {
    self.match = match
    self.value = value
    self.category = category
  }

  /// Whether this rule matches `app`.
  ///
  /// - Parameter app: An app ID.
  /// - Returns: `true` when it matches.
  /// - Complexity: O(*n* × *m*) for a pattern, *n* and *m* the two lengths; O(*m*) otherwise.
  public func matches(_ app: AppID) -> Bool {
    switch match {
    case .exact: return app.rawValue == value
    case .prefix: return app.rawValue.utf8.starts(with: value.utf8)
    case .pattern: return Glob.matches(Array(app.rawValue.utf8), pattern: Array(value.utf8))
    }
  }

  private enum CodingKeys: String, CodingKey {
    case match
    case value
    case category
  }

  /// Decodes `{"match": …, "value": …, "category": …}`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field, an unknown match kind or an empty value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let match = try container.decode(Match.self, forKey: .match)
    let value = try container.decode(String.self, forKey: .value)
    let category = try container.decode(AppCategory.self, forKey: .category)
    do {
      try self.init(match, value, category: category)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .value, in: container, debugDescription: error.description)
    }
  }
}
