/// The running pulse time of a ``PulseTime``: constant when fixed; for an adaptive one, a
/// sliding window of recent intervals kept both in arrival order (to evict the oldest) and
/// sorted (to read the median in O(1)).
struct PulseEstimator: Sendable {
  /// 365 days in milliseconds, the longest pulse time.
  static let maximumMs: Int64 = 365 * 86_400_000

  /// The pulse time for the next heartbeat, in milliseconds.
  private(set) var current: Int64
  private let isAdaptive: Bool
  private let percent: Int64
  private let floor: Int64
  private let ceiling: Int64
  private let capacity: Int
  private let minimumSamples: Int
  private var arrival: [Int64] = []
  private var sorted: [Int64] = []
  private var oldest = 0
  private var previousStart: Int64?

  /// Creates an estimator; `pulseTime` must have been validated.
  init(_ pulseTime: PulseTime) {
    switch pulseTime {
    case .fixed(let duration):
      current = duration.millisecondsClamped
      isAdaptive = false
      percent = 100
      floor = current
      ceiling = current
      capacity = 0
      minimumSamples = 1
    case .adaptive(let adaptive):
      current = adaptive.initialMs
      isAdaptive = true
      percent = Int64(adaptive.percentOfMedian)
      floor = adaptive.floorMs
      ceiling = adaptive.ceilingMs
      capacity = adaptive.sampleCount
      minimumSamples = adaptive.minimumSamples
      arrival.reserveCapacity(capacity)
      sorted.reserveCapacity(capacity)
    }
  }

  /// Samples the interval from the previous heartbeat's start to `start`.
  @inline(__always)
  mutating func observe(start: Int64) {
    guard isAdaptive else { return }
    defer { previousStart = start }
    guard let previous = previousStart, start > previous else { return }
    record(start - previous)
  }

  private mutating func record(_ interval: Int64) {
    if arrival.count < capacity {
      arrival.append(interval)
      var index = sorted.count
      sorted.append(interval)
      while index > 0, sorted[index - 1] > interval {
        sorted[index] = sorted[index - 1]
        index -= 1
      }
      sorted[index] = interval
    } else {
      let evicted = arrival[oldest]
      arrival[oldest] = interval
      oldest = oldest + 1 == capacity ? 0 : oldest + 1
      sorted.withUnsafeMutableBufferPointer { values in
        var index = Self.lowerBound(of: evicted, in: values)
        if interval >= evicted {
          while index + 1 < values.count, values[index + 1] < interval {
            values[index] = values[index + 1]
            index += 1
          }
        } else {
          while index > 0, values[index - 1] > interval {
            values[index] = values[index - 1]
            index -= 1
          }
        }
        values[index] = interval
      }
    }
    guard sorted.count >= minimumSamples else { return }
    let median = sorted[(sorted.count - 1) / 2]
    // median × percent / 100, rounded down, without overflowing for any interval.
    current = min(max(median / 100 * percent + median % 100 * percent / 100, floor), ceiling)
  }

  private static func lowerBound(of value: Int64, in values: UnsafeMutableBufferPointer<Int64>)
    -> Int
  {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

extension Duration {
  /// The duration in whole milliseconds (truncated), clamped to 0...365 days.
  var millisecondsClamped: Int64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    guard seconds < PulseEstimator.maximumMs / 1000 else { return PulseEstimator.maximumMs }
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
