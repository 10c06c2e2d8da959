/// What one monitored activity watches: a daily window or a one-off timer window.
///
/// JSON form: `{"daily": DailyWindow}` or `{"timer": TimerWindow}`.
public enum MonitoringSchedule: Sendable, Hashable, Codable {
  /// A window that repeats every day.
  case daily(DailyWindow)
  /// A one-off window.
  case timer(TimerWindow)

  /// The interval's length as the platform measures it: the wall-clock length of a daily
  /// window, the duration of a timer window.
  public var intervalLength: Duration {
    switch self {
    case .daily(let window): return window.nominalLength
    case .timer(let window): return window.duration
    }
  }

  private enum CodingKeys: String, CodingKey {
    case daily
    case timer
  }

  /// Decodes `{"daily": {…}}` or `{"timer": {…}}`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when neither or both keys are present, or a window is invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let daily = try container.decodeIfPresent(DailyWindow.self, forKey: .daily)
    let timer = try container.decodeIfPresent(TimerWindow.self, forKey: .timer)
    switch (daily, timer) {
    case (let daily?, nil): self = .daily(daily)
    case (nil, let timer?): self = .timer(timer)
    default:
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "a schedule needs exactly one of \"daily\" and \"timer\""))
    }
  }

  /// Encodes `{"daily": {…}}` or `{"timer": {…}}`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .daily(let window): try container.encode(window, forKey: .daily)
    case .timer(let window): try container.encode(window, forKey: .timer)
    }
  }
}
