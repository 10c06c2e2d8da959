import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import TrackerSignals
import UsageModel

/// A property of a stored format that an input broke.
package struct StoredFormatViolation: Error, CustomStringConvertible, Sendable {
  /// The format fuzzed.
  package var format: String
  /// The operation that broke it.
  package var operation: String
  /// What went wrong.
  package var reason: String
  /// The planted file.
  package var file: [UInt8]

  /// A report naming the format, the operation and the planted file in Base64.
  package var description: String {
    "\(format): \(operation): \(reason)\nplanted file (base64): "
      + Data(file).base64EncodedString()
  }
}

/// One input on its way through the API: it runs operations of the library, checks what they
/// did to the files of the store, and reports what breaks a property as a violation.
///
/// Reads must change no file. An operation that changes the store may change only the files it
/// is allowed to, and none when it throws. Every error must be one of the library's own, and
/// never an I/O error: the sandbox holds only regular files the process may read and write.
package final class StoredFormatProbe {
  /// What an operation gave.
  package enum Outcome<Value> {
    /// It returned.
    case returned(Value)
    /// It threw one of the library's errors.
    case threw(any Error)

    /// The value returned, or `nil` when it threw.
    package var value: Value? {
      if case .returned(let value) = self { return value }
      return nil
    }

    /// Whether it returned.
    package var returned: Bool { value != nil }

    /// The error thrown, or `nil` when it returned.
    package var error: (any Error)? {
      if case .threw(let error) = self { return error }
      return nil
    }
  }

  let format: StoredFormat
  let sandbox: StoredFormatSandbox
  let file: [UInt8]
  /// The files planted for the input, by file name.
  private let planted: [String: [UInt8]]
  /// The files as they must be now.
  private var expected: [String: [UInt8]]

  init(
    format: StoredFormat, sandbox: StoredFormatSandbox, file: [UInt8],
    planted: [String: [UInt8]]
  ) {
    self.format = format
    self.sandbox = sandbox
    self.file = file
    self.planted = planted
    expected = planted
  }

  /// A violation of `operation`.
  package func violation(_ operation: String, _ reason: String) -> StoredFormatViolation {
    StoredFormatViolation(
      format: format.rawValue, operation: operation, reason: reason, file: file)
  }

  /// Throws a violation of `operation` unless `condition` holds.
  package func require(
    _ condition: Bool, _ operation: String, _ reason: @autoclosure () -> String
  ) throws(StoredFormatViolation) {
    guard condition else { throw violation(operation, reason()) }
  }

  /// Plants the input's files again, as before the first operation.
  package func restore() throws(StoredFormatViolation) {
    do {
      try sandbox.plant(planted)
    } catch {
      throw violation("planting the files again", "\(error)")
    }
    expected = planted
  }

  /// Runs a read: it returns or throws one of the library's errors, and changes no file.
  @discardableResult
  package func read<Value>(_ operation: String, _ body: () throws -> Value)
    throws(StoredFormatViolation) -> Outcome<Value>
  {
    try change(operation, mayChange: [], body)
  }

  /// Runs an operation that may change the files named `mayChange` (file names of keys) when it
  /// returns, and only those named `mayChangeOnFailure` when it throws one of the library's
  /// errors (none unless given: a write-then-commit operation names what it writes first).
  @discardableResult
  package func change<Value>(
    _ operation: String, mayChange: Set<String>, mayChangeOnFailure: Set<String> = [],
    _ body: () throws -> Value
  ) throws(StoredFormatViolation) -> Outcome<Value> {
    let outcome: Outcome<Value>
    do {
      outcome = .returned(try body())
    } catch {
      if let problem = Self.problem(with: error) { throw violation(operation, problem) }
      outcome = .threw(error)
    }
    let found: [String: [UInt8]]
    do {
      found = try sandbox.files()
    } catch {
      throw violation(operation, "the sandbox cannot be listed afterwards: \(error)")
    }
    let allowed = outcome.returned ? mayChange : mayChangeOnFailure
    for name in Set(found.keys).union(expected.keys) where !allowed.contains(name) {
      guard found[name] == expected[name] else {
        let what = outcome.returned ? "returned" : "threw \(outcome.error.map { "\($0)" } ?? "")"
        throw violation(
          operation,
          "it \(what) and changed \(name): \(Self.sizes(expected[name])) before, "
            + "\(Self.sizes(found[name])) after")
      }
    }
    expected = found
    return outcome
  }

  private static func sizes(_ bytes: [UInt8]?) -> String {
    bytes.map { "\($0.count) bytes" } ?? "no file"
  }

  /// Why `error` is not an error the library may throw for hostile bytes in a regular file, or
  /// `nil` when it is.
  package static func problem(with error: any Error) -> String? {
    let storeError: SharedStoreError?
    switch error {
    case let error as SharedStoreError: storeError = error
    case let error as SequenceTrackingError: storeError = error.storeError
    case let error as TrackerSignalsError: storeError = error.storeError
    case let error as PipelineError: storeError = error.storeError
    case is BudgetMathError, is UsageModelError: storeError = nil
    default:
      return "it threw \(type(of: error)), not one of the library's errors: \(error)"
    }
    switch storeError {
    case .io?: return "an I/O error for a regular file in a usable directory: \(error)"
    case .invalidKey?: return "a valid key was refused: \(error)"
    case .notDurable?: return "a store that does not flush reported a failed flush: \(error)"
    default: return nil
    }
  }
}

/// A directory with a `FileStore` that does not flush, where inputs are planted as files.
package final class StoredFormatSandbox {
  /// The directory.
  package let url: URL
  /// A store on it.
  package let store: FileStore

  /// Creates an empty directory and a store on it.
  ///
  /// - Parameter name: A readable part of the directory's name.
  /// - Throws: When the directory or the store cannot be created.
  package init(name: String) throws {
    url = Self.parent.appendingPathComponent(
      "stk-fuzz-\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    store = try FileStore(directory: url, durability: .processCrashSafe)
  }

  /// Where sandboxes go: `/dev/shm` where there is one (a tmpfs: files cost no disk, so a loop
  /// plants ten times more of them per second), otherwise the temporary directory.
  private static var parent: URL {
    let shm = "/dev/shm"
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: shm, isDirectory: &isDirectory),
      isDirectory.boolValue, FileManager.default.isWritableFile(atPath: shm)
    {
      return URL(fileURLWithPath: shm, isDirectory: true)
    }
    return FileManager.default.temporaryDirectory
  }

  deinit {
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      // A leftover temporary directory is harmless; the system cleans it up.
    }
  }

  /// Removes every file but the lock, then writes `files` (bytes by file name).
  ///
  /// - Parameter files: The files to plant.
  /// - Throws: When a file cannot be removed or written.
  package func plant(_ files: [String: [UInt8]]) throws {
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name != ".lock"
    {
      try FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }
    for (name, bytes) in files {
      try Data(bytes).write(to: url.appendingPathComponent(name))
    }
  }

  /// Every file but the lock, by name.
  ///
  /// - Returns: The files' bytes.
  /// - Throws: When the directory cannot be listed or a file read.
  package func files() throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name != ".lock"
    {
      files[name] = Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }
    return files
  }

  /// The bytes of the file of `key`, or `nil` when it has none.
  ///
  /// - Parameter key: A key.
  /// - Returns: The bytes.
  package func bytes(ofKey key: String) -> [UInt8]? {
    let path = url.appendingPathComponent(StoredBytes.fileName(forKey: key))
    guard let data = FileManager.default.contents(atPath: path.path) else { return nil }
    return Array(data)
  }
}
