import Foundation

/// A way to damage one file of a shared folder, as a failing disk, a restore from a backup or a
/// careless tool would: the damage tests apply it between the processes that use the folder.
package enum FolderDamage: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Every byte of the file's first 8 inverted: the magic bytes and format version are wrong.
  case flipHeader
  /// Every byte after the header inverted: the records are garbage behind a valid header.
  case flipRecords
  /// Cut to 10 bytes, shorter than any header.
  case truncateToStub
  /// Cut to half its length.
  case truncateToHalf
  /// A format version one above the one the library reads, with its check field to match.
  case newerVersion
  /// Replaced by text that is no store file at all.
  case garbage
  /// Removed.
  case delete

  /// The damage's name.
  package var description: String { rawValue }

  /// Damages the file at `url`.
  ///
  /// - Parameter url: The file.
  /// - Throws: When the file cannot be read or written.
  package func apply(to url: URL) throws {
    if self == .delete {
      try FileManager.default.removeItem(at: url)
      return
    }
    var bytes = [UInt8](try Data(contentsOf: url))
    switch self {
    case .flipHeader:
      for index in 0..<min(8, bytes.count) { bytes[index] ^= 0xFF }
    case .flipRecords:
      // Past the larger of the two headers (a value's 32 bytes, a log's 56).
      for index in min(56, bytes.count)..<bytes.count { bytes[index] ^= 0xFF }
    case .truncateToStub:
      bytes = Array(bytes.prefix(10))
    case .truncateToHalf:
      bytes = Array(bytes.prefix(bytes.count / 2))
    case .newerVersion:
      guard bytes.count >= 8 else { break }
      // Little-endian version at 4, its complement at 6.
      let version = (UInt16(bytes[4]) | UInt16(bytes[5]) << 8) &+ 1
      bytes[4] = UInt8(version & 0xFF)
      bytes[5] = UInt8(version >> 8)
      bytes[6] = UInt8(~version & 0xFF)
      bytes[7] = UInt8(~version >> 8)
    case .garbage:
      bytes = Array("this is not a ScreenTimeKit store file".utf8)
    case .delete:
      break
    }
    try Data(bytes).write(to: url)
  }
}
