/// What recording one threshold event did.
public enum ThresholdOutcome: Sendable, Hashable {
  /// The event raised the app's highest threshold in its interval by `added`, to `total`.
  case counted(added: Duration, total: Duration)
  /// The app had already reached exactly this threshold in this interval: a duplicate delivery.
  /// Nothing was added.
  case duplicate(total: Duration)
  /// The app had already reached a higher threshold in this interval: a late or out-of-order
  /// delivery. Nothing was added.
  case superseded(total: Duration)
  /// The threshold exceeds what could have been used since the interval began; the event was
  /// recorded as implausible and not counted.
  case implausible(ImplausibleThresholdEvent)

  /// The usage this event added: zero unless ``counted(added:total:)``.
  public var added: Duration {
    if case .counted(let added, _) = self { return added }
    return .zero
  }
}

/// A threshold event that claims more usage than wall-clock time allows.
///
/// DeviceActivity sometimes fires every threshold of an interval at the first pickup of the
/// day. An event whose threshold is larger than the time elapsed since its interval began (plus
/// the ``allowance`` for past activity and the accountant's tolerance) cannot be true.
///
/// JSON form: `{"event": ThresholdEvent, "elapsedMs": 120000, "allowanceMs": 0}`.
public struct ImplausibleThresholdEvent: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The event.
  public let event: ThresholdEvent
  /// The wall-clock time from the interval's start to the event (negative when the event came
  /// before its interval began).
  public let elapsed: Duration
  /// The usage before the interval that the event may legitimately include: the time since the
  /// start of the local hour in which the interval began when the event counts past activity,
  /// otherwise zero.
  public let allowance: Duration

  /// Creates the record of an implausible event.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - elapsed: The time from the interval's start to the event.
  ///   - allowance: The past activity the event may include.
  public init(event: ThresholdEvent, elapsed: Duration, allowance: Duration) {
    self.event = event
    self.elapsed = elapsed
    self.allowance = allowance
  }

  /// A sentence saying why the event was not counted.
  public var description: String {
    "\(event.name) claims \(event.name.threshold) of use, but only \(elapsed) had passed since "
      + "the interval began at \(event.intervalStart) (allowance \(allowance))."
  }

  private enum CodingKeys: String, CodingKey {
    case event
    case elapsedMs
    case allowanceMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    event = try container.decode(ThresholdEvent.self, forKey: .event)
    elapsed = Milliseconds.duration(try container.decode(Int64.self, forKey: .elapsedMs))
    allowance = try container.decodeMilliseconds(forKey: .allowanceMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(event, forKey: .event)
    try container.encode(Milliseconds.amount(elapsed) ?? 0, forKey: .elapsedMs)
    try container.encodeMilliseconds(allowance, forKey: .allowanceMs)
  }
}
