import SharedStore
import SignalValues
import UsageModel

/// Everything TrackerSignals rejects or fails at, with the context needed to act on it.
///
/// A call that throws changes nothing: a recorder keeps its stored history, a log keeps its
/// entries, a policy is not created.
public enum TrackerSignalsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range.
  ///
  /// `field` names it (`"at"`, `"capacity"`, `"foreground"`, ...), `value` shows what was given
  /// and `requirement` what is allowed.
  case invalidValue(field: String, value: String, requirement: String)

  /// A heartbeat was given to the recorder of another source.
  case sourceMismatch(recorder: String, heartbeat: String)

  /// The shared store failed; the underlying error says where and why.
  ///
  /// ``storeError`` returns it without a `switch`.
  case store(SharedStoreError)

  /// The stored heartbeat history is not in the format this library writes.
  ///
  /// The value was left untouched; ``HeartbeatRecorder/quarantine()`` moves it aside, keeping
  /// its bytes, so that recording can start afresh.
  case corruptedHeartbeatHistory(key: String, reason: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    case .sourceMismatch(let recorder, let heartbeat):
      return
        "A heartbeat from source '\(heartbeat)' was given to the recorder of '\(recorder)'; "
        + "record each source's heartbeats with its own recorder."
    case .store(let error):
      return "The shared store failed: \(error.description)"
    case .corruptedHeartbeatHistory(let key, let reason):
      return
        "The heartbeat history under key '\(key)' is not readable: \(reason). "
        + "It was left untouched; HeartbeatRecorder.quarantine() moves it aside, keeping its "
        + "bytes, so that recording can start afresh."
    }
  }

  /// The store error underneath this error, or `nil` when the store did not fail.
  ///
  /// One call answers "was it the store?", so that code handling store failures (a full disk, a
  /// misconfigured app group) need not know this enum:
  ///
  /// ```swift
  /// do {
  ///   try recorder.record(at: now)
  /// } catch let error as TrackerSignalsError {
  ///   if case .io? = error.storeError { showStorageBanner() }
  ///   throw error
  /// }
  /// ```
  ///
  /// For ``store(_:)`` it is the wrapped error, including the store's `notDurable` when a write
  /// was made but not flushed. Every other case is this module's own error — a value rejected,
  /// a history in another format — and gives `nil`.
  public var storeError: SharedStoreError? {
    switch self {
    case .store(let error):
      return error
    case .invalidValue, .sourceMismatch, .corruptedHeartbeatHistory:
      return nil
    }
  }
}

extension TrackerSignalsError {
  /// The coding key of the JSON field that an invalid value came from.
  ///
  /// For `invalidValue(field:value:requirement:)`, the key named `field`, or `field` with `Ms`
  /// appended (the library's name for an amount of milliseconds); `nil` for other errors.
  /// Decoders use it to name the field that was wrong.
  func codingKey<Key: CodingKey>(_ type: Key.Type) -> Key? {
    guard case .invalidValue(let field, _, _) = self else { return nil }
    return Key(stringValue: field) ?? Key(stringValue: field + "Ms")
  }
}

extension TrackerSignalsError {
  /// The error for a value that SignalValues rejected while a recorder made it.
  ///
  /// An invalid value keeps its field, value and requirement; an invalid heartbeat source
  /// becomes an invalid value of the field `source`.
  ///
  /// - Parameter error: What SignalValues rejected.
  package init(_ error: SignalValuesError) {
    switch error {
    case .invalidValue(let field, let value, let requirement):
      self = .invalidValue(field: field, value: value, requirement: requirement)
    case .invalidHeartbeatSource(let value, let reason):
      self = .invalidValue(field: "source", value: value.debugDescription, requirement: reason)
    }
  }

  /// The value `make` returns, with what it throws turned into this module's error.
  ///
  /// - Parameter make: Makes a value of SignalValues.
  /// - Returns: The value.
  /// - Throws: ``invalidValue(field:value:requirement:)`` for what `make` rejects.
  package static func checking<Value>(
    _ make: @autoclosure () throws(SignalValuesError) -> Value
  ) throws(TrackerSignalsError) -> Value {
    do {
      return try make()
    } catch {
      throw TrackerSignalsError(error)
    }
  }
}

// MARK: - Milliseconds

extension TrackerSignalsError: InvalidValueError {}

/// UsageModel's conversions of `Date` and `Duration` values, throwing ``TrackerSignalsError``.
typealias TimeValues = UsageModel.TimeValues<TrackerSignalsError>
