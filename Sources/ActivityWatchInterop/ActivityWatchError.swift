import UsageModel

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

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
  /// Compare the error number with the C library's constants:
  /// `catch ActivityWatchError.io(_, _, let errno) where errno.rawValue == ENOSPC`.
  case io(operation: String, path: String, errno: ErrorNumber)

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

extension ActivityWatchError {
  /// The error number a failed file-system call set, as `errno` held it.
  ///
  /// The module's own small value, so that reading and writing ActivityWatch files needs no
  /// store: SharedStore's ``/SharedStore/Errno`` names the numbers worth handling, and this one
  /// carries the same platform value (``rawValue``) for the few I/O failures of a merge.
  public struct ErrorNumber: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The platform's error number.
    public let rawValue: Int32

    /// Wraps a platform error number.
    ///
    /// - Parameter rawValue: The value of `errno` after the failed call.
    public init(rawValue: Int32) {
      self.rawValue = rawValue
    }

    /// The C library's message for this error number (`strerror`), or "unknown error".
    public var description: String {
      guard let message = strerror(rawValue) else { return "unknown error" }
      return String(cString: message)
    }
  }
}

// MARK: - Milliseconds

extension ActivityWatchError: InvalidValueError {}

/// UsageModel's conversions of `Date` and `Duration` values, throwing ``ActivityWatchError``.
typealias TimeValues = UsageModel.TimeValues<ActivityWatchError>
