/// The running pulse time of a ``PulseTime``: constant when fixed; for an adaptive one, a ring
/// of the recent intervals.
///
/// The merge asks only whether a gap is within the pulse time, and that needs no sorting: for
/// `floor < gap <= ceiling`, `gap <= median × percent / 100` holds exactly when at most
/// `(n - 1) / 2` of the `n` samples are below `⌈gap × 100 / percent⌉`, which one branch-free
/// pass over at most 256 samples counts. The pulse time itself is computed only when asked.
package struct PulseEstimator: Sendable {
  /// 365 days in milliseconds, the longest ceiling of an adaptive pulse time.
  package static let maximumMs: Int64 = 365 * 86_400_000

  private let isAdaptive: Bool
  /// The fixed pulse time, or the adaptive one's initial value.
  private let constant: Int64
  private let percent: Int64
  private let floor: Int64
  private let ceiling: Int64
  private let capacity: Int
  private let minimumSamples: Int
  /// The samples in arrival order, a ring whose oldest is at `oldest` once `filled == capacity`.
  private var samples: [Int64] = []
  private var filled = 0
  private var oldest = 0
  private var previousStart: Int64?

  /// Creates an estimator; every pulse time is valid (see ``PulseTime``).
  package init(_ pulseTime: PulseTime) {
    switch pulseTime {
    case .fixed:
      constant = pulseTime.fixedMilliseconds ?? 0
      isAdaptive = false
      percent = 100
      floor = constant
      ceiling = constant
      capacity = 0
      minimumSamples = 1
    case .adaptive(let adaptive):
      constant = adaptive.initialMs
      isAdaptive = true
      percent = Int64(adaptive.percentOfMedian)
      floor = adaptive.floorMs
      ceiling = adaptive.ceilingMs
      capacity = adaptive.sampleCount
      minimumSamples = adaptive.minimumSamples
      samples = Array(repeating: 0, count: capacity)
    }
  }

  /// The pulse time for the next heartbeat, in milliseconds.
  package var current: Int64 {
    guard isAdaptive, filled >= minimumSamples else { return constant }
    let sorted = samples.prefix(filled).sorted()
    return min(max(sorted[(filled - 1) / 2] * percent / 100, floor), ceiling)
  }

  /// Whether `gap` (a heartbeat's start minus the open interval's end) is within the pulse time.
  @inline(__always)
  package func allows(gap: Int64) -> Bool {
    guard isAdaptive, filled >= minimumSamples else { return gap <= constant }
    if gap <= floor { return true }
    if gap > ceiling { return false }
    let threshold = (gap * 100 + percent - 1) / percent
    let below = samples.withUnsafeBufferPointer { buffer in
      var count = 0
      for index in 0..<filled { count &+= buffer[index] < threshold ? 1 : 0 }
      return count
    }
    return below <= (filled - 1) / 2
  }

  /// Whether a gap in microseconds is within the pulse time (which is whole milliseconds, of
  /// either sign): `gap <= 1000 × pulse` exactly when `⌈gap / 1000⌉ <= pulse`.
  @inline(__always)
  package func allows(gapMicroseconds gap: Int64) -> Bool {
    let milliseconds = gap >= 0 ? (gap + 999) / 1000 : -(-gap / 1000)
    return allows(gap: milliseconds)
  }

  /// Samples the interval from the previous heartbeat's start to `start`.
  @inline(__always)
  package mutating func observe(start: Int64) {
    guard isAdaptive else { return }
    defer { previousStart = start }
    guard let previous = previousStart, start > previous else { return }
    // Samples above the ceiling only ever yield the ceiling; capping them at ceiling + 1 keeps
    // every answer the same and bounds median × percent (no overflow).
    let interval = min(start - previous, ceiling + 1)
    if filled < capacity {
      samples[filled] = interval
      filled += 1
    } else {
      samples[oldest] = interval
      oldest = oldest + 1 == capacity ? 0 : oldest + 1
    }
  }
}
