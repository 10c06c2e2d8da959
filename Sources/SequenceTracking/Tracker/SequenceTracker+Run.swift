import SignalValues

extension SequenceTracker {
  /// One run of a producer's numbering as the tracker knows it.
  ///
  /// Every value from ``floor`` to ``highest`` was either received or is in ``outstanding``.
  struct Run: Hashable, Sendable {
    var epoch: SequenceEpoch
    /// The lowest value the run accounts for.
    var floor: UInt64
    /// The highest value received.
    var highest: UInt64
    /// The values not received, ascending, disjoint and never adjacent, all in
    /// `floor..<highest`.
    var outstanding: [ClosedRange<UInt64>] = []
    /// The epochs left by resets, most recent first, distinct, without ``epoch``, at most
    /// ``SequenceTracker/retiredEpochLimit``.
    var retired: [SequenceEpoch] = []

    var missedCount: UInt64 {
      outstanding.reduce(0) { $0.addingSaturating(Self.count(of: $1)) }
    }

    static func count(of range: ClosedRange<UInt64>) -> UInt64 {
      (range.upperBound - range.lowerBound).addingSaturating(1)
    }

    /// The index of the outstanding range holding `value`, by binary search.
    func indexOfOutstanding(containing value: UInt64) -> Int? {
      var low = 0
      var high = outstanding.count
      while low < high {
        let middle = (low + high) / 2
        if outstanding[middle].upperBound < value {
          low = middle + 1
        } else {
          high = middle
        }
      }
      guard low < outstanding.count, outstanding[low].contains(value) else { return nil }
      return low
    }

    /// Removes `value` from the outstanding range at `index`, splitting it when needed.
    mutating func fill(_ value: UInt64, inRangeAt index: Int) {
      let range = outstanding[index]
      switch (value == range.lowerBound, value == range.upperBound) {
      case (true, true):
        outstanding.remove(at: index)
      case (true, false):
        outstanding[index] = (value + 1)...range.upperBound
      case (false, true):
        outstanding[index] = range.lowerBound...(value - 1)
      case (false, false):
        outstanding[index] = range.lowerBound...(value - 1)
        outstanding.insert((value + 1)...range.upperBound, at: index + 1)
      }
    }

    /// Why the run breaks its invariants, or `nil` when it keeps them.
    var violation: String? {
      guard floor <= highest else { return "floor \(floor) is above highest \(highest)" }
      guard outstanding.count <= SequenceTracker.outstandingRangeLimit else {
        return "\(outstanding.count) outstanding ranges, more than the limit of "
          + "\(SequenceTracker.outstandingRangeLimit)"
      }
      var lowestAllowed = floor
      for range in outstanding {
        guard range.lowerBound >= lowestAllowed, range.upperBound < highest else {
          return "outstanding range \(range.lowerBound)...\(range.upperBound) is out of order, "
            + "adjacent to another, or outside \(floor)..<\(highest)"
        }
        lowestAllowed = range.upperBound.addingSaturating(2)
      }
      guard retired.count <= SequenceTracker.retiredEpochLimit else {
        return "\(retired.count) retired epochs, more than the limit of "
          + "\(SequenceTracker.retiredEpochLimit)"
      }
      guard Set(retired).count == retired.count, !retired.contains(epoch) else {
        return "the retired epochs repeat one another or the current epoch"
      }
      return nil
    }
  }

  /// The counts that cannot be derived from the run; they only ever grow.
  struct Counts: Hashable, Sendable {
    var duplicates: UInt64 = 0
    var givenUp: UInt64 = 0
    var received: UInt64 = 0
    var recovered: UInt64 = 0
    var resets: UInt64 = 0
    var stale: UInt64 = 0
  }
}

extension SequenceTracker.Counts: Codable {
  private enum CodingKeys: String, CodingKey {
    case duplicates
    case givenUp
    case received
    case recovered
    case resets
    case stale
  }

  /// Decodes the counts; a count that is absent is 0.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    duplicates = try container.decodeIfPresent(UInt64.self, forKey: .duplicates) ?? 0
    givenUp = try container.decodeIfPresent(UInt64.self, forKey: .givenUp) ?? 0
    received = try container.decodeIfPresent(UInt64.self, forKey: .received) ?? 0
    recovered = try container.decodeIfPresent(UInt64.self, forKey: .recovered) ?? 0
    resets = try container.decodeIfPresent(UInt64.self, forKey: .resets) ?? 0
    stale = try container.decodeIfPresent(UInt64.self, forKey: .stale) ?? 0
  }

  /// Encodes the counts, leaving out those that are 0: a consumer's record is written at every
  /// drain, and most of its counts stay 0.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    for (key, count) in [
      (CodingKeys.duplicates, duplicates), (.givenUp, givenUp), (.received, received),
      (.recovered, recovered), (.resets, resets), (.stale, stale),
    ] where count != 0 {
      try container.encode(count, forKey: key)
    }
  }
}
