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
  /// Milliseconds become whole minutes without losing time to truncation.
  /// An app's time is summed over the categories it appears in. Minutes are distributed by the
  /// largest-remainder method: each app gets its whole minutes, and the minutes left over when
  /// the apps' total is rounded to the nearest minute go to the apps with the largest leftover
  /// seconds (ties by bundle ID). The rows therefore add up to the rounded total exactly.
  ///
  /// - Parameters:
  ///   - userId: The backend's user identifier.
  ///   - usage: One day of a ``UsageReport``.
  ///   - appName: The name to send for an app.
  /// - Complexity: O(*a* log *a*) for *a* apps.
  public init(userId: String, usage: DailyUsage, appName: (AppID) -> String) {
    var milliseconds: [AppID: Int64] = [:]
    for category in usage.categories {
      for app in category.apps {
        milliseconds[app.app, default: 0] += Milliseconds.amount(app.total) ?? 0
      }
    }
    let apps = milliseconds.keys.sorted()
    var minutes = apps.map { Int(milliseconds[$0, default: 0] / 60_000) }
    let total = milliseconds.values.reduce(0, +)
    let roundedTotal = Int((total + 30_000) / 60_000)
    let leftovers = apps.indices.sorted {
      (milliseconds[apps[$0], default: 0] % 60_000, apps[$1])
        > (milliseconds[apps[$1], default: 0] % 60_000, apps[$0])
    }
    for index in leftovers.prefix(max(0, roundedTotal - minutes.reduce(0, +))) {
      minutes[index] += 1
    }
    self.init(
      userId: userId, usageDate: usage.day,
      apps: apps.indices.map { index in
        App(
          uncheckedBundleId: apps[index], appName: appName(apps[index]),
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

extension KeyedDecodingContainer {
  /// Decodes whole minutes, rejecting negative values with an error naming the field.
  func decodeMinutes(forKey key: Key) throws -> Int {
    let minutes = try decode(Int.self, forKey: key)
    guard minutes >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(minutes) minutes is negative")
    }
    return minutes
  }
}
