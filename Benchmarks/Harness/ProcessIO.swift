import Foundation

/// The bytes this process has written so far, from `/proc/self/io` (Linux only).
///
/// - `wchar`: bytes passed to `write`, `pwrite` and the like — what the code asked to write,
///   whatever happens to them later (a terminal, a pipe, the page cache).
/// - `write_bytes`: bytes the process caused to be sent to the storage layer, counted when a
///   page of the page cache is dirtied, so in whole pages: an append of 40 bytes to a page that
///   was flushed counts 4,096.
///
/// Print nothing while measuring: standard output counts in `wchar`.
struct ProcessIO: Equatable {
  var wchar: Int
  var writeBytes: Int

  /// The counters now, or `nil` where `/proc/self/io` does not exist (macOS).
  static func now() -> ProcessIO? {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else {
      return nil
    }
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":")
      if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
        fields[String(parts[0])] = value
      }
    }
    guard let wchar = fields["wchar"], let writeBytes = fields["write_bytes"] else { return nil }
    return ProcessIO(wchar: wchar, writeBytes: writeBytes)
  }

  /// The bytes written between `earlier` and `self`.
  static func - (later: ProcessIO, earlier: ProcessIO) -> ProcessIO {
    ProcessIO(wchar: later.wchar - earlier.wchar, writeBytes: later.writeBytes - earlier.writeBytes)
  }
}
