import Foundation
import SignalValues
import UsageModel

/// The sweep behind ``GapDetector``: evidence is gathered as intervals inside the windows, then
/// one pass over their sorted ends classifies each elementary segment and accounts for it.
struct GapSweep {
  let start: Int64
  let end: Int64
  /// The windows of expected tracking, clipped to the period, sorted and disjoint.
  let windows: [ClosedRange<Int64>]
  private let expected: [ExpectedWindow]
  let gapAfter: Int64
  let usageGapAfter: Int64
  private var evidence: [GapEvidence] = []
  private var coverage: [ClosedRange<Int64>] = []

  init(
    start: Int64, end: Int64, windows: [ExpectedWindow], gapAfter: Int64, usageGapAfter: Int64
  ) {
    self.start = start
    self.end = end
    self.windows = windows.map(\.range)
    expected = windows
    self.gapAfter = gapAfter
    self.usageGapAfter = usageGapAfter
  }

  // MARK: - Evidence

  /// Finds the heartbeat silences of each window, judged over the whole window (see
  /// `ExpectedWindow`) and clipped to the period.
  mutating func addHeartbeats(_ instants: [Int64]) {
    var instants = instants
    if !instants.isSorted() { instants.sort() }
    for window in expected {
      // The last sign of life at or before the window's start.
      var index = instants.partitionPoint { $0 > window.low }
      var previous = index > 0 ? instants[index - 1] : nil
      if let began = window.beganAt { previous = max(previous ?? began, began) }
      var reachedEnd = false
      while index < instants.count, instants[index] <= window.reachesTo {
        let beat = instants[index]
        addSilence(from: previous, to: beat, in: window)
        previous = beat
        index += 1
        if beat >= window.high {
          reachedEnd = true
          break
        }
      }
      if !reachedEnd { addSilence(from: previous, to: window.reachesTo, in: window) }
    }
  }

  /// Records the pause from `previous` (`nil`: no sign of life ever) to `next` when it is
  /// longer than the threshold, clipped to `window`.
  private mutating func addSilence(from previous: Int64?, to next: Int64, in window: ExpectedWindow)
  {
    if let previous, next - previous <= gapAfter { return }
    let low = max(previous ?? window.low, window.low)
    let high = min(next, window.high)
    guard high > low else { return }
    evidence.append(GapEvidence(kind: .heartbeatSilence, start: low, end: high))
  }

  mutating func addUsage(_ records: [UsageRecord]) {
    // An empty record counts nothing, so it is no sign of use either: kept, it would split a
    // pause into shorter ones, each under the threshold.
    var spans = records.map { record in
      TimeValues.bounds(of: DateInterval(start: record.start, end: record.end))
    }
    .filter { $0.end > $0.start }
    spans.sort { $0.start < $1.start }
    var union: [ClosedRange<Int64>] = []
    for span in spans {
      if let last = union.last, span.start <= last.upperBound {
        union[union.count - 1] = last.lowerBound...max(last.upperBound, span.end)
      } else {
        union.append(span.start...span.end)
      }
    }
    for (previous, next) in zip(union, union.dropFirst())
    where next.lowerBound - previous.upperBound > usageGapAfter {
      Self.clip(previous.upperBound, next.lowerBound, to: windows) { low, high in
        evidence.append(GapEvidence(kind: .usageSilence, start: low, end: high))
      }
    }
    for span in union {
      Self.clip(span.lowerBound, span.upperBound, to: windows) { low, high in
        coverage.append(low...high)
      }
    }
  }

  mutating func addMissedSequences(_ missed: [SequenceLoss]) {
    for hole in missed {
      Self.clip(hole.afterInstant, hole.beforeInstant, to: windows) { low, high in
        evidence.append(
          GapEvidence(
            kind: .missedSequence, start: low, end: high, missed: hole.range))
      }
    }
  }

  /// Calls `body` with each non-empty piece of `[low, high]` inside one of `windows`.
  ///
  /// Static, so that a body appending to this sweep's arrays does not share them with a copy of
  /// the sweep (which would copy them at every append).
  private static func clip(
    _ low: Int64, _ high: Int64, to windows: [ClosedRange<Int64>], _ body: (Int64, Int64) -> Void
  ) {
    var index = windows.partitionPoint { $0.upperBound > low }
    while index < windows.count, windows[index].lowerBound < high {
      let pieceLow = max(low, windows[index].lowerBound)
      let pieceHigh = min(high, windows[index].upperBound)
      if pieceHigh > pieceLow { body(pieceLow, pieceHigh) }
      index += 1
    }
  }

  // MARK: - The sweep

  private enum Mark: Int {
    case usage = 0
    case heartbeatSilence
    case missedSequence
    case usageSilence
    case window
    case dayStart
  }

  private struct Event {
    var time: Int64
    var mark: Mark
    var delta: Int
  }

  /// Classifies every segment and returns the gaps (evidence attached) and the accounting.
  func run(dayStarts: [(LocalDay, Int64)]) -> ([Gap], [DayAccounting]) {
    var events: [Event] = []
    events.reserveCapacity(2 * (windows.count + coverage.count + evidence.count) + dayStarts.count)
    for window in windows {
      events.append(Event(time: window.lowerBound, mark: .window, delta: 1))
      events.append(Event(time: window.upperBound, mark: .window, delta: -1))
    }
    for span in coverage {
      events.append(Event(time: span.lowerBound, mark: .usage, delta: 1))
      events.append(Event(time: span.upperBound, mark: .usage, delta: -1))
    }
    for item in evidence {
      let mark: Mark
      switch item.kind {
      case .heartbeatSilence: mark = .heartbeatSilence
      case .usageSilence: mark = .usageSilence
      case .missedSequence: mark = .missedSequence
      }
      events.append(Event(time: item.startInstant, mark: mark, delta: 1))
      events.append(Event(time: item.endInstant, mark: mark, delta: -1))
    }
    for (_, dayStart) in dayStarts.dropFirst() {
      events.append(Event(time: dayStart, mark: .dayStart, delta: 0))
    }
    events.sort { $0.time < $1.time }

    var counts = [0, 0, 0, 0, 0]
    var gaps: [(classification: GapClass, start: Int64, end: Int64)] = []
    var days = dayStarts.map { ($0.0, [WindowAccounting]()) }
    var dayIndex = 0
    var piece: (start: Int64, tracked: Int64, idle: Int64, unknown: Int64)?
    var index = 0
    while index < events.count {
      let time = events[index].time
      var closesPiece = false
      while index < events.count, events[index].time == time {
        let event = events[index]
        if event.mark == .dayStart {
          closesPiece = true
        } else {
          if event.mark == .window, event.delta < 0 { closesPiece = true }
          counts[event.mark.rawValue] += event.delta
        }
        index += 1
      }
      if closesPiece, let open = piece {
        if time > open.start {
          days[dayIndex].1.append(
            WindowAccounting(
              start: open.start, end: time, tracked: open.tracked, idle: open.idle,
              unknown: open.unknown))
        }
        piece = nil
      }
      while dayIndex + 1 < dayStarts.count, dayStarts[dayIndex + 1].1 <= time { dayIndex += 1 }
      guard counts[Mark.window.rawValue] > 0, index < events.count else { continue }
      if piece == nil { piece = (time, 0, 0, 0) }
      let next = events[index].time
      let length = next - time
      guard length > 0 else { continue }
      let classification: GapClass?
      if counts[Mark.usage.rawValue] > 0 {
        piece?.tracked += length
        classification = nil
      } else if counts[Mark.heartbeatSilence.rawValue] > 0 {
        piece?.unknown += length
        classification = .trackerDown
      } else if counts[Mark.missedSequence.rawValue] > 0 {
        piece?.unknown += length
        classification = .notificationLoss
      } else {
        piece?.idle += length
        classification = counts[Mark.usageSilence.rawValue] > 0 ? .idle : nil
      }
      guard let classification else { continue }
      if let last = gaps.last, last.classification == classification, last.end == time {
        gaps[gaps.count - 1].end = next
      } else {
        gaps.append((classification, time, next))
      }
    }
    return (attachEvidence(to: gaps), days.map { DayAccounting(unchecked: $0.0, windows: $0.1) })
  }

  /// Attaches to each gap every piece of evidence that overlaps it, in order of start.
  ///
  /// Evidence is walked sorted by start; the first gap it reaches is found by binary search
  /// (gaps are sorted and disjoint, so their ends ascend too), and it is attached while the gaps
  /// start before it ends: O(*e* log *g* + attachments), whatever the evidence's lengths.
  private func attachEvidence(
    to gaps: [(classification: GapClass, start: Int64, end: Int64)]
  ) -> [Gap] {
    let sorted = evidence.sorted {
      ($0.startInstant, $0.endInstant) < ($1.startInstant, $1.endInstant)
    }
    var attached = [[GapEvidence]](repeating: [], count: gaps.count)
    for item in sorted {
      var index = gaps.partitionPoint { $0.end > item.startInstant }
      while index < gaps.count, gaps[index].start < item.endInstant {
        attached[index].append(item)
        index += 1
      }
    }
    return zip(gaps, attached).map { gap, evidence in
      Gap(
        classification: gap.classification, start: gap.start, end: gap.end, evidence: evidence,
        isOngoing: false)
    }
  }
}

extension Array where Element == Int64 {
  /// Whether the values never decrease.
  fileprivate func isSorted() -> Bool {
    var previous = Int64.min
    for value in self {
      if value < previous { return false }
      previous = value
    }
    return true
  }
}

extension RandomAccessCollection {
  /// The index of the first element for which `belongsInSecondPartition` is true, in a
  /// collection partitioned by it (binary search).
  func partitionPoint(where belongsInSecondPartition: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if belongsInSecondPartition(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
