import Foundation

extension FileStore {
  /// A log file a store appended to lately, kept open with what it knows of the file's header
  /// and end, so that the next append to the same log costs an `fstatat` instead of an `open`,
  /// two `fstat`s, two reads and a `close` — and nothing more in the same hold of the lock
  /// (``checkedAt``) — and does not decode the newest record the store wrote or read last.
  ///
  /// A monitor extension appends to the same few logs at every callback, and reads the newest
  /// record of one of them first; everything else a store does opens its file afresh.
  /// ``FileStore/appendToLog(_:capacity:examiningNewest:_:)`` uses it under the store's lock,
  /// and so does ``FileStore/readLog(_:newest:)`` for a few newest records inside
  /// ``FileStore/exclusively(_:)``, each only after an `fstatat` of the file's name, in the
  /// directory the store keeps open, finds the same regular file (device and inode): the open
  /// descriptor keeps the file, so its inode number cannot be given to another file meanwhile. A
  /// compaction, a write of a value, a removal or a quarantine — by this store or another
  /// process — renames or unlinks the path, and the next append opens the new file.
  ///
  /// What it holds of the file's bytes, and what it decoded of them, is used only while the
  /// file has the size it had after the store's own last append: the store's writers never
  /// write inside a log file, only at its end or by replacing it, so a file of the same size
  /// holds the same bytes, and a file that grew (another writer appended, or one was killed part
  /// way) or shrank (something else wrote it) is read again, header and end. A compaction
  /// always reads the whole file from the disk.
  final class OpenLog {
    /// The key whose file this is.
    let key: String
    /// The key's path, which names the file while it is the key's.
    let path: String
    /// The file's name in the store's directory: the last component of ``path``.
    let name: String
    /// The open file (read and write).
    let descriptor: Int32
    /// The file's device and inode, from the `fstat` made when it was opened.
    let identity: FileIdentity
    /// What the store knows of the file's bytes.
    let window: LogWindow
    /// The ``Handles/checkSerial`` under which the path was last found to name this file, or
    /// the file was written: while the serial is unchanged — in the same hold of the lock, and
    /// with no file renamed or unlinked by the store since — the file is not checked again.
    var checkedAt: UInt64

    init(
      key: String, path: String, name: String, descriptor: Int32, identity: FileIdentity,
      window: LogWindow, checkedAt: UInt64
    ) {
      self.key = key
      self.path = path
      self.name = name
      self.descriptor = descriptor
      self.identity = identity
      self.window = window
      self.checkedAt = checkedAt
    }
  }

  /// The first bytes (the header) and the last bytes of a log file of a known size.
  ///
  /// At most ``capacity`` bytes of the end are kept, and a decoded newest record of at most as
  /// many, so a window costs a few kilobytes however long the log. The end is an array, which an
  /// append extends for a fraction of what extending `Data` costs (at every append of a monitor
  /// callback), and which is made anew, at ``trimmedSize``, when it passes ``capacity``, so that
  /// a large frame does not leave its capacity behind. A read of the end — when the decoded
  /// record does not answer it: a reader of several records, a newest record over ``capacity``,
  /// a file another writer changed — gets a copy of the bytes it asks for.
  final class LogWindow {
    /// The most bytes of the end of the file kept: twice what an append reads of it.
    static var capacity: Int { 2 * LogEngine<FileLogMedium>.tailReadSize }
    /// The bytes of the end kept after an append takes the window beyond ``capacity``: what an
    /// append reads of it, so that the end is copied once every few kilobytes appended rather
    /// than at every append.
    static var trimmedSize: Int { LogEngine<FileLogMedium>.tailReadSize }

    /// The size of the file the bytes are from.
    private(set) var size: Int
    /// The file's bytes from offset 0; never more than its header.
    private var head = Data()
    /// The file's bytes up to `size`.
    private var tail: [UInt8] = []
    /// The header, counts and newest record of the file at `size`, decoded by the last read of
    /// its end or made by the store's own append, so that the next append does not decode them
    /// again.
    private var end: LogView?

    /// A window on a file of `size` bytes that holds none of them yet.
    init(size: Int) {
      self.size = size
    }

    /// Forgets the bytes held when the file no longer has the size they were read at: the file
    /// now has `size` bytes, and is read again.
    func resize(to size: Int) {
      guard size != self.size else { return }
      self.size = size
      head = Data()
      tail = []
      end = nil
    }

    /// The bytes the window's end holds room for: a few KiB (twice ``capacity`` at most, an
    /// array growing by doubling) however large a frame was appended.
    var endCapacity: Int { tail.capacity }

    /// The decoded end of the file at its current size, if the window holds it.
    var decodedEnd: LogView? { end?.size == size ? end : nil }

    /// Keeps `view`, the decoded end of the file, when it is of the file at its current size
    /// and its records are at most ``capacity`` bytes in all; forgets the one kept otherwise.
    ///
    /// The records are kept as they are: they must be the store's own bytes, decoded from the
    /// file or copied from what an append was given (``LogMedium/rememberEnd(_:)``), so that
    /// the window neither keeps a caller's larger buffer alive nor hands out bytes its caller
    /// reuses. The bound keeps a window at a few kilobytes whatever a log holds (a value kept as
    /// versions is one record).
    func keepDecodedEnd(_ view: LogView) {
      guard view.size == size,
        view.frames.reduce(0, { $0 + $1.records.reduce(0) { $0 + $1.count } })
          <= Self.capacity
      else {
        end = nil
        return
      }
      end = view
    }

    /// `count` bytes from `offset`, when the window holds all of them: a slice of the header's
    /// bytes or a copy of the end's.
    func bytes(from offset: Int, count: Int) -> Data? {
      guard offset >= 0, count >= 0, offset + count <= size else { return nil }
      if offset + count <= head.count {
        return head[head.startIndex + offset..<head.startIndex + offset + count]
      }
      let tailStart = size - tail.count
      guard offset >= tailStart else { return nil }
      let first = offset - tailStart
      return Data(tail[first..<first + count])
    }

    /// Keeps what a read of `bytes` at `offset` says about the header and the end.
    func remember(_ bytes: Data, at offset: Int) {
      if offset == 0, head.count < LogFileFormat.headerSize {
        head = Data(bytes.prefix(LogFileFormat.headerSize))
      }
      if offset + bytes.count == size, bytes.count > tail.count {
        tail = Array(bytes.suffix(Self.capacity))
      }
    }

    /// Takes in `bytes` written at the end of the file.
    func appended(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
      end = nil
      guard offset == size else {
        size = offset + bytes.count
        tail = Array(bytes.suffix(Self.capacity))
        return
      }
      size += bytes.count
      tail.append(contentsOf: bytes)
      // A new array, not `removeFirst`: an array keeps its capacity, which one large frame
      // would otherwise leave held for as long as the file is kept open.
      if tail.count > Self.capacity { tail = Array(tail.suffix(Self.trimmedSize)) }
    }
  }
}
