import Foundation
import UsageModel

/// Conversions between the public `Date` values and integer milliseconds, with errors that name
/// the field.
enum TimeValues {
  /// The instant of `date` in milliseconds, rounded once.
  static func instant(_ date: Date, field: String) throws(SignalValuesError) -> Int64 {
    try Milliseconds.checkedInstant(date) {
      SignalValuesError.invalidValue(field: field, value: $0, requirement: $1)
    }
  }
}
