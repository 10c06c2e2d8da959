/// The scenarios of the corpus that the rules of `AccuracyCorpusTests` single out.
///
/// Kept here so that the tests and `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Accuracy.md`
/// (written by the Benchmarks'
/// `accuracy` suite) list the same ones. Every other rule holds on every scenario: no known gap
/// remains.
package enum CorpusRules {
  /// The scenarios in which the platform behaved: on time, late, duplicated, out of order, and a
  /// 23-hour day; both bounds are within one step of the truth in all of them.
  package static let behaved = [
    "ideal", "late", "duplicated", "out-of-order", "DST spring forward",
  ]
}
