/// The union of intervals per target (a group, a category, the device), split into days.
///
/// Intervals must arrive in order of start. Each target keeps one open merged interval; an
/// interval that starts after it closes it, and the closed interval is credited, day by day, to
/// the target. Because a target's merged intervals close in time order, its credits arrive in
/// day order, so one pending credit per target suffices and the output needs no hashing.
struct UnionLevel {
  /// Time credited to one target on one day of the table.
  struct Credit {
    var day: Int32
    var target: Int32
    var amount: Int64
  }

  private var openStart: [Int64]
  private var openEnd: [Int64]
  private var pendingDay: [Int32]
  private var pendingAmount: [Int64]
  private(set) var credits: [Credit] = []

  init(targets: Int) {
    openStart = Array(repeating: 0, count: targets)
    openEnd = Array(repeating: .min, count: targets)
    pendingDay = Array(repeating: -1, count: targets)
    pendingAmount = Array(repeating: 0, count: targets)
  }

  mutating func add(target: Int, start: Int64, end: Int64, table: DayBoundaryTable) {
    if start <= openEnd[target] {
      if end > openEnd[target] { openEnd[target] = end }
    } else {
      close(target: target, table: table)
      openStart[target] = start
      openEnd[target] = end
    }
  }

  mutating func finish(table: DayBoundaryTable) {
    for target in openEnd.indices {
      close(target: target, table: table)
      if pendingDay[target] >= 0 {
        credits.append(
          Credit(day: pendingDay[target], target: Int32(target), amount: pendingAmount[target]))
        pendingDay[target] = -1
      }
    }
  }

  private mutating func close(target: Int, table: DayBoundaryTable) {
    let end = openEnd[target]
    guard end != .min else { return }
    openEnd[target] = .min
    var start = openStart[target]
    // The table spans every record, so the start always has a day.
    guard var day = table.index(containing: start) else { return }
    while start < end {
      let dayEnd = table.startInstant(at: day + 1)
      let pieceEnd = min(end, dayEnd)
      if pieceEnd > start { credit(target: target, day: Int32(day), amount: pieceEnd - start) }
      start = pieceEnd
      day += 1
    }
  }

  private mutating func credit(target: Int, day: Int32, amount: Int64) {
    if pendingDay[target] == day {
      pendingAmount[target] += amount
    } else {
      if pendingDay[target] >= 0 {
        credits.append(
          Credit(day: pendingDay[target], target: Int32(target), amount: pendingAmount[target]))
      }
      pendingDay[target] = day
      pendingAmount[target] = amount
    }
  }
}
