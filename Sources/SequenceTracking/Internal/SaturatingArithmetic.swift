extension UInt64 {
  /// The sum, or `UInt64.max` when it does not fit.
  ///
  /// Statistics add counts derived from numbers a store handed back; hostile or damaged input
  /// must not be able to trap the process, and a count of 2⁶⁴ is beyond anything real.
  func addingSaturating(_ other: UInt64) -> UInt64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
