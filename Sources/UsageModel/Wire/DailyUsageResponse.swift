/// The budget backend's daily usage status: per category, usage against budget, with per-app
/// rows.
///
/// `GET /api/v1/screen-time/usage/:userId/daily?date=2026-01-02` returns it inside an
/// ``APIEnvelope``:
///
/// ```json
/// {"success": true, "data": {"usageDate": "2026-01-02", "categories": [
///   {"categoryType": "social_media", "categoryName": "Social Media", "totalMinutes": 65,
///    "budgetMinutes": 60, "isOverBudget": true,
///    "apps": [{"appName": "Instagram", "totalMinutes": 45}]}]}}
/// ```
///
/// Decoding ignores unknown fields, names any missing or invalid field in its `DecodingError`,
/// and accepts category types it does not know as custom ``AppCategory`` values.
public struct DailyUsageResponse: Sendable, Hashable, Codable {
  /// One category's row.
  public struct CategoryRow: Sendable, Hashable, Codable {
    /// The category.
    public let categoryType: AppCategory
    /// The name shown to people.
    public let categoryName: String
    /// Whole minutes used on the day.
    public let totalMinutes: Int
    /// The day's budget in whole minutes.
    public let budgetMinutes: Int
    /// Whether the usage exceeds the budget, as the backend decided.
    public let isOverBudget: Bool
    /// One row per app.
    public let apps: [AppRow]

    /// Creates a category row.
    ///
    /// - Parameters:
    ///   - categoryType: The category.
    ///   - categoryName: The name shown to people.
    ///   - totalMinutes: Minutes used, zero or more.
    ///   - budgetMinutes: The budget in minutes, zero or more.
    ///   - isOverBudget: Whether usage exceeds the budget.
    ///   - apps: One row per app.
    /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for negative minutes.
    public init(
      categoryType: AppCategory, categoryName: String, totalMinutes: Int, budgetMinutes: Int,
      isOverBudget: Bool, apps: [AppRow]
    ) throws(UsageModelError) {
      try Self.checkMinutes(totalMinutes, field: "totalMinutes")
      try Self.checkMinutes(budgetMinutes, field: "budgetMinutes")
      self.categoryType = categoryType
      self.categoryName = categoryName
      self.totalMinutes = totalMinutes
      self.budgetMinutes = budgetMinutes
      self.isOverBudget = isOverBudget
      self.apps = apps
    }

    private enum CodingKeys: String, CodingKey {
      case categoryType
      case categoryName
      case totalMinutes
      case budgetMinutes
      case isOverBudget
      case apps
    }

    /// Decodes a row, rejecting negative minutes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      categoryType = try container.decode(AppCategory.self, forKey: .categoryType)
      categoryName = try container.decode(String.self, forKey: .categoryName)
      totalMinutes = try container.decodeMinutes(forKey: .totalMinutes)
      budgetMinutes = try container.decodeMinutes(forKey: .budgetMinutes)
      isOverBudget = try container.decode(Bool.self, forKey: .isOverBudget)
      apps = try container.decode([AppRow].self, forKey: .apps)
    }

    static func checkMinutes(_ minutes: Int, field: String) throws(UsageModelError) {
      guard minutes >= 0 else {
        throw .invalidDuration(
          field: field, value: "\(minutes)", reason: "minutes must be zero or more")
      }
    }
  }

  /// One app's row within a category.
  public struct AppRow: Sendable, Hashable, Codable {
    /// The name shown to people.
    public let appName: String
    /// Whole minutes used on the day.
    public let totalMinutes: Int

    /// Creates an app row.
    ///
    /// - Parameters:
    ///   - appName: The name shown to people.
    ///   - totalMinutes: Minutes used, zero or more.
    /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for negative minutes.
    public init(appName: String, totalMinutes: Int) throws(UsageModelError) {
      try CategoryRow.checkMinutes(totalMinutes, field: "totalMinutes")
      self.appName = appName
      self.totalMinutes = totalMinutes
    }

    private enum CodingKeys: String, CodingKey {
      case appName
      case totalMinutes
    }

    /// Decodes a row, rejecting negative minutes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      appName = try container.decode(String.self, forKey: .appName)
      totalMinutes = try container.decodeMinutes(forKey: .totalMinutes)
    }
  }

  /// The local day.
  public let usageDate: LocalDay
  /// One row per category.
  public let categories: [CategoryRow]

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - usageDate: The local day.
  ///   - categories: One row per category.
  public init(usageDate: LocalDay, categories: [CategoryRow]) {
    self.usageDate = usageDate
    self.categories = categories
  }
}
