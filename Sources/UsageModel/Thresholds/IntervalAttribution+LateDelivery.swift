import Foundation

extension IntervalAttribution {
  /// How long after an interval's end a threshold of it may still be delivered: 1 hour.
  ///
  /// The platform holds threshold callbacks back (a device asleep, a busy extension) and
  /// delivers them late, sometimes after their interval ended and the next one began.
  ///
  /// **Held past the window.** A catch-up storm can hold an interval's last thresholds, its
  /// `intervalDidEnd` and the next interval's `intervalDidStart` until the morning, then release
  /// them together: the late `intervalDidStart` reads as a start in the middle of the new
  /// occurrence, and the held thresholds claim more than the time since it. Such an event is a
  /// *held delivery* of the occurrence before
  /// (``ThresholdAttribution/heldDelivery(start:registration:reachedBy:)``) when:
  /// - its threshold exceeds the time since the interval that contains it began, and that
  ///   interval is the first of its occurrence (no start recorded in the occurrence before it)
  ///   and began more than the window after the occurrence did — its `intervalDidStart` was
  ///   held too: a restart later in the day keeps the events after it, and thresholds that
  ///   outrun an interval started on time stay implausible (phantoms at the first pickup);
  /// - a start of the activity is recorded before the previous occurrence ended, so that it was
  ///   monitored, and the event's registration, if any, was made by then;
  /// - the threshold fits in the previous occurrence's interval.
  ///
  /// A held delivery counts in the upper bound only: a phantom that claims more than the time
  /// since its interval began looks the same, and the lower bound never pays for phantoms. A
  /// threshold of the new occurrence released in the same storm, before the late start, looks
  /// like the previous occurrence's (the names are the same): the day before keeps it in its
  /// upper bound.
  public static let lateDeliveryWindow: Duration = .seconds(3_600)

  /// The interval before `start` and its end, when an event of `activity` received at
  /// `received` with threshold `threshold` is a late or held delivery of it.
  ///
  /// An event belongs to the interval that contains it, unless its threshold exceeds the time
  /// since that interval began and the activity's scheduled occurrence before it, which was
  /// monitored (a start of the activity is recorded before it ended), ended at most
  /// ``lateDeliveryWindow`` earlier: then it is a late delivery of the one before, whose
  /// threshold was reached by the time it ended. (An interval restarted with
  /// `includesPastActivity` may count the use since the start of its hour, which this does not
  /// weigh: a held own start cannot be told from a restart here, and weighing it took a catch-up
  /// storm's thresholds from the day they were counted in.) An occurrence nobody
  /// monitored counted nothing: an event that outruns the first interval ever (an app installed
  /// after midnight) stays there, where the accountant judges it. Past the window, it is a held
  /// delivery on the conditions of
  /// ``lateDeliveryWindow``. Activities without a daily schedule in the plan have no known end,
  /// and keep the interval that contains the event; so do events of a registration counted from
  /// the registration. The occurrence is read in the zone the interval began in.
  ///
  /// A late delivery is graded at the end of its interval, where it may join a burst with the
  /// interval's last reports: it can lower a lower bound already read.
  ///
  /// - Returns: The earlier interval's start and its end, in milliseconds, and whether the
  ///   delivery was held past the window; `nil` when the event is neither.
  func lateDelivery(
    of activity: String, threshold: Duration, receivedAt received: Int64,
    intervalStart start: Int64, timeZone: TimeZone?
  ) -> (start: Int64, end: Int64, held: Bool)? {
    let amount = Milliseconds.amount(threshold) ?? .max
    let window = Milliseconds.amount(Self.lateDeliveryWindow) ?? 0
    let zone = zone(of: activity, at: start, eventZone: timeZone)
    guard amount > received - start,
      case .daily(let daily)? = plan?.activities.first(where: { $0.name == activity })?.schedule,
      let previous = Self.occurrence(of: daily, before: start, in: zone),
      let end = Milliseconds.instant(previous.end), end <= received,
      latestStart(of: activity, atOrBefore: end - 1) != nil,
      let previousStart = intervalStart(of: activity, containing: end - 1, timeZone: timeZone),
      previousStart < start
    else { return nil }
    if received - end <= window { return (previousStart, end, false) }
    // Held past the window: from the first interval of the occurrence it was received in when
    // that interval's own start was held too, and only what fits.
    guard amount <= end - previousStart,
      let current = daily.occurrence(containing: Milliseconds.date(start), in: zone)
        .flatMap({ Milliseconds.instant($0.start) }),
      (latestStart(of: activity, atOrBefore: start - 1)?.instant ?? .min) < current,
      start - current > window
    else { return nil }
    return (previousStart, end, true)
  }

  /// The last instant at which an event of `activity` can still be attributed to an interval
  /// of it that began before `instant`, as the plan and the starts recorded so far tell; `nil`
  /// when no such interval is known.
  ///
  /// An interval in progress at `instant` keeps its events until it ends. A scheduled
  /// occurrence keeps its late deliveries for ``lateDeliveryWindow`` after it ends, and its held
  /// deliveries for as long as the next occurrence's first interval may still start late: until
  /// the next occurrence ends, unless a start of the activity is recorded within the window of
  /// its beginning.
  ///
  /// - Complexity: O(log *s*) in the starts recorded for `activity`.
  package func lastAttributable(of activity: String, before instant: Int64) -> Int64? {
    var reach = intervalEnd(of: activity, containing: instant - 1)
    guard case .daily(let daily)? = plan?.activities.first(where: { $0.name == activity })?.schedule
    else { return reach }
    let window = Milliseconds.amount(Self.lateDeliveryWindow) ?? 0
    let zone = zone(of: activity, at: instant - 1, eventZone: nil)
    let boundary = DayBoundary(timeZone: zone)
    let day = boundary.day(containingSupported: instant - 1)
    let supported = LocalDay.supportedDayNumbers
    guard supported.contains(day.dayNumber - 1), supported.contains(day.dayNumber + 1) else {
      return reach
    }
    for first in [day.advanced(by: -1), day] {
      let occurrence = daily.occurrence(startingOn: first, in: zone)
      let next = daily.occurrence(startingOn: first.advanced(by: 1), in: zone)
      guard let start = Milliseconds.instant(occurrence.start), start < instant,
        let end = Milliseconds.instant(occurrence.end),
        let nextStart = Milliseconds.instant(next.start),
        let nextEnd = Milliseconds.instant(next.end)
      else { continue }
      let startedOnTime =
        (latestStart(of: activity, atOrBefore: nextStart + window)?.instant ?? .min) >= nextStart
      let last = startedOnTime ? end + window : max(end + window, nextEnd)
      reach = max(reach ?? last, last)
    }
    return reach
  }

  /// The occurrence of `window` before the one that contains `instant`.
  private static func occurrence(of window: DailyWindow, before instant: Int64, in zone: TimeZone)
    -> DateInterval?
  {
    let date = Milliseconds.date(instant)
    guard let current = window.occurrence(containing: date, in: zone) else { return nil }
    let boundary = DayBoundary(timeZone: zone)
    let day = boundary.day(containingSupported: Milliseconds.clampedInstant(current.start))
    guard day.dayNumber > LocalDay.supportedDayNumbers.lowerBound else { return nil }
    return window.occurrence(startingOn: day.advanced(by: -1), in: zone)
  }
}
