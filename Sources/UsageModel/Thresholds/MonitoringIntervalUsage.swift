import Foundation

/// The threshold accounting of one monitoring interval: each app's highest threshold reached,
/// and the events rejected as implausible.
///
/// JSON form: `{"start": "2026-01-02T05:00:00Z", "apps": [{"app": "…", "highestMs": 900000,
/// "reachedAt": "2026-01-02T14:03:10Z"}], "implausibleEvents": [ImplausibleThresholdEvent, …]}`,
/// apps sorted by app ID.
public struct MonitoringIntervalUsage: Sendable, Hashable, Codable {
  /// An app's highest threshold reached in the interval.
  public struct AppThreshold: Sendable, Hashable, Codable {
    /// The app.
    public let app: AppID
    /// The highest threshold reached: the app's usage in the interval.
    public let highest: Duration
    let reachedInstant: Int64

    /// When the event that reached ``highest`` was received.
    public var reachedAt: Date { Milliseconds.date(reachedInstant) }

    init(app: AppID, highest: Duration, reachedInstant: Int64) {
      self.app = app
      self.highest = highest
      self.reachedInstant = reachedInstant
    }

    private enum CodingKeys: String, CodingKey {
      case app
      case highestMs
      case reachedAt
    }

    /// Decodes the documented JSON form.
    ///
    /// `highestMs` must be a threshold that ``ThresholdEventName`` accepts (whole seconds, 1
    /// second...7 days), as every recorded one is, so that totals over many apps stay exact.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      app = try container.decode(AppID.self, forKey: .app)
      highest = try container.decodeMilliseconds(forKey: .highestMs)
      do {
        _ = try ThresholdEventName(app: app, threshold: highest)
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .highestMs, in: container, debugDescription: error.description)
      }
      reachedInstant = try container.decodeInstant(forKey: .reachedAt)
    }

    /// Encodes the documented JSON form.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(app, forKey: .app)
      try container.encodeMilliseconds(highest, forKey: .highestMs)
      try container.encodeInstant(reachedInstant, forKey: .reachedAt)
    }
  }

  let startInstant: Int64
  /// Each app's highest threshold, sorted by app ID.
  public private(set) var apps: [AppThreshold] = []
  /// The events rejected as implausible, in order of arrival, each once.
  public private(set) var implausibleEvents: [ImplausibleThresholdEvent] = []

  init(startInstant: Int64) {
    self.startInstant = startInstant
  }

  /// When the interval began.
  public var start: Date { Milliseconds.date(startInstant) }

  /// The total of every app's usage in the interval.
  public var total: Duration { apps.reduce(.zero) { $0 + $1.highest } }

  mutating func raise(app: AppID, to threshold: Int64, at instant: Int64) -> ThresholdOutcome {
    let thresholdDuration = Milliseconds.duration(threshold)
    guard let index = apps.firstIndex(where: { $0.app >= app }), apps[index].app == app else {
      let position = apps.firstIndex { $0.app > app } ?? apps.endIndex
      apps.insert(
        AppThreshold(app: app, highest: thresholdDuration, reachedInstant: instant), at: position)
      return .counted(added: thresholdDuration, total: thresholdDuration)
    }
    let highest = apps[index].highest
    if thresholdDuration == highest { return .duplicate(total: highest) }
    if thresholdDuration < highest { return .superseded(total: highest) }
    apps[index] = AppThreshold(app: app, highest: thresholdDuration, reachedInstant: instant)
    return .counted(added: thresholdDuration - highest, total: thresholdDuration)
  }

  mutating func addImplausible(_ report: ImplausibleThresholdEvent) {
    if !implausibleEvents.contains(report) { implausibleEvents.append(report) }
  }

  private enum CodingKeys: String, CodingKey {
    case start
    case apps
    case implausibleEvents
  }

  /// Decodes the documented JSON form; apps may come in any order, but each at most once.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also when an app is listed
  ///   twice (its usage would be ambiguous).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    startInstant = try container.decodeInstant(forKey: .start)
    apps = try container.decode([AppThreshold].self, forKey: .apps).sorted { $0.app < $1.app }
    for (earlier, later) in zip(apps, apps.dropFirst()) where earlier.app == later.app {
      throw DecodingError.dataCorruptedError(
        forKey: .apps, in: container,
        debugDescription: "\(later.app) is listed twice; an interval holds one entry per app")
    }
    implausibleEvents = try container.decode(
      [ImplausibleThresholdEvent].self, forKey: .implausibleEvents)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encode(apps, forKey: .apps)
    try container.encode(implausibleEvents, forKey: .implausibleEvents)
  }
}
