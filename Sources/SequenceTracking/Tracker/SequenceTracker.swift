import SignalValues

/// A consumer's persistable record of which numbers of a producer it has seen, which it missed,
/// and what each new number means.
///
/// Observing a number returns a ``SequenceObservation``: the first number, the next one in order,
/// a gap with the exact missing range, a duplicate, a late arrival that fills a hole, a stale
/// number from before the current run, or a reset (the epoch changed, or the producer's head went
/// back). ``statistics`` keeps running counts.
///
/// The tracker is a value: keep it in a ``/SharedStore`` and observe inside one atomic update, so
/// that what was missed while the app was not running is still known after a relaunch (a
/// last-seen number kept in memory is forgotten at every relaunch).
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
/// delivered with their message, possibly late, twice or out of order. ``observeHead(_:)`` is for
/// the producer's latest number read at the moment of looking (Darwin notifications carry no
/// payload, so that is what an app sees).
///
/// **Reset or stale.** A head is read, never delivered late, so ``observeHead(_:)`` reports a
/// reset whenever the head's epoch differs from the current one or its value is below the highest
/// seen. A message may be late, so ``observe(_:)`` resets only for an epoch the tracker does not
/// know: a number of one of the last ``retiredEpochLimit`` epochs the tracker left, or a number
/// below the lowest value of the current run (below the first number observed, or below the head
/// a reset restarted from), is ``SequenceObservation/stale(_:)`` and changes nothing. A message
/// of an epoch retired longer ago than that is taken for a new epoch, a reset. A producer rolled
/// back within its epoch cannot be told from duplicates by message numbers: observe its head.
///
/// **Bounded state.** Missing numbers are kept as ranges. At most ``outstandingRangeLimit``
/// ranges stay open; beyond that the oldest is given up (counted in
/// ``SequenceStatistics/givenUp``) and a very late arrival from it would be reported as a
/// duplicate. At most ``retiredEpochLimit`` retired epochs are remembered. The stored form
/// therefore stays under a few kilobytes.
///
/// JSON form:
/// `{"counts":{"duplicates":0,"givenUp":0,"received":7,"recovered":1,"resets":1,"stale":0},`
/// `"run":{"epoch":"00000000000000ff","floor":1,"highest":9,"outstanding":[{"first":3,"last":4}],`
/// `"retired":["00000000000000fe"]}}`.
/// `run` is absent before the first observation; `floor` is the lowest value the run accounts
/// for; `outstanding` lists the missing values, ascending; `retired` lists the epochs left by
/// resets, most recent first. A count of 0 and an empty `outstanding` or `retired` list are left
/// out: `{"counts":{"received":7},"run":{"epoch":"00000000000000ff","floor":1,"highest":7}}`.
/// Decoding rejects a run that breaks these rules.
public struct SequenceTracker: Hashable, Sendable {
  /// The most missing ranges kept open at once; beyond it the oldest is given up.
  public static let outstandingRangeLimit = 64

  /// The most epochs left by resets that the tracker remembers, so that late messages of theirs
  /// are ``SequenceObservation/stale(_:)`` rather than resets.
  public static let retiredEpochLimit = 4

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

  /// The epochs the tracker left by resets and still recognises, most recent first.
  public var retiredEpochs: [SequenceEpoch] { run?.retired ?? [] }

  /// The running counts, with ``SequenceStatistics/missed`` derived from ``outstanding``.
  public var statistics: SequenceStatistics {
    SequenceStatistics(
      received: counts.received, missed: run?.missedCount ?? 0, recovered: counts.recovered,
      duplicates: counts.duplicates, resets: counts.resets, givenUp: counts.givenUp,
      stale: counts.stale)
  }

  /// Records a number that identifies one message, and says what it means.
  ///
  /// Use it for numbers that travel with their message and may be delivered late, twice or out
  /// of order. In the current epoch: above the highest value, in order or past a gap; in a hole, a
  /// late arrival; otherwise from the run's lowest value up, a duplicate; below it, stale. Of a
  /// retired epoch: stale. Of any other epoch: a reset, and the new run began at 1.
  ///
  /// - Parameter number: The number of a message that was received.
  /// - Returns: The observation; see ``SequenceObservation``. Never a reset by going backwards.
  /// - Complexity: O(log *r*) to find a hole among the *r* outstanding ranges, O(*r*) to fill one.
  @discardableResult
  public mutating func observe(_ number: SequenceNumber) -> SequenceObservation {
    guard var current = run else { return start(at: number) }
    guard current.epoch == number.epoch else {
      guard !current.retired.contains(number.epoch) else { return stale(number) }
      return restart(at: number)
    }
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
    guard value >= current.floor else { return stale(number) }
    counts.duplicates = counts.duplicates.addingSaturating(1)
    return .duplicate(number)
  }

  /// Records the producer's latest number, read at the moment of looking, and says what it means.
  ///
  /// Use it for a head such as ``SequenceCounter/current()`` or ``OutboxHead/number`` read when a
  /// notification arrives. A head equal to the highest seen is a duplicate (nothing new since the
  /// last look); a head above it is in order or a gap; a head below it means the producer went
  /// back, a reset. Note that a head counts publications, not notifications: a notification
  /// handled after the next publication sees both, and the next one is then a duplicate.
  ///
  /// A head of another epoch is a reset even when the tracker has retired that epoch: the
  /// producer's numbering is back in it.
  ///
  /// - Parameter head: The producer's most recent number.
  /// - Returns: The observation; never ``SequenceObservation/lateArrival(_:)`` or
  ///   ``SequenceObservation/stale(_:)``.
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
    return .gap(number, missing: SequenceRange(epoch: number.epoch, values: missing))
  }

  private mutating func stale(_ number: SequenceNumber) -> SequenceObservation {
    counts.stale = counts.stale.addingSaturating(1)
    return .stale(number)
  }

  /// Starts a new run after the epoch changed: the new run began at 1, and the epoch left is
  /// retired.
  private mutating func restart(at number: SequenceNumber) -> SequenceObservation {
    let previous = run?.epoch ?? number.epoch
    let retired = [previous] + (run?.retired ?? []).filter { $0 != number.epoch }
    giveUpCurrentRun()
    var fresh = Run(
      epoch: number.epoch, floor: min(1, number.value), highest: number.value,
      retired: Array(retired.prefix(Self.retiredEpochLimit)))
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
    let retired = run?.retired ?? []
    giveUpCurrentRun()
    run = Run(epoch: number.epoch, floor: number.value, highest: number.value, retired: retired)
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
