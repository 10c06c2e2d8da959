/// What kind of file-system object sits at a path.
///
/// ``FileStore`` keeps every value and log in a regular file, and its lock in the regular file
/// `.lock`. Anything else at one of those paths — a directory, a symbolic link, a FIFO, a socket,
/// a device — is input it did not write: it never opens it for reading or writing (a FIFO would
/// block, `/dev/zero` would never end, a symbolic link could point outside the store) and reports
/// it as ``SharedStoreError/notARegularFile(key:path:kind:)``.
///
/// JSON form: the raw value, such as `"fifo"`.
public enum FileKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// A regular file.
  case regularFile
  /// A directory.
  case directory
  /// A symbolic link, whatever it points to.
  case symbolicLink
  /// A FIFO (named pipe): reading it waits for a writer.
  case fifo
  /// A Unix-domain socket.
  case socket
  /// A character device, such as `/dev/zero`.
  case characterDevice
  /// A block device.
  case blockDevice
  /// A kind the platform reports that none of the others describes.
  case unknown

  /// The kind in words, such as "a FIFO (named pipe)".
  public var description: String {
    switch self {
    case .regularFile: return "a regular file"
    case .directory: return "a directory"
    case .symbolicLink: return "a symbolic link"
    case .fifo: return "a FIFO (named pipe)"
    case .socket: return "a socket"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .unknown: return "a file of unknown kind"
    }
  }
}
