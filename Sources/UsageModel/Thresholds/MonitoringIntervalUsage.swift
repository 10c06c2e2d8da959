import Foundation

/// The threshold accounting of one monitoring interval: each app's thresholds reached, the
/// highest of which is its usage, and the events rejected as implausible.
///
/// JSON form: `{"start": "2026-01-02T05:00:00Z", "apps": [AppThreshold, …], "implausibleEvents":
/// [ImplausibleThresholdEvent, …], "lastReportAt": "2026-01-02T21:48:32Z"}`, apps sorted by app
/// ID; `lastReportAt` is omitted when no report came after the last step's.
public struct MonitoringIntervalUsage: Sendable, Hashable, Codable {
  /// An app's thresholds reached in the interval: its highest is the app's usage there, and the
  /// earliest report of each is the evidence that places the usage on the timeline.
  ///
  /// JSON form: `{"app": "com.a", "highestMs": 900000, "reachedAt": "2026-01-02T14:03:10Z",
  /// "steps": [{"thresholdMs": 300000, "at": "2026-01-02T13:40:00Z"}, …]}`. `steps` lists every
  /// threshold reached in ascending order, the highest last (its `at` equals `reachedAt`); it
  /// is omitted when the highest is the only threshold reached.
  public struct AppThreshold: Sendable, Hashable, Codable {
    /// The app.
    public let app: AppID
    /// Every threshold reached, in ascending order, each with its earliest report.
    public private(set) var steps: [ThresholdStep]

    /// The highest threshold reached: the app's usage in the interval.
    public var highest: Duration { Milliseconds.duration(highestThreshold) }

    /// When the highest threshold was first reported.
    public var reachedAt: Date { Milliseconds.date(reachedInstant) }

    var highestThreshold: Int64 { steps.last?.thresholdAmount ?? 0 }
    var reachedInstant: Int64 { steps.last?.instant ?? 0 }

    init(app: AppID, threshold: Int64, at instant: Int64) {
      self.app = app
      steps = [ThresholdStep(thresholdAmount: threshold, instant: instant)]
    }

    /// Notes a report of `threshold` at `instant`: a new step, or an earlier report of a known
    /// one.
    mutating func note(_ threshold: Int64, at instant: Int64) {
      let position = steps.firstIndex { $0.thresholdAmount >= threshold } ?? steps.endIndex
      if position < steps.count, steps[position].thresholdAmount == threshold {
        steps[position].instant = min(steps[position].instant, instant)
      } else {
        steps.insert(ThresholdStep(thresholdAmount: threshold, instant: instant), at: position)
      }
    }

    private enum CodingKeys: String, CodingKey {
      case app
      case highestMs
      case reachedAt
      case steps
    }

    /// Decodes the documented JSON form.
    ///
    /// Every threshold must be one that ``ThresholdEventName`` accepts (whole seconds, 1
    /// second...7 days), as every recorded one is, so that totals over many apps stay exact.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the missing or invalid field, also when `steps` is not
    ///   in ascending order or does not end at `highestMs` and `reachedAt`.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      app = try container.decode(AppID.self, forKey: .app)
      let highest = try container.decodeMilliseconds(forKey: .highestMs)
      do {
        _ = try ThresholdEventName(app: app, threshold: highest)
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .highestMs, in: container, debugDescription: error.description)
      }
      guard let highestAmount = Milliseconds.amount(highest) else {
        throw DecodingError.dataCorruptedError(
          forKey: .highestMs, in: container, debugDescription: "\(highest) is out of range")
      }
      let top = ThresholdStep(
        thresholdAmount: highestAmount, instant: try container.decodeInstant(forKey: .reachedAt))
      steps = try container.decodeIfPresent([ThresholdStep].self, forKey: .steps) ?? [top]
      for (lower, higher) in zip(steps, steps.dropFirst())
      where lower.thresholdAmount >= higher.thresholdAmount {
        throw DecodingError.dataCorruptedError(
          forKey: .steps, in: container,
          debugDescription: "the steps are not in ascending order of threshold")
      }
      guard steps.last == top else {
        throw DecodingError.dataCorruptedError(
          forKey: .steps, in: container,
          debugDescription: "the last step is not the highest threshold and when it was reached")
      }
      for step in steps {
        do {
          _ = try ThresholdEventName(app: app, threshold: step.threshold)
        } catch {
          throw DecodingError.dataCorruptedError(
            forKey: .steps, in: container, debugDescription: error.description)
        }
      }
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
      if steps.count > 1 { try container.encode(steps, forKey: .steps) }
    }
  }

  let startInstant: Int64
  /// Each app's highest threshold, sorted by app ID.
  public private(set) var apps: [AppThreshold] = []
  /// The events rejected as implausible, in order of arrival, each once.
  public private(set) var implausibleEvents: [ImplausibleThresholdEvent] = []
  /// The latest report of any counted threshold in the interval, a duplicate or a lower one
  /// included, in milliseconds; `nil` before the first.
  private var lastReportInstant: Int64?

  init(startInstant: Int64) {
    self.startInstant = startInstant
  }

  /// When the interval began.
  public var start: Date { Milliseconds.date(startInstant) }

  /// The latest report of any counted threshold in the interval, duplicates and lower ones
  /// included: every use the interval's evidence proves was reached by then.
  public var lastReportAt: Date? { lastReportInstant.map(Milliseconds.date) }

  /// ``lastReportAt`` in milliseconds.
  var lastReport: Int64? { lastReportInstant }

  /// The latest of the steps' earliest reports.
  private var latestStepReport: Int64? { apps.flatMap { $0.steps.map(\.instant) }.max() }

  /// The total of every app's usage in the interval.
  public var total: Duration { apps.reduce(.zero) { $0 + $1.highest } }

  mutating func raise(app: AppID, to threshold: Int64, at instant: Int64) -> ThresholdOutcome {
    lastReportInstant = max(lastReportInstant ?? instant, instant)
    let thresholdDuration = Milliseconds.duration(threshold)
    guard let index = apps.firstIndex(where: { $0.app >= app }), apps[index].app == app else {
      let position = apps.firstIndex { $0.app > app } ?? apps.endIndex
      apps.insert(AppThreshold(app: app, threshold: threshold, at: instant), at: position)
      return .counted(added: thresholdDuration, total: thresholdDuration)
    }
    let highest = apps[index].highest
    apps[index].note(threshold, at: instant)
    if thresholdDuration == highest { return .duplicate(total: highest) }
    if thresholdDuration < highest { return .superseded(total: highest) }
    return .counted(added: thresholdDuration - highest, total: thresholdDuration)
  }

  mutating func addImplausible(_ report: ImplausibleThresholdEvent) {
    if !implausibleEvents.contains(report) { implausibleEvents.append(report) }
  }

  private enum CodingKeys: String, CodingKey {
    case start
    case apps
    case implausibleEvents
    case lastReportAt
  }

  /// Decodes the documented JSON form; apps may come in any order, but each at most once.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also when an app is listed
  ///   twice (its usage would be ambiguous) or `lastReportAt` is not after every step's report.
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
    lastReportInstant = latestStepReport
    if container.contains(.lastReportAt) {
      let last = try container.decodeInstant(forKey: .lastReportAt)
      guard last > lastReportInstant ?? .min else {
        throw DecodingError.dataCorruptedError(
          forKey: .lastReportAt, in: container,
          debugDescription: "the last report is not after every step's report")
      }
      lastReportInstant = last
    }
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
    if let lastReportInstant, lastReportInstant > latestStepReport ?? .min {
      try container.encodeInstant(lastReportInstant, forKey: .lastReportAt)
    }
  }
}
