import SharedStore
import UsageModel

/// Everything ActivityWatchInterop rejects or fails at, with the context needed to act on it.
///
/// A call that throws changes nothing: a merge writes no output file. Malformed lines of an
/// ActivityWatch file are *not* errors of this type: they are reported one by one, with their
/// line numbers, in the result of the read or merge (see ``MalformedLine``), so that one bad
/// line does not hide the others.
public enum ActivityWatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range, such as an event's timestamp or duration.
  case invalidValue(field: String, value: String, requirement: String)

  /// A file-system call failed with `errno` while reading or writing an ActivityWatch file.
  ///
  /// Match the error number by name: `catch ActivityWatchError.io(_, _, .noSpace)`.
  case io(operation: String, path: String, errno: Errno)

  /// One ActivityWatch event's text is not valid; `reason` says what is wrong.
  case malformedEvent(reason: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    case .io(let operation, let path, let code):
      return "\(operation) failed for '\(path)': \(code) (errno \(code.rawValue))."
    case .malformedEvent(let reason):
      return "Not an ActivityWatch event: \(reason)."
    }
  }
}

// MARK: - Milliseconds

extension ActivityWatchError: InvalidValueError {}

/// UsageModel's conversions of `Date` and `Duration` values, throwing `ActivityWatchError`.
typealias TimeValues = UsageModel.TimeValues<ActivityWatchError>
