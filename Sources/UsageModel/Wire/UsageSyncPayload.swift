/// The usage sync request of the budget backend: one person's per-app minutes for one day.
///
/// `POST /api/v1/screen-time/usage/sync` with:
///
/// ```json
/// {"userId": "user-123", "usageDate": "2026-01-02",
///  "apps": [{"bundleId": "com.instagram.instagram", "appName": "Instagram", "totalMinutes": 65}]}
/// ```
///
/// Decoding ignores unknown fields and names any missing or invalid field in its
/// `DecodingError`; `totalMinutes` must be zero or more.
public struct UsageSyncPayload: Sendable, Hashable, Codable {
  /// One app's row.
  public struct App: Sendable, Hashable, Codable {
    /// The app's bundle ID.
    public let bundleId: AppID
    /// The name shown to people.
    public let appName: String
    /// Whole minutes of use on the day, zero or more.
    public let totalMinutes: Int

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - bundleId: The app's bundle ID.
    ///   - appName: The name shown to people.
    ///   - totalMinutes: Whole minutes of use, zero or more.
    /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for negative minutes.
    public init(bundleId: AppID, appName: String, totalMinutes: Int) throws(UsageModelError) {
      guard totalMinutes >= 0 else {
        throw .invalidDuration(
          field: "totalMinutes", value: "\(totalMinutes)", reason: "minutes must be zero or more")
      }
      self.bundleId = bundleId
      self.appName = appName
      self.totalMinutes = totalMinutes
    }

    private enum CodingKeys: String, CodingKey {
      case bundleId
      case appName
      case totalMinutes
    }

    /// Decodes a row, rejecting negative minutes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      bundleId = try container.decode(AppID.self, forKey: .bundleId)
      appName = try container.decode(String.self, forKey: .appName)
      totalMinutes = try container.decodeMinutes(forKey: .totalMinutes)
    }
  }

  /// The backend's user identifier.
  public let userId: String
  /// The local day the usage belongs to.
  public let usageDate: LocalDay
  /// One row per app.
  public let apps: [App]

  /// Creates a payload.
  ///
  /// - Parameters:
  ///   - userId: The backend's user identifier.
  ///   - usageDate: The local day.
  ///   - apps: One row per app.
  public init(userId: String, usageDate: LocalDay, apps: [App]) {
    self.userId = userId
    self.usageDate = usageDate
    self.apps = apps
  }

  /// Creates the payload of one aggregated day, rows sorted by bundle ID.
  ///
  /// An app's time is its day total from ``DailyUsage/apps``: the union of its records over all
  /// categories, so an hour recorded under two categories is sent as one hour, not two.
  /// Milliseconds become whole minutes without losing time to truncation: minutes are
  /// distributed by the largest-remainder method — each app gets its whole minutes, and the
  /// minutes left over when the apps' total is rounded to the nearest minute go to the apps with
  /// the largest leftover seconds (ties by bundle ID). The rows therefore add up to the rounded
  /// total exactly.
  ///
  /// - Parameters:
  ///   - userId: The backend's user identifier.
  ///   - usage: One day of a ``UsageReport``.
  ///   - appName: The name to send for an app.
  /// - Complexity: O(*a* log *a*) for *a* apps.
  public init(userId: String, usage: DailyUsage, appName: (AppID) -> String) {
    let rows = usage.apps.sorted { $0.app < $1.app }
    // DailyUsage keeps each app's time within the day, so its milliseconds always exist.
    let milliseconds = rows.map { Milliseconds.amount($0.total) ?? 0 }
    var minutes = milliseconds.map { Int($0 / 60_000) }
    let roundedTotal = Int((milliseconds.reduce(0, +) + 30_000) / 60_000)
    let leftovers = rows.indices.sorted {
      (milliseconds[$0] % 60_000, rows[$1].app) > (milliseconds[$1] % 60_000, rows[$0].app)
    }
    for index in leftovers.prefix(max(0, roundedTotal - minutes.reduce(0, +))) {
      minutes[index] += 1
    }
    self.init(
      userId: userId, usageDate: usage.day,
      apps: rows.indices.map { index in
        App(
          uncheckedBundleId: rows[index].app, appName: appName(rows[index].app),
          totalMinutes: minutes[index])
      })
  }
}

extension UsageSyncPayload.App {
  init(uncheckedBundleId bundleId: AppID, appName: String, totalMinutes: Int) {
    self.bundleId = bundleId
    self.appName = appName
    self.totalMinutes = totalMinutes
  }
}
