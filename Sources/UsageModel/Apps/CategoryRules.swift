/// Maps app IDs to categories with a deterministic precedence.
///
/// For an app ID, the rules are consulted in this order, and the first step that finds a match
/// decides:
/// 1. an ``CategoryRule/Match/exact`` rule equal to the ID;
/// 2. the ``CategoryRule/Match/prefix`` rule with the **longest** prefix of the ID;
/// 3. a ``CategoryRule/Match/pattern`` rule whose glob matches the ID.
///
/// Ties within a step (two exact rules for one ID, two prefixes of equal length, two matching
/// patterns) go to the rule that comes first in ``rules``. An app no rule matches is
/// ``AppCategory/other``; ``uncategorizedApps(in:)`` lists such apps so that an app can ask the
/// person to categorise them.
///
/// ```swift
/// let rules = try CategoryRules([
///   .exact(AppID("com.google.ios.youtube"), .entertainment),
///   .prefix("com.google.", .productivity),
///   .pattern("*.game*", .gaming),
/// ])
/// rules.category(for: try AppID("com.google.ios.youtube"))   // .entertainment (exact wins)
/// rules.category(for: try AppID("com.google.Maps"))          // .productivity
/// ```
///
/// JSON form: the array of rules, in order.
public struct CategoryRules: Sendable, Hashable, Codable {
  /// The rules, in the order that breaks ties.
  public let rules: [CategoryRule]

  /// Creates rules; an empty list sends every app to ``AppCategory/other``.
  ///
  /// - Parameter rules: The rules, in the order that breaks ties.
  public init(_ rules: [CategoryRule] = []) {
    self.rules = rules
  }

  /// The rule that decides `app`'s category, or `nil` when no rule matches.
  ///
  /// - Parameter app: An app ID.
  /// - Returns: The deciding rule.
  /// - Complexity: O(*r* × *n*) for *r* rules and IDs of length *n* (patterns may cost more).
  public func rule(for app: AppID) -> CategoryRule? {
    var longestPrefix: CategoryRule?
    var firstPattern: CategoryRule?
    for rule in rules {
      switch rule.match {
      case .exact:
        if rule.matches(app) { return rule }
      case .prefix:
        if rule.value.utf8.count > (longestPrefix?.value.utf8.count ?? 0), rule.matches(app) {
          longestPrefix = rule
        }
      case .pattern:
        if firstPattern == nil, rule.matches(app) { firstPattern = rule }
      }
    }
    return longestPrefix ?? firstPattern
  }

  /// The category of `app`: the deciding rule's category, or ``AppCategory/other``.
  ///
  /// - Parameter app: An app ID.
  /// - Returns: Its category.
  /// - Complexity: That of ``rule(for:)``.
  public func category(for app: AppID) -> AppCategory {
    rule(for: app)?.category ?? .other
  }

  /// The apps of `apps` that no rule matches, sorted and without duplicates.
  ///
  /// An app that a rule sends to ``AppCategory/other`` on purpose is categorised and not listed.
  ///
  /// - Parameter apps: App IDs, in any order, possibly repeated.
  /// - Returns: The uncategorised apps.
  /// - Complexity: O(*a* log *a*) plus one ``rule(for:)`` per distinct app.
  public func uncategorizedApps(in apps: some Sequence<AppID>) -> [AppID] {
    Set(apps).filter { rule(for: $0) == nil }.sorted()
  }

  /// Decodes the bare array of rules.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a rule does not decode.
  public init(from decoder: any Decoder) throws {
    rules = try [CategoryRule](from: decoder)
  }

  /// Encodes the bare array of rules.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    try rules.encode(to: encoder)
  }
}
