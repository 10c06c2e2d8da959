import SharedStore

/// Everything GapDetection rejects or fails at, with the context needed to act on it.
///
/// A call that throws changes nothing: a recorder keeps its stored history, a merge writes no
/// output file, a policy is not created. Malformed lines of an ActivityWatch file are *not*
/// errors of this type: they are reported one by one, with their line numbers, in the result of
/// the read or merge (see ``MalformedLine``), so that one bad line does not hide the others.
public enum GapDetectionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range.
  ///
  /// `field` names it (`"staleAfter"`, `"at"`, `"capacity"`, ...), `value` shows what was given
  /// and `requirement` what is allowed.
  case invalidValue(field: String, value: String, requirement: String)

  /// A heartbeat source name is empty, too long or uses a character outside `A-Z a-z 0-9 _ -`.
  case invalidHeartbeatSource(value: String, reason: String)

  /// A heartbeat was given to the recorder of another source.
  case sourceMismatch(recorder: String, heartbeat: String)

  /// The shared store failed; the underlying error says where and why.
  case store(SharedStoreError)

  /// The stored heartbeat history is not in the format this library writes.
  ///
  /// The value was left untouched; ``HeartbeatRecorder/quarantine()`` moves it aside, keeping
  /// its bytes, so that recording can start afresh.
  case corruptedHeartbeatHistory(key: String, reason: String)

  /// A file-system call failed with `errno` while reading or writing an ActivityWatch file.
  case io(operation: String, path: String, errno: Int32)

  /// One ActivityWatch event's text is not valid; `reason` says what is wrong.
  case malformedEvent(reason: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    case .invalidHeartbeatSource(let value, let reason):
      return "Invalid heartbeat source \(value.debugDescription): \(reason)."
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
    case .io(let operation, let path, let code):
      return "\(operation) failed for '\(path)' (errno \(code))."
    case .malformedEvent(let reason):
      return "Not an ActivityWatch event: \(reason)."
    }
  }
}

extension GapDetectionError {
  /// The coding key of the JSON field that an invalid value came from.
  ///
  /// For ``invalidValue(field:value:requirement:)``, the key named `field`, or `field` with `Ms`
  /// appended (the library's name for an amount of milliseconds); `nil` for other errors.
  /// Decoders use it to name the field that was wrong.
  func codingKey<Key: CodingKey>(_ type: Key.Type) -> Key? {
    guard case .invalidValue(let field, _, _) = self else { return nil }
    return Key(stringValue: field) ?? Key(stringValue: field + "Ms")
  }
}
