/// The scenarios of the corpus each rule of `AccuracyCorpusTests` holds for, and those it names as
/// known gaps, kept here so that the tests and `Documentation/Accuracy.md` (written by the
/// Benchmarks' `accuracy` suite) list the same ones.
package enum CorpusRules {
  /// The scenarios in which the platform behaved: on time, late, duplicated, out of order, and a
  /// 23-hour day; both bounds are within one step of the truth in all of them.
  package static let behaved = [
    "ideal", "late", "duplicated", "out-of-order", "DST spring forward",
  ]

  /// The scenario whose upper bound loses proven use on some day today: a catch-up storm held
  /// across midnight for longer than `IntervalAttribution.lateDeliveryWindow` is read in the next
  /// day's interval (its `intervalDidStart`, held with it, reads as a restart there).
  package static let upperLosing = ["catch-up storm"]
}
