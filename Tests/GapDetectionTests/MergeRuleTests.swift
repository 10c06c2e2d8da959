import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing

/// ActivityWatch's merge rule at each boundary, and the adaptive pulse time.
@Suite("Heartbeat merging")
struct MergeRuleTests {
  let base = Date(timeIntervalSince1970: 1_772_960_400)

  /// Merges `(seconds after base, duration in seconds, data)` heartbeats.
  func merge(
    _ beats: [(Double, Double, String)], pulse: PulseTime = .fixed(.seconds(30))
  ) throws -> [ActivityInterval<String>] {
    var merger = HeartbeatMerger<String>(pulseTime: pulse)
    var closed: [ActivityInterval<String>] = []
    for (offset, duration, data) in beats {
      if let interval = try merger.add(
        at: base.addingTimeInterval(offset),
        duration: .milliseconds(Int64((duration * 1000).rounded())), data: data)
      {
        closed.append(interval)
      }
    }
    if let last = merger.finish() { closed.append(last) }
    return closed
  }

  /// The intervals as `[start, end]` in seconds after `base`, exact to the millisecond.
  func spans(_ intervals: [ActivityInterval<String>]) -> [[Double]] {
    intervals.map { interval in
      [interval.start, interval.end].map {
        (($0.timeIntervalSince(base)) * 1000).rounded() / 1000
      }
    }
  }

  @Test("a heartbeat exactly at last.end + pulse time merges")
  func exactlyAtPulseMerges() throws {
    let merged = try merge([(0, 10, "a"), (40, 0, "a")])
    #expect(spans(merged) == [[0, 40]])
    #expect(merged.first?.heartbeatCount == 2)
  }

  @Test("a heartbeat one millisecond past last.end + pulse time starts a new interval")
  func justPastPulseStartsAnew() throws {
    #expect(spans(try merge([(0, 10, "a"), (40.001, 0, "a")])) == [[0, 10], [40.001, 40.001]])
  }

  @Test("a heartbeat at the same start with equal data merges and never shortens")
  func equalStartMerges() throws {
    #expect(spans(try merge([(0, 10, "a"), (0, 0, "a")])) == [[0, 10]])
    #expect(spans(try merge([(0, 10, "a"), (0, 25, "a")])) == [[0, 25]])
    #expect(spans(try merge([(0, 10, "a"), (2, 1, "a")])) == [[0, 10]])
  }

  @Test("different data starts a new interval, even at the same instant")
  func differentDataStartsAnew() throws {
    let merged = try merge([(0, 0, "a"), (0, 0, "b"), (5, 0, "a")])
    #expect(merged.map(\.data) == ["a", "b", "a"])
  }

  @Test("a heartbeat before the interval's start starts a new interval")
  func outOfOrderStartsAnew() throws {
    #expect(spans(try merge([(10, 0, "a"), (9.999, 0, "a")])) == [[10, 10], [9.999, 9.999]])
  }

  @Test("with a zero pulse time only touching or overlapping heartbeats merge")
  func zeroPulse() throws {
    let merged = try merge([(0, 5, "a"), (5, 5, "a"), (10.001, 1, "a")], pulse: .fixed(.zero))
    #expect(spans(merged) == [[0, 10], [10.001, 11.001]])
  }

  @Test("invalid adaptive pulse times are refused")
  func invalidAdaptivePulse() throws {
    #expect(throws: GapDetectionError.self) {
      try AdaptivePulseTime(initial: .seconds(600), ceiling: .seconds(300))
    }
    #expect(throws: GapDetectionError.self) { try AdaptivePulseTime(percentOfMedian: 99) }
    #expect(throws: GapDetectionError.self) { try AdaptivePulseTime(sampleCount: 0) }
    #expect(throws: GapDetectionError.self) {
      try AdaptivePulseTime(sampleCount: 4, minimumSamples: 5)
    }
  }

  // MARK: - Every fixed pulse time is valid

  @Test("a fixed pulse time is used to the nearest millisecond, halves away from zero")
  func fixedPulseIsRoundedToTheMillisecond() throws {
    let beats: [(Double, Double, String)] = [(0, 10, "a"), (40, 0, "a")]
    for (pulse, merges) in [
      (Duration.microseconds(29_999_500), true), (.microseconds(29_999_499), false),
      (.nanoseconds(29_999_999_999), true),
    ] {
      let merger = HeartbeatMerger<String>(pulseTime: .fixed(pulse))
      #expect(merger.currentPulseTime == (merges ? .seconds(30) : .milliseconds(29_999)))
      #expect(try merge(beats, pulse: .fixed(pulse)).count == (merges ? 1 : 2), "\(pulse)")
    }
    #expect(try json(PulseTime.fixed(.microseconds(30_000_400))) == #"{"fixedMs":30000}"#)
  }

  @Test("a negative pulse time merges only heartbeats that start that long before the end")
  func negativePulseFollowsTheRule() throws {
    let pulse = PulseTime.fixed(.seconds(-2))
    #expect(spans(try merge([(0, 10, "a"), (8, 5, "a")], pulse: pulse)) == [[0, 13]])
    #expect(
      spans(try merge([(0, 10, "a"), (8.001, 5, "a")], pulse: pulse)) == [
        [0, 10], [8.001, 13.001],
      ])
    #expect(try json(pulse) == #"{"fixedMs":-2000}"#)
    #expect(try decode(PulseTime.self, #"{"fixedMs":-2000}"#) == pulse)
  }

  @Test("a pulse time longer than the supported instants are apart merges everything in reach")
  func hugePulseMergesEverything() throws {
    let beats: [(Double, Double, String)] = [(-60_000_000_000, 0, "a"), (250_000_000_000, 0, "a")]
    for pulse in [Duration.seconds(Int64.max), .seconds(400_000_000_000)] {
      #expect(try merge(beats, pulse: .fixed(pulse)).count == 1, "\(pulse)")
    }
    #expect(try merge(beats, pulse: .fixed(.seconds(Int64.min))).count == 2)
    #expect(try merge(beats, pulse: .fixed(.seconds(365 * 86_400))).count == 2, "the control")
  }

  @Test("without a pulse time a merger uses the standard adaptive one")
  func defaultPulseIsStandardAdaptive() throws {
    #expect(HeartbeatMerger<String>().pulseTime == .adaptive(.standard))
    let beats = try heartbeats(from: base, to: base.addingTimeInterval(3600), every: 30)
    #expect(
      HeartbeatMerger.merge(beats) == HeartbeatMerger.merge(beats, pulseTime: .adaptive(.standard)))
  }

  // MARK: - Heartbeat durations

  @Test("a heartbeat's duration is rounded to the millisecond as its start is")
  func durationIsRoundedToTheMillisecond() throws {
    var merger = HeartbeatMerger<String>(pulseTime: .fixed(.zero))
    _ = try merger.add(at: base, duration: .microseconds(600), data: "a")
    #expect(merger.openInterval?.duration == .milliseconds(1))
    _ = try merger.add(at: base.addingTimeInterval(10), duration: .microseconds(400), data: "b")
    #expect(merger.openInterval?.duration == .zero)
    _ = try merger.add(
      at: base.addingTimeInterval(20.000_4), duration: .microseconds(1_500), data: "c")
    #expect(merger.openInterval?.start == base.addingTimeInterval(20))
    #expect(merger.openInterval?.duration == .milliseconds(2))
  }

  @Test("a negative duration, or one ending after 9999-12-29, is refused and changes nothing")
  func invalidDurationIsRefused() throws {
    var merger = HeartbeatMerger<String>(pulseTime: .fixed(.seconds(30)))
    _ = try merger.add(at: base, duration: .seconds(5), data: "a")
    let before = merger.openInterval
    #expect(throws: GapDetectionError.self) {
      try merger.add(at: base, duration: .nanoseconds(-1), data: "a")
    }
    #expect(throws: GapDetectionError.self) {
      try merger.add(at: base, duration: .seconds(Int64.max), data: "a")
    }
    #expect(merger.openInterval == before)
  }

  // MARK: - Adaptive pulse time

  /// Heartbeats 30 s ± 20 % apart (uniform, whole milliseconds) for `count` beats.
  func jitteredStream(count: Int, seed: UInt64) -> [(Double, Double, String)] {
    var random = SeededGenerator(seed: seed)
    var time = 0.0
    var beats: [(Double, Double, String)] = []
    for _ in 0..<count {
      beats.append((time, 0, "app"))
      time += Double(Int.random(in: 24_000...36_000, using: &random)) / 1000
    }
    return beats
  }

  func lostTime(_ intervals: [ActivityInterval<String>], over beats: [(Double, Double, String)])
    -> Double
  {
    let covered = intervals.reduce(0.0) { $0 + $1.end.timeIntervalSince($1.start) }
    return (beats.last?.0 ?? 0) - (beats.first?.0 ?? 0) - covered
  }

  @Test(
    "under ±20 % jitter the adaptive pulse time loses no time while a fixed 31 s one does",
    arguments: [1, 2, 3, 4] as [UInt64])
  func adaptiveLosesNothingUnderJitter(seed: UInt64) throws {
    let beats = jitteredStream(count: 2_880, seed: seed)
    let adaptive = try merge(beats, pulse: .adaptive(.standard))
    #expect(adaptive.count == 1)
    #expect(abs(lostTime(adaptive, over: beats)) < 0.000_5)
    let fixed = try merge(beats, pulse: .fixed(.seconds(31)))
    #expect(fixed.count > 100, "the control: a fixed 31 s pulse time splits the stream")
    #expect(lostTime(fixed, over: beats) > 600)
  }

  @Test("the adaptive pulse time does not bridge a tracker that was down for ten minutes")
  func adaptiveStillFindsSilence() throws {
    var beats = jitteredStream(count: 200, seed: 9)
    let resume = (beats.last?.0 ?? 0) + 600
    beats += jitteredStream(count: 50, seed: 10).map { ($0.0 + resume, $0.1, $0.2) }
    let merged = try merge(beats, pulse: .adaptive(.standard))
    #expect(merged.count == 2)
  }

  @Test("the adaptive pulse time follows a change of cadence within half a window")
  func adaptiveFollowsCadence() throws {
    var merger = HeartbeatMerger<String>(pulseTime: .adaptive(.standard))
    #expect(merger.currentPulseTime == .seconds(60))
    var time = base
    for _ in 0..<20 {
      _ = try merger.add(at: time, data: "a")
      time = time.addingTimeInterval(30)
    }
    #expect(merger.currentPulseTime == .seconds(45))
    for _ in 0..<9 {
      _ = try merger.add(at: time, data: "a")
      time = time.addingTimeInterval(120)
    }
    #expect(merger.currentPulseTime == .seconds(180))
  }

  @Test("the adaptive pulse time and its merges equal a reference that sorts every time")
  func adaptiveMatchesReference() throws {
    var random = SeededGenerator(seed: 0xADA9)
    var merges = 0
    for round in 0..<30 {
      let sampleCount = Int.random(in: 1...20, using: &random)
      let policy = try AdaptivePulseTime(
        initial: .seconds(Int64.random(in: 1...100, using: &random)),
        percentOfMedian: Int.random(in: 100...400, using: &random), floor: .seconds(1),
        ceiling: .seconds(400), sampleCount: sampleCount,
        minimumSamples: Int.random(in: 1...sampleCount, using: &random))
      var merger = HeartbeatMerger<Int>(pulseTime: .adaptive(policy))
      var samples: [Int64] = []
      var previous: Int64?
      var open: (start: Int64, end: Int64)?
      var time: Int64 = 1_772_960_400_000
      for step in 0..<300 {
        let pulse: Int64
        if samples.count < policy.minimumSamples {
          pulse = Int64(policy.initial.components.seconds * 1000)
        } else {
          let window = samples.suffix(sampleCount).sorted()
          let median = window[(window.count - 1) / 2]
          pulse = min(max(median * Int64(policy.percentOfMedian) / 100, 1_000), 400_000)
        }
        #expect(merger.currentPulseTime == .milliseconds(pulse), "round \(round), step \(step)")
        time += Int64.random(in: -2_000...90_000, using: &random)
        let duration = Int64.random(in: 0...3, using: &random) * 1_000
        let closed = try merger.add(
          at: Date(timeIntervalSince1970: Double(time) / 1000), duration: .milliseconds(duration),
          data: 0)
        if let current = open, time >= current.start, time <= current.end + pulse {
          open = (current.start, max(current.end, time + duration))
          #expect(closed == nil, "round \(round), step \(step): the reference merges")
          merges += 1
        } else {
          #expect(
            closed != nil || open == nil, "round \(round), step \(step): the reference splits")
          open = (time, time + duration)
        }
        if let previous, time > previous { samples.append(time - previous) }
        previous = time
      }
    }
    #expect(merges > 1_000)
  }

  @Test("a tracker's heartbeats merge into alive intervals per source")
  func heartbeatsMergePerSource() throws {
    let monitor =
      try heartbeats(from: base, to: base.addingTimeInterval(300), every: 30)
      + heartbeats(
        from: base.addingTimeInterval(1000), to: base.addingTimeInterval(1100), every: 50)
    let app = try heartbeats(
      from: base.addingTimeInterval(15), to: base.addingTimeInterval(1015), every: 40,
      source: .app)
    // Interleaved by instant, as a merged store listing would give them.
    let beats = (monitor + app).sorted { ($0.at, $0.source) < ($1.at, $1.source) }
    let merged = HeartbeatMerger.merge(beats, pulseTime: .fixed(.seconds(60)))
    let mine = merged.filter { $0.data == .monitorExtension }
    #expect(mine.map(\.heartbeatCount) == [11, 3])
    #expect(mine.first?.duration == .seconds(300))
    let theirs = merged.filter { $0.data == .app }
    #expect(theirs.map(\.heartbeatCount) == [26])
    #expect(theirs.first?.duration == .seconds(1000))
    #expect(merged.count == 3)
  }

  @Test("two sources beating at the same instants give one interval each")
  func interleavedSourcesGiveOneIntervalEach() throws {
    let beats =
      try heartbeats(from: base, to: base.addingTimeInterval(300), every: 30)
      + heartbeats(from: base, to: base.addingTimeInterval(300), every: 30, source: .app)
    let interleaved = beats.sorted { ($0.at, $0.source) < ($1.at, $1.source) }
    let merged = HeartbeatMerger.merge(interleaved, pulseTime: .fixed(.seconds(60)))
    #expect(merged.map(\.data) == [.app, .monitorExtension])
    #expect(merged.map(\.duration) == [.seconds(300), .seconds(300)])
  }

  @Test("pulse times encode as documented")
  func pulseJSON() throws {
    #expect(try json(PulseTime.fixed(.seconds(31))) == #"{"fixedMs":31000}"#)
    let adaptive =
      #"{"adaptive":{"ceilingMs":300000,"floorMs":1000,"initialMs":60000,"minimumSamples":3,"#
      + #""percentOfMedian":150,"sampleCount":15}}"#
    #expect(try json(PulseTime.adaptive(.standard)) == adaptive)
    #expect(try decode(PulseTime.self, adaptive) == .adaptive(.standard))
    #expect(throws: DecodingError.self) { try decode(PulseTime.self, #"{}"#) }
    let standard =
      #"{"ceilingMs":300000,"floorMs":1000,"initialMs":60000,"minimumSamples":3,"#
      + #""percentOfMedian":150,"sampleCount":15}"#
    for (from, to, key) in [
      ("\"sampleCount\":15", "\"sampleCount\":0", "sampleCount"),
      ("\"minimumSamples\":3", "\"minimumSamples\":16", "minimumSamples"),
      ("\"percentOfMedian\":150", "\"percentOfMedian\":99", "percentOfMedian"),
      ("\"ceilingMs\":300000", "\"ceilingMs\":999", "ceilingMs"),
      ("\"floorMs\":1000", "\"floorMs\":-1", "floorMs"),
      ("\"initialMs\":60000", "\"initialMs\":600000", "initialMs"),
    ] {
      let text = standard.replacingOccurrences(of: from, with: to)
      #expect(codingKey(of: try decodingError(AdaptivePulseTime.self, text)) == key, "\(to)")
    }
  }
}
