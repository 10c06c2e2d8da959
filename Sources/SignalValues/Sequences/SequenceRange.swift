/// A non-empty run of consecutive numbers of one epoch, such as the numbers a consumer missed.
///
/// Missed and lost numbers are always reported as exact ranges of this one type, with their
/// epoch: `first` and `last` are both included. A ``SequenceLoss`` adds when a range was lost.
///
/// ```swift
/// if case .gap(_, let missing) = tracker.observe(number) {
///   log("missed \(missing.count) notifications: \(missing)")   // "missed 3 …: 5...7@…"
/// }
/// ```
///
/// JSON form: `{"epoch":"00000000000000ff","first":5,"last":7}`. Decoding rejects a range whose
/// `first` is greater than its `last`.
public struct SequenceRange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The epoch the numbers belong to.
  public let epoch: SequenceEpoch
  /// The values, both ends included.
  public let values: ClosedRange<UInt64>

  /// Creates a range of the values `values` of `epoch`.
  ///
  /// - Parameters:
  ///   - epoch: The epoch the numbers belong to.
  ///   - values: The values, both ends included.
  public init(epoch: SequenceEpoch, values: ClosedRange<UInt64>) {
    self.epoch = epoch
    self.values = values
  }

  /// The first number of the range.
  public var first: SequenceNumber { SequenceNumber(epoch: epoch, value: values.lowerBound) }

  /// The last number of the range.
  public var last: SequenceNumber { SequenceNumber(epoch: epoch, value: values.upperBound) }

  /// How many numbers the range holds, at least 1.
  ///
  /// A range spanning every 64-bit value would hold 2⁶⁴ numbers; its count saturates at
  /// `UInt64.max`.
  public var count: UInt64 {
    let (count, overflow) = (values.upperBound - values.lowerBound).addingReportingOverflow(1)
    return overflow ? .max : count
  }

  /// Whether `number` lies in the range.
  ///
  /// - Parameter number: A number.
  /// - Returns: `true` when `number` has this range's epoch and a value inside it.
  public func contains(_ number: SequenceNumber) -> Bool {
    number.epoch == epoch && values.contains(number.value)
  }

  /// The range as `first...last@epoch`, or `value@epoch` for a single number.
  public var description: String {
    values.lowerBound == values.upperBound
      ? "\(values.lowerBound)@\(epoch)"
      : "\(values.lowerBound)...\(values.upperBound)@\(epoch)"
  }

  private enum CodingKeys: String, CodingKey {
    case epoch
    case first
    case last
  }

  /// Creates a range from its JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field is missing or `first` is greater than `last`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let first = try container.decode(UInt64.self, forKey: .first)
    let last = try container.decode(UInt64.self, forKey: .last)
    guard first <= last else {
      throw DecodingError.dataCorruptedError(
        forKey: .last, in: container,
        debugDescription: "a range's last value \(last) is before its first value \(first)")
    }
    epoch = try container.decode(SequenceEpoch.self, forKey: .epoch)
    values = first...last
  }

  /// Encodes the range as `{"epoch":…,"first":…,"last":…}`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(epoch, forKey: .epoch)
    try container.encode(values.lowerBound, forKey: .first)
    try container.encode(values.upperBound, forKey: .last)
  }
}
