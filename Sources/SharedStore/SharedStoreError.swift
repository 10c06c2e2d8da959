/// Everything that can go wrong in a shared store, with the context needed to act on it.
///
/// Every case names the key it concerns — except a bad lock file, which belongs to no key —
/// and file-backed cases also name the path. An operation that
/// throws changes nothing in the store — a failed write leaves the old value in place, a value
/// that fails to decode is never replaced by a default — with one exception, said in its name:
/// ``notDurable(key:path:errno:)``.
public enum SharedStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The key is not a valid store key; no file was created, read or changed.
  case invalidKey(key: String, reason: InvalidKeyReason)

  /// A file-system call failed with `errno`.
  ///
  /// `operation` names the call (`"open"`, `"fsync"`, `"rename"`, ...). Match the error number by
  /// name: `catch SharedStoreError.io(_, _, .noSpace)`.
  case io(operation: String, path: String, errno: Errno)

  /// The system refused to open a file of the store that its permissions allow (`open` failed
  /// with `EPERM`): on Apple platforms, the device's data protection keeps the file closed
  /// until the device is unlocked.
  ///
  /// `key` is the key whose file `path` is — or whose temporary file, when a write created
  /// one — or `nil` for the store's lock file. Nothing was read, written or created; the
  /// condition passes by itself, so trying again after the device is unlocked succeeds.
  ///
  /// A ``FileStore`` gives its folder and every file it creates the class *complete until first
  /// user authentication* (see ``FileStore``), so on iOS this happens only between a restart and
  /// the person's first unlock — unless a file was given a stricter class (`complete`) by
  /// something else, which keeps it closed whenever the device is locked. Branch on the case,
  /// not on the error number:
  ///
  /// ```swift
  /// do {
  ///   try store.set(entry, for: .lastSync)
  /// } catch SharedStoreError.protectedDataUnavailable {
  ///   // Locked: try again when the app becomes active or protected data becomes available.
  /// }
  /// ```
  ///
  /// Only an `open` of a file is classified so. The sandbox answers `EPERM` too — a folder
  /// outside the process's containers, an app group it is not entitled to — but it refuses the
  /// folder itself, which data protection never does, so such a store fails when it is opened
  /// (``io(operation:path:errno:)`` from `mkdir` or from opening the directory). What remains is
  /// reported the same way because the system refuses in the same manner: a file marked
  /// immutable (`chflags uchg` on Darwin, `chattr +i` on Linux) opened to be written. `EACCES` —
  /// the file's or a directory's permissions forbid the access — is ``io(operation:path:errno:)``
  /// with ``Errno/permissionDenied``, not this.
  case protectedDataUnavailable(key: String?, path: String)

  /// The stored bytes are damaged or were not written by this library.
  ///
  /// The file is left exactly as it was; ``SharedStore/quarantine(_:)`` moves it aside.
  case corrupted(key: String, path: String, reason: String)

  /// The file was written by a newer version of this library, in a format this one cannot read.
  case unsupportedFormatVersion(key: String, path: String, found: Int, supported: Int)

  /// The stored bytes are intact but do not decode as the requested type.
  ///
  /// `description` is the underlying decoder's explanation, including its coding path.
  case decoding(key: String, type: String, description: String)

  /// The value could not be encoded (for example a non-finite `Double` in JSON).
  case encoding(key: String, type: String, description: String)

  /// Nothing is stored under `key`, and the closure that builds the key's default value threw.
  ///
  /// `description` is the closure's error. Nothing was written, and nothing fell back to another
  /// value; the closure runs again the next time the default is needed (see
  /// ``StoreKey/init(_:codec:storage:defaultValue:)``).
  case defaultValueFailed(key: String, type: String, description: String)

  /// The change to `key` was made and is visible to readers, but flushing it afterwards failed
  /// with `errno` at `path`, so the change may not survive a power cut.
  ///
  /// `path` is the directory after a rename or a removal — but the file's new path after a
  /// ``SharedStore/quarantine(_:)``, which moved it there — and the log file after an append to
  /// an append-only log (whose flush, or close, failed once its records were written). This is
  /// the only error after which a change is in place: do not retry the change (an increment
  /// would then happen twice, a record be appended twice). Only
  /// ``FileStore/Durability/durable`` stores flush, so only they report it after a flush.
  case notDurable(key: String, path: String, errno: Errno)

  /// What is at `path` is not a regular file — a directory, a symbolic link, a FIFO, a socket or a
  /// device — so the store neither read it nor replaced it.
  ///
  /// `key` is the key whose file `path` is, or `nil` for the store's lock file `.lock`. A
  /// ``FileStore`` never follows a symbolic link there and never waits on a FIFO: nothing was
  /// read, written or created, inside the store or outside it. To start the key afresh,
  /// ``SharedStore/quarantine(_:)`` moves the object aside (the link itself, not what it points
  /// to) and ``SharedStore/remove(_:)`` deletes anything but a directory; a `.lock` that is not a
  /// regular file must be removed by hand, and until then every change to the store fails.
  case notARegularFile(key: String?, path: String, kind: FileKind)

  /// The file of `key` is, or would become, larger than `limit` bytes
  /// (``FileStore/maximumFileSize``), so the store neither read it into memory nor wrote it.
  ///
  /// `size` is the file's size in bytes: the one found, or the one a write would have produced.
  /// A file that large was not written by this library; ``SharedStore/quarantine(_:)`` moves it
  /// aside, and a write of a value that fits replaces it. A write or an append that would exceed
  /// the limit changes nothing.
  case tooLarge(key: String, path: String, size: Int, limit: Int)

  /// A ``BoundedLog`` or an append-only log was asked for a capacity it cannot have.
  case invalidCapacity(key: String, capacity: Int)

  /// The key holds `holds`, not what the operation works on: a value read or written as an
  /// append-only log, or the reverse.
  ///
  /// Nothing was read, changed or replaced. Use the operations of the kind the key holds, or
  /// remove the key (``SharedStore/remove(_:)``) to start it as the other kind.
  case kindMismatch(key: String, holds: StoredKind)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidKey(let key, let reason):
      return "Invalid store key \(key.debugDescription): \(reason)."
    case .io(let operation, let path, let errno):
      return "\(operation) failed for '\(path)': \(errno) (errno \(errno.rawValue))."
    case .protectedDataUnavailable(let key, let path):
      let file = key.map { "The file of key '\($0)'" } ?? "The store's lock file"
      return
        "\(file) at '\(path)' cannot be opened until the device is unlocked (data protection, "
        + "EPERM); nothing was read or written. Try again once protected data is available."
    case .corrupted(let key, let path, let reason):
      return
        "The value of key '\(key)' at '\(path)' is corrupted: \(reason). "
        + "It was left untouched; quarantine it to keep it and start afresh."
    case .unsupportedFormatVersion(let key, let path, let found, let supported):
      return
        "The value of key '\(key)' at '\(path)' uses store format version \(found); "
        + "this version of ScreenTimeKit reads version \(supported) only."
    case .decoding(let key, let type, let description):
      return "The value of key '\(key)' does not decode as \(type): \(description)"
    case .encoding(let key, let type, let description):
      return "A \(type) could not be encoded for key '\(key)': \(description)"
    case .defaultValueFailed(let key, let type, let description):
      return
        "Nothing is stored under key '\(key)', and its default \(type) could not be built: "
        + "\(description). Nothing was written; the next use builds the default again."
    case .notDurable(let key, let path, let errno):
      return
        "The change to key '\(key)' was made, but flushing '\(path)' afterwards failed: "
        + "\(errno) (errno \(errno.rawValue)); it may not survive a power cut. "
        + "Do not retry the change."
    case .notARegularFile(let key?, let path, let kind):
      return
        "The file of key '\(key)' at '\(path)' is \(kind), not a regular file; it was neither "
        + "read nor replaced. Quarantine or remove it to start the key afresh."
    case .notARegularFile(nil, let path, let kind):
      return
        "The store's lock file '\(path)' is \(kind), not a regular file; no change can be "
        + "made to the store until it is removed."
    case .tooLarge(let key, let path, let size, let limit):
      return
        "The file of key '\(key)' at '\(path)' is or would be \(size) bytes, more than the "
        + "\(limit) bytes the store reads or writes; nothing was read or written."
    case .invalidCapacity(let key, let capacity):
      return "The bounded log on key '\(key)' needs a capacity of at least 1, not \(capacity)."
    case .kindMismatch(let key, let holds):
      let use =
        holds == .log
        ? "read it with readLog(_:newest:) and append with appendToLog"
        : "read it with read(_:) and change it with write(_:for:) or update(_:_:)"
      return
        "Key '\(key)' holds \(holds), which this operation does not work on: \(use), "
        + "or remove the key first. Nothing was changed."
    }
  }
}
