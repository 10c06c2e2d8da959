/// The union of intervals per target (a group, a category, the device), split into days.
///
/// Intervals must arrive in order of start, each with the index of the day containing its
/// start. Each target keeps one open merged interval; an interval that starts after it closes
/// it, and the closed interval is credited, day by day, to the target. Because a target's merged
/// intervals close in time order, its credits arrive in day order, so one pending credit per
/// target suffices and the output needs no hashing.
struct UnionLevel {
  /// Time credited to one target on one day of the table.
  struct Credit {
    var day: Int32
    var target: Int32
    var amount: Int64
  }

  /// The state of one target: its open merged interval and its pending credit.
  private struct Target {
    var openStart: Int64 = 0
    var openEnd: Int64 = .min
    var openDay = 0
    var pendingDay: Int32 = -1
    var pendingAmount: Int64 = 0
  }

  private var targets: [Target]
  private(set) var credits: [Credit] = []

  init(targets: Int) {
    self.targets = Array(repeating: Target(), count: targets)
  }

  /// Adds `start..<end`, whose start lies in day `day` of `table`.
  mutating func add(target: Int, start: Int64, end: Int64, day: Int, table: DayBoundaryTable) {
    // One access to the target's state per interval: a single uniqueness check of the array.
    Self.add(
      start: start, end: end, day: day, to: &targets[target], number: Int32(target),
      table: table, credits: &credits)
  }

  mutating func finish(table: DayBoundaryTable) {
    for target in targets.indices {
      Self.close(&targets[target], number: Int32(target), table: table, credits: &credits)
      Self.flushPending(&targets[target], number: Int32(target), credits: &credits)
    }
  }

  private static func add(
    start: Int64, end: Int64, day: Int, to target: inout Target, number: Int32,
    table: DayBoundaryTable, credits: inout [Credit]
  ) {
    if start <= target.openEnd {
      if end > target.openEnd { target.openEnd = end }
    } else {
      close(&target, number: number, table: table, credits: &credits)
      target.openStart = start
      target.openEnd = end
      target.openDay = day
    }
  }

  private static func close(
    _ target: inout Target, number: Int32, table: DayBoundaryTable, credits: inout [Credit]
  ) {
    let end = target.openEnd
    guard end != .min else { return }
    target.openEnd = .min
    var start = target.openStart
    var day = target.openDay
    while start < end {
      let pieceEnd = min(end, table.startInstant(at: day + 1))
      if pieceEnd > start {
        if target.pendingDay != Int32(day) {
          flushPending(&target, number: number, credits: &credits)
          target.pendingDay = Int32(day)
        }
        target.pendingAmount += pieceEnd - start
      }
      start = pieceEnd
      day += 1
    }
  }

  private static func flushPending(_ target: inout Target, number: Int32, credits: inout [Credit]) {
    guard target.pendingDay >= 0 else { return }
    credits.append(Credit(day: target.pendingDay, target: number, amount: target.pendingAmount))
    target.pendingDay = -1
    target.pendingAmount = 0
  }
}
