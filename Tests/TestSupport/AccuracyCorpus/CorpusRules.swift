/// The scenarios of the corpus each rule of `AccuracyCorpusTests` holds for, and those it names as
/// known gaps, kept here so that the tests and `Documentation/Accuracy.md` (written by the
/// Benchmarks' `accuracy` suite) list the same ones.
package enum CorpusRules {
  /// The scenarios in which the platform behaved: on time, late, duplicated, out of order, and a
  /// 23-hour day; both bounds are within one step of the truth in all but out-of-order, whose
  /// lower bound is more cautious (a burst amid use counts only as far as the time since the
  /// app's last confirmed report holds it).
  package static let behaved = ["ideal", "late", "duplicated", "DST spring forward"]

  /// The scenario whose lower bound is off the truth by more than one step today.
  package static let lowerTooCautious = ["out-of-order"]

  /// The scenarios whose upper bound loses proven use on some day today: a catch-up storm held
  /// across midnight for longer than `IntervalAttribution.lateDeliveryWindow` is read in the next
  /// day's interval, and phantoms claiming hours crowd earlier real use out of the interval.
  package static let upperLosing = ["catch-up storm", "first-pickup phantoms"]
}
