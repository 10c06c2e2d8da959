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
  /// The values must be ones that ``ThresholdAccountant`` can report: `elapsedMs` no longer
  /// than the supported instants are apart, either way, and `allowanceMs` under one hour.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    event = try container.decode(ThresholdEvent.self, forKey: .event)
    let elapsedMs = try container.decode(Int64.self, forKey: .elapsedMs)
    let span = Milliseconds.latest - Milliseconds.earliest
    guard (-span...span).contains(elapsedMs) else {
      throw DecodingError.dataCorruptedError(
        forKey: .elapsedMs, in: container,
        debugDescription: "\(elapsedMs) ms is longer than any two supported instants are apart")
    }
    elapsed = Milliseconds.duration(elapsedMs)
    allowance = try container.decodeMilliseconds(forKey: .allowanceMs)
    guard allowance < .seconds(3600) else {
      throw DecodingError.dataCorruptedError(
        forKey: .allowanceMs, in: container,
        debugDescription: "\(allowance) is not under one hour, the most past activity counts")
    }
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
