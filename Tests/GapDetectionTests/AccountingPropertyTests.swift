import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// The detector against a reference that classifies every second one by one.
@Suite("Gap accounting property")
struct AccountingPropertyTests {
  /// A random scenario on whole seconds, so that a per-second reference is exact.
  struct Scenario {
    var start: Int64
    var length: Int64
    var now: Int64
    var windows: [ClosedRange<Int64>]?
    var beats: [Int64]
    var records: [ClosedRange<Int64>]
    var missed: [ClosedRange<Int64>]

    init(seed: UInt64) {
      var random = SeededGenerator(seed: seed)
      let start = 1_772_928_000 + Int64.random(in: 0...80_000, using: &random)
      let length = Int64.random(in: 600...20_000, using: &random)
      self.start = start
      self.length = length
      now = start + Int64.random(in: length / 2...length + 600, using: &random)
      windows = nil
      if Bool.random(using: &random) {
        windows = (0..<Int.random(in: 0...3, using: &random)).map { _ in
          let low = start + Int64.random(in: -600...length, using: &random)
          return low...(low + Int64.random(in: 0...8_000, using: &random))
        }
      }
      var beats: [Int64] = []
      // Mostly from before the period; sometimes only after its start.
      var time = start + Int64.random(in: -900...120, using: &random)
      while time < start + length + 600 {
        beats.append(time)
        time +=
          Int.random(in: 0..<12, using: &random) == 0
          ? Int64.random(in: 200...2_000, using: &random) : Int64.random(in: 5...60, using: &random)
      }
      beats.shuffle(using: &random)
      self.beats = beats
      records = (0..<Int.random(in: 0...10, using: &random)).map { _ in
        let low = start + Int64.random(in: -1_000...length, using: &random)
        return low...(low + Int64.random(in: 0...1_500, using: &random))
      }
      missed = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        let low = start + Int64.random(in: 0...length, using: &random)
        return low...(low + Int64.random(in: 0...1_200, using: &random))
      }
    }

    var end: Int64 { min(start + length, now) }
  }

  /// What the reference finds: per-second classes folded into gaps, and totals per UTC day.
  struct Expected: Equatable {
    var gaps: [[Int64]]
    var days: [[Int64]]
  }

  static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

  static func union(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
    var merged: [ClosedRange<Int64>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }

  /// Classes: 0 tracked, 1 tracker down, 2 notification loss, 3 idle gap, 4 idle, -1 outside.
  static func reference(_ scenario: Scenario) -> Expected {
    let start = scenario.start
    let end = scenario.end
    guard end > start else { return Expected(gaps: [], days: []) }
    let windows = union(scenario.windows ?? [start...end]).compactMap {
      window -> ClosedRange<Int64>? in
      let low = max(window.lowerBound, start)
      let high = min(window.upperBound, end)
      return high > low ? low...high : nil
    }
    let count = Int(end - start)
    var inWindow = [Bool](repeating: false, count: count)
    var silent = inWindow
    var covered = inWindow
    var quiet = inWindow
    var lost = inWindow
    func mark(_ flags: inout [Bool], _ low: Int64, _ high: Int64) {
      var second = max(low, start)
      while second < min(high, end) {
        flags[Int(second - start)] = true
        second += 1
      }
    }
    for window in windows { mark(&inWindow, window.lowerBound, window.upperBound) }
    // Heartbeat silence is judged over each whole window, not the part inside the period: an
    // interval begins monitoring at its start (a point of life); `always` never began, so the
    // time before its first heartbeat is silent. A window reaches as far as `now`.
    let beats = scenario.beats.sorted()
    let whole: [(begins: Int64?, ends: Int64)] =
      scenario.windows.map { union($0).map { ($0.lowerBound, $0.upperBound) } }
      ?? [(nil, Int64.max)]
    for window in whole {
      let reach = min(window.ends, scenario.now)
      let inside = beats.filter { beat in beat >= (window.begins ?? Int64.min) && beat <= reach }
      let points: [Int64?] = [window.begins] + inside + [reach]
      for (previous, next) in zip(points, points.dropFirst()) {
        guard let next else { continue }
        if let previous, next - previous <= 300 { continue }
        mark(&silent, previous ?? Int64.min, next)
      }
    }
    let records = union(scenario.records)
    for record in records { mark(&covered, record.lowerBound, record.upperBound) }
    for (previous, next) in zip(records, records.dropFirst())
    where next.lowerBound - previous.upperBound > 600 {
      mark(&quiet, previous.upperBound, next.lowerBound)
    }
    for hole in scenario.missed { mark(&lost, hole.lowerBound, hole.upperBound) }

    var gaps: [[Int64]] = []
    var days: [Int64: [Int64]] = [:]
    for index in 0..<count where inWindow[index] {
      let second = start + Int64(index)
      let kind: Int64 =
        covered[index] ? 0 : silent[index] ? 1 : lost[index] ? 2 : quiet[index] ? 3 : 4
      let day = second - ((second % 86_400) + 86_400) % 86_400
      var totals = days[day] ?? [0, 0, 0]
      totals[kind == 0 ? 0 : kind == 1 || kind == 2 ? 2 : 1] += 1
      days[day] = totals
      guard (1...3).contains(kind) else { continue }
      if let last = gaps.last, last[0] == kind, last[2] == second {
        gaps[gaps.count - 1][2] = second + 1
      } else {
        gaps.append([kind, second, second + 1])
      }
    }
    return Expected(gaps: gaps, days: days.keys.sorted().map { [$0] + (days[$0] ?? []) })
  }

  /// The detector's report of `scenario` over `[from, to)`.
  static func report(_ scenario: Scenario, from: Int64, to: Int64) throws -> GapReport {
    let utc = try #require(TimeZone(identifier: "UTC"))
    let expectation =
      scenario.windows.map { windows in
        TrackingExpectation.intervals(
          windows.map { DateInterval(start: date($0.lowerBound), end: date($0.upperBound)) })
      } ?? .always
    let detector = GapDetector(boundary: DayBoundary(timeZone: utc), expectation: expectation)
    let app = try AppID("com.example.app")
    return detector.report(
      period: DateInterval(start: date(from), end: date(to)), now: date(scenario.now),
      heartbeats: try scenario.beats.map { try Heartbeat(at: date($0), source: .monitorExtension) },
      usage: try scenario.records.map {
        try UsageRecord(
          app: app, start: date($0.lowerBound), end: date($0.upperBound), source: .heartbeat)
      },
      missedSequences: try scenario.missed.map {
        try loss(1...1, after: date($0.lowerBound), before: date($0.upperBound))
      })
  }

  static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded()) }

  static func observed(_ scenario: Scenario) throws -> Expected {
    let report = try report(scenario, from: scenario.start, to: scenario.start + scenario.length)
    func whole(_ duration: Duration) -> Int64 { duration.components.seconds }
    let kinds: [GapClass: Int64] = [.trackerDown: 1, .notificationLoss: 2, .idle: 3]
    for day in report.days {
      for window in day.windows {
        #expect(window.tracked + window.idle + window.unknown == window.duration)
      }
    }
    return Expected(
      gaps: report.gaps.map {
        [kinds[$0.classification] ?? 0, seconds($0.start), seconds($0.end)]
      },
      days: report.days.filter { !$0.windows.isEmpty }.map { day in
        [
          seconds(day.windows[0].start) - ((seconds(day.windows[0].start) % 86_400) + 86_400)
            % 86_400,
          whole(day.tracked), whole(day.idle), whole(day.unknown),
        ]
      })
  }

  @Test("gaps and the daily accounting equal a second-by-second reference", arguments: 0..<8)
  func matchesReference(batch: Int) throws {
    var kinds = Set<Int64>()
    for seed in 0..<40 {
      let scenario = Scenario(seed: UInt64(batch * 1000 + seed))
      let expected = Self.reference(scenario)
      let observed = try Self.observed(scenario)
      #expect(observed == expected, "seed \(batch * 1000 + seed)")
      if observed != expected { return }
      kinds.formUnion(expected.gaps.map { $0[0] })
    }
    #expect(kinds == [1, 2, 3], "the scenarios exercise every class of gap")
  }

  /// The gaps of consecutive reports as `[class, start, end]`, joined where one continues the
  /// other.
  static func joined(_ reports: [GapReport]) -> [[Int64]] {
    let kinds: [GapClass: Int64] = [.trackerDown: 1, .notificationLoss: 2, .idle: 3]
    var gaps: [[Int64]] = []
    for gap in reports.flatMap(\.gaps) {
      let next = [kinds[gap.classification] ?? 0, seconds(gap.start), seconds(gap.end)]
      if let last = gaps.last, last[0] == next[0], last[2] == next[1] {
        gaps[gaps.count - 1][2] = next[2]
      } else {
        gaps.append(next)
      }
    }
    return gaps
  }

  @Test("two reports that split a period find what one report over it finds", arguments: 0..<4)
  func splittingThePeriodChangesNothing(batch: Int) throws {
    var random = SeededGenerator(seed: UInt64(0x5B11 + batch))
    var splitGaps = 0
    for seed in 0..<40 {
      let scenario = Scenario(seed: UInt64(batch * 1000 + seed + 500))
      let end = scenario.start + scenario.length
      let split = scenario.start + Int64.random(in: 1..<scenario.length, using: &random)
      let whole = try Self.report(scenario, from: scenario.start, to: end)
      let parts = [
        try Self.report(scenario, from: scenario.start, to: split),
        try Self.report(scenario, from: split, to: end),
      ]
      let label = "seed \(batch * 1000 + seed + 500), split at \(split - scenario.start) s"
      #expect(Self.joined(parts) == Self.joined([whole]), "\(label)")
      #expect(parts[0].unknown + parts[1].unknown == whole.unknown, "\(label)")
      #expect(parts[0].idle + parts[1].idle == whole.idle, "\(label)")
      #expect(parts[0].tracked + parts[1].tracked == whole.tracked, "\(label)")
      if whole.gaps.contains(where: {
        Self.seconds($0.start) < split && Self.seconds($0.end) > split
      }) {
        splitGaps += 1
      }
    }
    #expect(splitGaps > 3, "the splits cut through gaps")
  }

  @Test("each piece of evidence is attached to exactly the gaps it overlaps, in order of start")
  func evidenceIsAttachedWhereItOverlaps() throws {
    var attachments = 0
    for seed in 0..<60 {
      let scenario = Scenario(seed: UInt64(seed + 9000))
      let report = try Self.report(
        scenario, from: scenario.start, to: scenario.start + scenario.length)
      let all = Set(report.gaps.flatMap(\.evidence))
      for gap in report.gaps {
        let overlapping = all.filter { $0.start < gap.end && $0.end > gap.start }
        #expect(Set(gap.evidence) == overlapping, "seed \(seed + 9000), gap at \(gap.start)")
        #expect(gap.evidence.count == overlapping.count, "each piece once")
        #expect(gap.evidence.map(\.start) == gap.evidence.map(\.start).sorted())
        attachments += gap.evidence.count
      }
    }
    #expect(attachments > 400)
  }

  @Test("the control: a reference that ignores heartbeat silence disagrees")
  func controlCatchesABrokenRule() throws {
    var disagreements = 0
    for seed in 0..<40 {
      var scenario = Scenario(seed: UInt64(seed))
      let observed = try Self.observed(scenario)
      scenario.beats = Array(
        stride(from: scenario.start - 600, to: scenario.start + scenario.length + 600, by: 30))
      if Self.reference(scenario) != observed { disagreements += 1 }
    }
    #expect(disagreements > 10)
  }
}
