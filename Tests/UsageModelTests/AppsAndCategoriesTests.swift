import Foundation
import Testing
import UsageModel

@Suite("App IDs, categories and categorisation rules")
struct AppsAndCategoriesTests {
  @Test(
    "an app ID must be 1-255 characters of printable ASCII without spaces",
    arguments: [
      "", "com.example app", "com.example\u{0}", "com.ëxample", String(repeating: "a", count: 256),
    ])
  func invalidAppIDs(value: String) {
    #expect(throws: UsageModelError.self) { try AppID(value) }
    #expect(AppID(rawValue: value) == nil)
  }

  @Test("bundle IDs, UUIDs and base64 tokens are valid app IDs and encode as bare strings")
  func validAppIDs() throws {
    for value in [
      "com.instagram.instagram", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "aGVsbG8+/w==",
    ] {
      #expect(try json(AppID(value)) == "\"\(value)\"".replacingOccurrences(of: "\\/", with: "/"))
      #expect(try decode(AppID.self, "\"\(value)\"").rawValue == value)
    }
  }

  @Test("the nine well-known categories use the backend's wire values and display names")
  func wellKnownCategories() throws {
    #expect(
      AppCategory.wellKnown.map(\.rawValue) == [
        "social_media", "entertainment", "gaming", "productivity", "shopping", "news_reading",
        "health_fitness", "education", "other",
      ])
    #expect(
      AppCategory.wellKnown.map(\.displayName) == [
        "Social Media", "Entertainment", "Gaming", "Productivity", "Shopping", "News & Reading",
        "Health & Fitness", "Education", "Other",
      ])
    #expect(
      try json([AppCategory.socialMedia, .newsReading]) == #"["social_media","news_reading"]"#)
    #expect(try decode(AppCategory.self, #""health_fitness""#) == .healthFitness)
  }

  @Test("custom categories decode, keep their raw value and get a display name")
  func customCategories() throws {
    let study = try decode(AppCategory.self, #""study_time""#)
    #expect(!study.isWellKnown)
    #expect(study.displayName == "Study Time")
    #expect(throws: UsageModelError.self) { try AppCategory("Social Media") }
    #expect(throws: DecodingError.self) { try decode(AppCategory.self, #""""#) }
  }

  @Test("exact beats the longest prefix, which beats a pattern; ties go to the earlier rule")
  func precedence() throws {
    let rules = CategoryRules([
      try .pattern("com.google.*", .other),
      try .prefix("com.google.", .productivity),
      try .prefix("com.google.ios.", .education),
      try .prefix("com.google.ios.", .shopping),
      .exact(try app("com.google.ios.youtube"), .entertainment),
      .exact(try app("com.google.ios.youtube"), .gaming),
      try .pattern("*.game?", .gaming),
      try .pattern("*.games", .newsReading),
    ])
    #expect(rules.category(for: try app("com.google.ios.youtube")) == .entertainment)
    #expect(rules.category(for: try app("com.google.ios.maps")) == .education)
    #expect(rules.category(for: try app("com.google.Drive")) == .productivity)
    #expect(rules.category(for: try app("com.supercell.games")) == .gaming)
    #expect(rules.category(for: try app("com.supercell.game")) == .other)
    #expect(rules.rule(for: try app("com.supercell.game")) == nil)
  }

  @Test("unmatched apps are other and are listed as uncategorised, once and sorted")
  func uncategorised() throws {
    let rules = CategoryRules([
      .exact(try app("com.instagram.instagram"), .socialMedia),
      try .prefix("com.apple.", .other),
    ])
    let apps = try [
      "com.zeta", "com.instagram.instagram", "com.alpha", "com.apple.mobilesafari", "com.zeta",
    ]
    .map(app)
    #expect(rules.category(for: try app("com.alpha")) == .other)
    #expect(rules.uncategorizedApps(in: apps).map(\.rawValue) == ["com.alpha", "com.zeta"])
  }

  @Test("rules round-trip through their documented JSON form")
  func rulesJSON() throws {
    let text = #"[{"category":"gaming","match":"pattern","value":"*.game*"}]"#
    let rules = try decode(CategoryRules.self, text)
    #expect(try rules.rules == [.pattern("*.game*", .gaming)])
    #expect(try json(rules) == text)
    #expect(throws: DecodingError.self) {
      try decode(CategoryRules.self, #"[{"category":"gaming","match":"prefix","value":""}]"#)
    }
  }
}
