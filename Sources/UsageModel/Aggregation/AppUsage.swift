/// The time one app was in use during one local day, within one category.
///
/// JSON form: `{"app": "com.instagram.instagram", "totalMs": 2700000}` (whole milliseconds).
public struct AppUsage: Sendable, Hashable, Codable {
  /// The app.
  public let app: AppID
  /// The time during which at least one record of the app covered the day, counted once.
  public let total: Duration

  /// Creates an app's usage.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - total: Its time in use, a whole number of milliseconds.
  public init(app: AppID, total: Duration) {
    self.app = app
    self.total = total
  }

  private enum CodingKeys: String, CodingKey {
    case app
    case totalMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or negative field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    app = try container.decode(AppID.self, forKey: .app)
    total = try container.decodeMilliseconds(forKey: .totalMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when `total` is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(app, forKey: .app)
    try container.encodeMilliseconds(total, forKey: .totalMs)
  }
}

extension AppUsage {
  /// Whether `lhs` comes first in an app list: most used first, ties by app ID.
  static func mostUsedFirst(_ lhs: AppUsage, _ rhs: AppUsage) -> Bool {
    lhs.total != rhs.total ? lhs.total > rhs.total : lhs.app < rhs.app
  }
}
