/// A consumer's persistable record of which numbers of a producer it has seen, which it missed,
/// and what each new number means.
///
/// Observing a number returns a ``SequenceObservation``: the first number, the next one in order,
/// a skip with the exact missing range, a duplicate, a late arrival that fills a hole, or a reset
/// (the epoch changed, or the numbering went back). ``statistics`` keeps running counts.
///
/// The tracker is a value: keep it in a `SharedStore` and observe inside one atomic update, so
/// that what was missed while the app was not running is still known after a relaunch (seed 000
/// kept its last-seen number in memory and forgot).
///
/// ```swift
/// let trackerKey = StoreKey("usage-tracker", default: SequenceTracker())
/// // On each Darwin notification: read the producer's head and observe it.
/// if let head = try counter.current() {
///   let observation = try store.update(trackerKey) { tracker in tracker.observeHead(head) }
/// }
/// ```
///
/// **Which observe method.** ``observe(_:)`` is for numbers that identify one message each —
/// delivered with their message, possibly late or twice. ``observeHead(_:)`` is for the
/// producer's latest number read at the moment of looking (Darwin notifications carry no payload,
/// so that is what an app sees); a head is never late, so a lower head means the producer went
/// back. A message number below the highest one seen is placed against what the tracker
/// remembers: a hole it fills is a late arrival, a number it has received is a duplicate, and a
/// number below the first one of the current run is a reset.
///
/// **Bounded state.** Missing numbers are kept as ranges. At most ``outstandingRangeLimit``
/// ranges stay open; beyond that the oldest is given up (counted in
/// ``SequenceStatistics/givenUp``) and a very late arrival from it would be reported as a
/// duplicate. The stored form therefore stays under a few kilobytes.
///
/// JSON form:
/// `{"counts":{"duplicates":0,"givenUp":0,"received":7,"recovered":1,"resets":0},`
/// `"run":{"epoch":"00000000000000ff","floor":1,"highest":9,"outstanding":[{"first":3,"last":4}]}}`.
/// `run` is absent before the first observation; `floor` is the lowest value the run accounts
/// for; `outstanding` lists the missing values, ascending. Decoding rejects a run that breaks
/// these rules.
public struct SequenceTracker: Hashable, Sendable {
  /// The most missing ranges kept open at once; beyond it the oldest is given up.
  public static let outstandingRangeLimit = 64

  var run: Run?
  var counts = Counts()

  /// Creates a tracker that has observed nothing.
  public init() {}

  /// The highest number of the current run, or `nil` before the first observation.
  public var latest: SequenceNumber? {
    run.map { SequenceNumber(epoch: $0.epoch, value: $0.highest) }
  }

  /// The numbers of the current run that were missed and may still arrive, ascending.
  public var outstanding: [SequenceRange] {
    guard let run else { return [] }
    return run.outstanding.map { SequenceRange(epoch: run.epoch, values: $0) }
  }

  /// The running counts, with ``SequenceStatistics/missed`` derived from ``outstanding``.
  public var statistics: SequenceStatistics {
    SequenceStatistics(
      received: counts.received, missed: run?.missedCount ?? 0, recovered: counts.recovered,
      duplicates: counts.duplicates, resets: counts.resets, givenUp: counts.givenUp)
  }

  /// Records a number that identifies one message, and says what it means.
  ///
  /// Use it for numbers that travel with their message and may be delivered late or twice.
  ///
  /// - Parameter number: The number of a message that was received.
  /// - Returns: The observation; see ``SequenceObservation``.
  /// - Complexity: O(log *r*) to find a hole among the *r* outstanding ranges, O(*r*) to fill one.
  @discardableResult
  public mutating func observe(_ number: SequenceNumber) -> SequenceObservation {
    guard var current = run else { return start(at: number) }
    guard current.epoch == number.epoch else { return restart(at: number) }
    let value = number.value
    if value > current.highest { return advance(&current, to: number) }
    if let index = current.indexOfOutstanding(containing: value) {
      current.fill(value, inRangeAt: index)
      counts.received = counts.received.addingSaturating(1)
      counts.recovered = counts.recovered.addingSaturating(1)
      keepWithinLimit(&current)
      run = current
      return .lateArrival(number)
    }
    if value >= current.floor {
      counts.duplicates = counts.duplicates.addingSaturating(1)
      return .duplicate(number)
    }
    return restart(at: number, wentBackFrom: current.highest)
  }

  /// Records the producer's latest number, read at the moment of looking, and says what it means.
  ///
  /// Use it for a head such as ``SequenceCounter/current()`` or ``OutboxHead/number`` read when a
  /// notification arrives. A head equal to the highest seen is a duplicate (nothing new since the
  /// last look); a head above it is in order or a skip; a head below it means the producer went
  /// back, a reset. Note that a head counts publications, not notifications: a notification
  /// handled after the next publication sees both, and the next one is then a duplicate.
  ///
  /// - Parameter head: The producer's most recent number.
  /// - Returns: The observation; never ``SequenceObservation/lateArrival(_:)``.
  @discardableResult
  public mutating func observeHead(_ head: SequenceNumber) -> SequenceObservation {
    guard var current = run else { return start(at: head) }
    guard current.epoch == head.epoch else { return restart(at: head) }
    if head.value > current.highest { return advance(&current, to: head) }
    if head.value == current.highest {
      counts.duplicates = counts.duplicates.addingSaturating(1)
      return .duplicate(head)
    }
    return restart(at: head, wentBackFrom: current.highest)
  }

  // MARK: - Transitions

  private mutating func start(at number: SequenceNumber) -> SequenceObservation {
    run = Run(epoch: number.epoch, floor: number.value, highest: number.value)
    counts.received = counts.received.addingSaturating(1)
    return .first(number)
  }

  private mutating func advance(_ current: inout Run, to number: SequenceNumber)
    -> SequenceObservation
  {
    let expected = current.highest + 1  // number.value > highest, so this cannot overflow
    current.highest = number.value
    counts.received = counts.received.addingSaturating(1)
    guard number.value > expected else {
      run = current
      return .inOrder(number)
    }
    let missing = expected...(number.value - 1)
    current.outstanding.append(missing)
    keepWithinLimit(&current)
    run = current
    return .skipped(number, missing: SequenceRange(epoch: number.epoch, values: missing))
  }

  /// Starts a new run after the epoch changed: the new run began at 1.
  private mutating func restart(at number: SequenceNumber) -> SequenceObservation {
    let previous = run?.epoch ?? number.epoch
    giveUpCurrentRun()
    var fresh = Run(epoch: number.epoch, floor: min(1, number.value), highest: number.value)
    var missing: SequenceRange?
    if number.value >= 2 {
      fresh.outstanding = [1...(number.value - 1)]
      missing = SequenceRange(epoch: number.epoch, values: 1...(number.value - 1))
    }
    run = fresh
    counts.received = counts.received.addingSaturating(1)
    return .reset(number, reason: .epochChanged(from: previous), missing: missing)
  }

  /// Starts a new run after the numbering went back within its epoch, from an unknown point.
  private mutating func restart(at number: SequenceNumber, wentBackFrom highest: UInt64)
    -> SequenceObservation
  {
    giveUpCurrentRun()
    run = Run(epoch: number.epoch, floor: number.value, highest: number.value)
    counts.received = counts.received.addingSaturating(1)
    return .reset(number, reason: .wentBackwards(from: highest), missing: nil)
  }

  private mutating func giveUpCurrentRun() {
    counts.givenUp = counts.givenUp.addingSaturating(run?.missedCount ?? 0)
    counts.resets = counts.resets.addingSaturating(1)
  }

  private mutating func keepWithinLimit(_ current: inout Run) {
    while current.outstanding.count > Self.outstandingRangeLimit {
      let oldest = current.outstanding.removeFirst()
      counts.givenUp = counts.givenUp.addingSaturating(Run.count(of: oldest))
    }
  }
}
