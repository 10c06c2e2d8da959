import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What a timing counts.
enum TimeBase: String, Sendable {
  /// Elapsed time, waits included: for anything that flushes, locks or sleeps.
  case wall
  /// The CPU time of the process (`CLOCK_PROCESS_CPUTIME_ID`: user and system time of all its
  /// threads): for work that only computes and copies.
  ///
  /// On a machine shared with other builds, a long computation is preempted many times while a
  /// short baseline often runs within one time slice, so wall-clock ratios of the two grew by
  /// 3–4× under load (the ActivityWatch merge against its line scan: 37× quiet, 142× at a load
  /// average of 10 on 2 cores). CPU time counts the work, whatever else runs.
  case cpu

  /// The current reading of this clock, from an arbitrary origin.
  func now() -> Duration {
    switch self {
    case .wall:
      return ContinuousClock.now - Self.origin
    case .cpu:
      var time = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
  }

  private static let origin = ContinuousClock.now
}

/// Timings of one benchmarked operation: a sample per iteration.
struct Measurement {
  /// What was measured, as printed in the table.
  var name: String
  /// One duration per iteration, in the order measured.
  var samples: [Duration]
  /// What the samples count.
  var clock = TimeBase.wall

  /// The median sample.
  var median: Duration { percentile(50) }
  /// The 99th-percentile sample (nearest rank).
  var p99: Duration { percentile(99) }

  /// The sample at `percent` (nearest-rank method).
  func percentile(_ percent: Int) -> Duration {
    precondition(!samples.isEmpty, "no samples for \(name)")
    let sorted = samples.sorted()
    let rank = max(1, Int((Double(percent) / 100 * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
  }

  /// Times `body` `iterations` times after `warmup` untimed runs, on `clock`.
  static func run(
    _ name: String,
    iterations: Int,
    warmup: Int = 3,
    clock: TimeBase = .wall,
    _ body: () throws -> Void
  ) rethrows -> Measurement {
    for _ in 0..<warmup { try body() }
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
      let start = clock.now()
      try body()
      samples.append(clock.now() - start)
    }
    return Measurement(name: name, samples: samples, clock: clock)
  }

  /// Times `baseline` and `body` alternately, `iterations` times each after `warmup` untimed runs
  /// of each, so that both see the same conditions (a disk whose flushes slow down and speed up
  /// with other work, say).
  ///
  /// - Returns: The measurement of `body`, then that of `baseline`.
  static func paired(
    _ name: String,
    against baselineName: String,
    iterations: Int,
    warmup: Int = 3,
    clock: TimeBase = .wall,
    baseline: () throws -> Void,
    measuring body: () throws -> Void
  ) rethrows -> (Measurement, Measurement) {
    for _ in 0..<warmup {
      try baseline()
      try body()
    }
    var samples: [Duration] = []
    var baselineSamples: [Duration] = []
    samples.reserveCapacity(iterations)
    baselineSamples.reserveCapacity(iterations)
    for _ in 0..<iterations {
      var start = clock.now()
      try baseline()
      baselineSamples.append(clock.now() - start)
      start = clock.now()
      try body()
      samples.append(clock.now() - start)
    }
    return (
      Measurement(name: name, samples: samples, clock: clock),
      Measurement(name: baselineName, samples: baselineSamples, clock: clock)
    )
  }

  /// Times one run of `body`, which does `operations` units of work, repeated `rounds` times.
  ///
  /// Each sample is the time of one whole round; use it for bulk work such as aggregating a
  /// million records.
  static func bulk(
    _ name: String,
    rounds: Int,
    warmup: Int = 1,
    clock: TimeBase = .wall,
    _ body: () throws -> Void
  ) rethrows -> Measurement {
    try run(name, iterations: rounds, warmup: warmup, clock: clock, body)
  }
}

extension Duration {
  /// The duration in seconds as a `Double`, for printing and ratios only.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }

  /// A short human form: `812 ns`, `41.3 µs`, `2.07 ms`, `1.52 s`.
  var formatted: String {
    let value = seconds
    switch value {
    case ..<1e-6: return String(format: "%.0f ns", value * 1e9)
    case ..<1e-3: return String(format: "%.1f µs", value * 1e6)
    case ..<1: return String(format: "%.2f ms", value * 1e3)
    default: return String(format: "%.2f s", value)
    }
  }
}
