import Foundation
import SharedStore

/// A problem that ends the program, told in one line.
struct Failure: Error, CustomStringConvertible {
  /// The exit status: 1 damage, 2 a bad command line, 3 bad input.
  let status: Int32
  /// The line to print after the program's name.
  let description: String

  /// A bad command line.
  static func usage(_ message: String) -> Failure {
    Failure(status: 2, description: message + " (see --help)")
  }

  /// Bad input: a folder or key that is not there, or a file-system call that failed.
  static func input(_ message: String) -> Failure {
    Failure(status: 3, description: message)
  }

  /// A damaged file, with the typed error that reading it threw.
  static func damaged(_ key: String, _ error: any Error) -> Failure {
    Failure(status: 1, description: "\(key): \(typed(error))")
  }

  /// Throws when the command line has operands left over.
  static func noExtra(_ operands: [String]) throws(Failure) {
    if let extra = operands.first { throw .usage("unexpected argument \(extra)") }
  }
}

/// A store folder named on the command line, checked before it is opened.
///
/// `FileStore(directory:)` creates a missing folder and its lock file; a tool that inspects a
/// folder must not, so a read-only subcommand first checks that both exist.
struct Folder {
  /// The folder as given.
  let path: String
  /// The store on it.
  let store: FileStore

  /// Opens a folder for list, show and verify, which change nothing in it.
  init(readOnly path: String) throws(Failure) {
    try Self.checkIsFolder(path)
    guard FileManager.default.fileExists(atPath: path + "/.lock") else {
      throw .input(
        "\(path) has no .lock file, so it is not a FileStore folder — or its hidden files were "
          + "not copied with it; `touch \(path)/.lock` to inspect it anyway")
    }
    try self.init(path)
  }

  /// Opens a folder for quarantine and clean, which change it.
  init(changing path: String) throws(Failure) {
    try Self.checkIsFolder(path)
    try self.init(path)
  }

  private init(_ path: String) throws(Failure) {
    self.path = path
    do {
      store = try FileStore(directory: URL(fileURLWithPath: path, isDirectory: true))
    } catch {
      throw .input("\(path): \(error)")
    }
  }

  private static func checkIsFolder(_ path: String) throws(Failure) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .input("\(path): no such folder")
    }
    guard isDirectory.boolValue else { throw .input("\(path): is a file, not a folder") }
  }

  /// The files of the folder, as the store judges them.
  func inventory() throws(Failure) -> [FileStore.InventoryItem] {
    do {
      return try store.inventory()
    } catch {
      throw .input("\(path): \(error)")
    }
  }

  /// Checks that `key` is a valid store key.
  static func validate(_ key: String) throws(Failure) {
    do {
      try StoreKeyRules.validate(key)
    } catch {
      throw .input(error.description)
    }
  }

  /// The line for a key that has no file in the folder.
  func noKey(_ key: String) -> Failure {
    .input("no key \(key) in \(path); `store-tool list \(path)` lists the keys")
  }

  // MARK: - The two subcommands that change the folder

  /// Moves the file of `key` aside, so that the key starts afresh.
  func quarantine(_ key: String) throws(Failure) -> Int32 {
    try Self.validate(key)
    let destination: String?
    do {
      destination = try store.quarantine(key)
    } catch {
      throw .input("\(key): \(error)")
    }
    guard let destination else { throw noKey(key) }
    print("moved \(key) aside to \(destination); the key starts afresh on its next write")
    return 0
  }

  /// Removes the temporary files of killed writers.
  func clean() throws(Failure) -> Int32 {
    do {
      let removed = try store.removeTemporaryFiles()
      print(
        removed == 0
          ? "no leftover temporary file in \(path)"
          : "removed \(count(removed, "leftover temporary file")) from \(path)")
      return 0
    } catch {
      throw .input("\(path): \(error)")
    }
  }
}

// MARK: - Formatting

/// An error as its type, its case and its sentence: `SharedStoreError.corrupted: The value …`.
func typed(_ error: any Error) -> String {
  let name = Mirror(reflecting: error).children.first?.label.map { ".\($0)" } ?? ""
  return "\(type(of: error))\(name): \(error)"
}

/// `1 fact`, `2 facts`.
func count(_ number: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
  "\(number) " + (number == 1 ? noun : plural ?? noun + "s")
}

/// An instant in UTC, ISO 8601, with milliseconds only when they are not zero.
func instant(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  if date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) != 0 {
    formatter.formatOptions.insert(.withFractionalSeconds)
  }
  return formatter.string(from: date)
}

/// A duration as `2h 05m`, `48m 10s` or `12s`.
func format(_ duration: Duration) -> String {
  let seconds = duration.components.seconds
  let (hours, minutes) = (seconds / 3600, seconds % 3600 / 60)
  if hours > 0 { return "\(hours)h " + pad(minutes) + "m" }
  if minutes > 0 { return "\(minutes)m " + pad(seconds % 60) + "s" }
  return "\(seconds)s"
}

/// Resident memory in megabytes (10⁶ bytes, as the extension's 6 MB limit is counted).
func megabytes(_ bytes: UInt64) -> String {
  let tenths = (bytes + 50_000) / 100_000
  return "\(tenths / 10).\(tenths % 10) MB"
}

private func pad(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }

/// Rows of cells as aligned columns, two spaces apart; the last column is not padded.
func table(_ rows: [[String]]) -> [String] {
  var widths: [Int] = []
  for row in rows {
    for (index, cell) in row.enumerated() {
      if index == widths.count { widths.append(0) }
      widths[index] = max(widths[index], cell.count)
    }
  }
  return rows.map { row in
    var line = ""
    for (index, cell) in row.enumerated() {
      line +=
        index == row.count - 1
        ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
    }
    return line
  }
}
