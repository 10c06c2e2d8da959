/// The time the apps of one category were in use during one local day, with each app's part.
///
/// ``total`` is the time during which *at least one* app of the category was in use, so two apps
/// of a category that overlap (which a well-behaved tracker never reports) count once in the
/// category; it is never more than the sum of ``apps``.
///
/// JSON form: `{"category": "social_media", "totalMs": 3900000, "apps": [AppUsage, …]}`, apps in
/// descending order of time, ties by app ID.
public struct CategoryUsage: Sendable, Hashable, Codable {
  /// The category.
  public let category: AppCategory
  /// The time during which at least one app of the category was in use.
  public let total: Duration
  /// Each app's time, most used first.
  public let apps: [AppUsage]

  /// Creates a category's usage.
  ///
  /// - Parameters:
  ///   - category: The category.
  ///   - total: The time during which at least one of its apps was in use.
  ///   - apps: Each app's time.
  public init(category: AppCategory, total: Duration, apps: [AppUsage]) {
    self.category = category
    self.total = total
    self.apps = apps
  }

  /// The time of `app` in this category, zero when it was not used.
  ///
  /// - Parameter app: An app.
  /// - Returns: Its time.
  /// - Complexity: O(*n*) in the number of apps.
  public func total(of app: AppID) -> Duration {
    apps.first { $0.app == app }?.total ?? .zero
  }

  private enum CodingKeys: String, CodingKey {
    case category
    case totalMs
    case apps
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    category = try container.decode(AppCategory.self, forKey: .category)
    total = try container.decodeMilliseconds(forKey: .totalMs)
    apps = try container.decode([AppUsage].self, forKey: .apps)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(category, forKey: .category)
    try container.encodeMilliseconds(total, forKey: .totalMs)
    try container.encode(apps, forKey: .apps)
  }
}

extension CategoryUsage {
  /// Whether `lhs` comes first in a category list: most used first, ties by raw value.
  static func mostUsedFirst(_ lhs: CategoryUsage, _ rhs: CategoryUsage) -> Bool {
    lhs.total != rhs.total ? lhs.total > rhs.total : lhs.category < rhs.category
  }
}
