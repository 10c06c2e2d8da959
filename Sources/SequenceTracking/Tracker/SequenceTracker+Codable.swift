import SignalValues

extension SequenceTracker: Codable {
  private enum CodingKeys: String, CodingKey {
    case counts
    case run
  }

  private enum RunKeys: String, CodingKey {
    case epoch
    case floor
    case highest
    case outstanding
    case retired
  }

  private struct ValueRange: Codable {
    var first: UInt64
    var last: UInt64
  }

  /// Creates a tracker from its JSON form (see ``SequenceTracker``).
  ///
  /// An absent count is 0, an absent `outstanding` or `retired` list is empty.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field is missing or the run breaks its rules (a floor above
  ///   the highest value; outstanding ranges out of order, overlapping, adjacent or out of
  ///   bounds, or more than ``outstandingRangeLimit`` of them; retired epochs repeated, equal to
  ///   the current one, or more than ``retiredEpochLimit`` of them).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    counts = try container.decode(Counts.self, forKey: .counts)
    guard container.contains(.run) else { return }
    let runContainer = try container.nestedContainer(keyedBy: RunKeys.self, forKey: .run)
    let ranges = try runContainer.decodeIfPresent([ValueRange].self, forKey: .outstanding) ?? []
    guard ranges.allSatisfy({ $0.first <= $0.last }) else {
      throw DecodingError.dataCorruptedError(
        forKey: .outstanding, in: runContainer,
        debugDescription: "an outstanding range ends before it starts")
    }
    let decoded = Run(
      epoch: try runContainer.decode(SequenceEpoch.self, forKey: .epoch),
      floor: try runContainer.decode(UInt64.self, forKey: .floor),
      highest: try runContainer.decode(UInt64.self, forKey: .highest),
      outstanding: ranges.map { $0.first...$0.last },
      retired: try runContainer.decodeIfPresent([SequenceEpoch].self, forKey: .retired) ?? [])
    if let violation = decoded.violation {
      throw DecodingError.dataCorruptedError(
        forKey: .run, in: container, debugDescription: "invalid tracker run: \(violation)")
    }
    run = decoded
  }

  /// Encodes the tracker in its JSON form (see ``SequenceTracker``).
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(counts, forKey: .counts)
    guard let run else { return }
    var runContainer = container.nestedContainer(keyedBy: RunKeys.self, forKey: .run)
    try runContainer.encode(run.epoch, forKey: .epoch)
    try runContainer.encode(run.floor, forKey: .floor)
    try runContainer.encode(run.highest, forKey: .highest)
    if !run.outstanding.isEmpty {
      try runContainer.encode(
        run.outstanding.map { ValueRange(first: $0.lowerBound, last: $0.upperBound) },
        forKey: .outstanding)
    }
    if !run.retired.isEmpty { try runContainer.encode(run.retired, forKey: .retired) }
  }
}
