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
  /// The exact and prefix rules by value, so that a million of them cost a lookup, not a scan.
  private let index: RuleIndex

  /// Creates rules; an empty list sends every app to ``AppCategory/other``.
  ///
  /// - Parameter rules: The rules, in the order that breaks ties.
  /// - Complexity: O(*r*) for *r* rules.
  public init(_ rules: [CategoryRule] = []) {
    self.rules = rules
    index = RuleIndex(rules)
  }

  /// The rule that decides `app`'s category, or `nil` when no rule matches.
  ///
  /// - Parameter app: An app ID.
  /// - Returns: The deciding rule.
  /// - Complexity: O(*n*²) for an ID of length *n* (at most 255) whatever the number of exact
  ///   and prefix rules, plus one glob match per ``CategoryRule/Match/pattern`` rule tried in
  ///   order: patterns are the rules to keep few.
  public func rule(for app: AppID) -> CategoryRule? {
    if let position = index.exact[app.rawValue] { return rules[position] }
    let bytes = Array(app.rawValue.utf8)
    for length in index.prefixLengths where length <= bytes.count {
      // App IDs are printable ASCII, so every prefix of one is a whole string.
      let prefix = String(decoding: bytes[..<length], as: UTF8.self)
      if let position = index.prefixes[prefix] { return rules[position] }
    }
    for position in index.patterns where rules[position].matches(app) { return rules[position] }
    return nil
  }

  /// Rules compare by their list; the index follows from it.
  ///
  /// - Parameters:
  ///   - lhs: Some rules.
  ///   - rhs: Other rules.
  /// - Returns: Whether the lists are equal.
  public static func == (lhs: CategoryRules, rhs: CategoryRules) -> Bool {
    lhs.rules == rhs.rules
  }

  /// Hashes the list of rules.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rules)
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
    self.init(try [CategoryRule](from: decoder))
  }

  /// Encodes the bare array of rules.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    try rules.encode(to: encoder)
  }
}

/// Where each exact and prefix value first appears among the rules, and the patterns in order.
private struct RuleIndex: Sendable {
  var exact: [String: Int] = [:]
  var prefixes: [String: Int] = [:]
  /// The lengths in bytes of the prefix values, longest first, each once.
  var prefixLengths: [Int] = []
  var patterns: [Int] = []

  init(_ rules: [CategoryRule]) {
    var lengths: Set<Int> = []
    for (position, rule) in rules.enumerated() {
      switch rule.match {
      case .exact:
        if exact[rule.value] == nil { exact[rule.value] = position }
      case .prefix:
        if prefixes[rule.value] == nil { prefixes[rule.value] = position }
        lengths.insert(rule.value.utf8.count)
      case .pattern:
        patterns.append(position)
      }
    }
    prefixLengths = lengths.sorted(by: >)
  }
}
