import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// Reads a file line by line through one reusable buffer.
///
/// Memory stays constant however long the file is. A line is handed out without its `\n` (and
/// without a `\r` before it). A line longer than the limit is not buffered: its bytes are
/// skipped up to the next line break and it is handed out as `Line.tooLong(length:)`, so one
/// such line costs the reader at most `limit + 1` bytes and stops nothing.
final class LineReader {
  /// One line of the file.
  enum Line {
    /// The line's bytes.
    case text(UnsafeRawBufferPointer)
    /// A line of `length` bytes (a `\r` before its `\n` included), longer than the limit.
    case tooLong(length: Int)
  }

  private let descriptor: Int32
  private let path: String
  private var buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  private var reachedEnd = false
  /// Bytes of an over-long line already dropped from the buffer.
  private var skipped = 0
  private let limit: Int
  /// The number of the line last returned, counting from 1.
  private(set) var lineNumber = 0

  init(path: String, bufferSize: Int = 1 << 20, limit: Int) throws(ActivityWatchError) {
    let descriptor = Self.retrying { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else {
      throw .io(operation: "open", path: path, errno: .init(rawValue: errno))
    }
    self.descriptor = descriptor
    self.path = path
    self.limit = limit
    buffer = .allocate(byteCount: min(bufferSize, limit + 1), alignment: 16)
  }

  deinit {
    buffer.deallocate()
    _ = close(descriptor)
  }

  /// Calls `body` with each line and its number, until the end of the file.
  func forEachLine(_ body: (Line, Int) throws(ActivityWatchError) -> Void)
    throws(ActivityWatchError)
  {
    while true {
      guard let base = buffer.baseAddress else { return }
      if start < end,
        let newline = memchr(base + start, 0x0A, end - start)
      {
        let lineEnd = base.distance(to: newline)
        try hand(lineEnd, to: body)
        start = lineEnd + 1
        continue
      }
      if reachedEnd {
        if start < end || skipped > 0 {
          try hand(end, to: body)
          start = end
        }
        return
      }
      try refill()
    }
  }

  /// Hands out the line that ends at `lineEnd` in the buffer.
  private func hand(
    _ lineEnd: Int, to body: (Line, Int) throws(ActivityWatchError) -> Void
  ) throws(ActivityWatchError) {
    lineNumber += 1
    let length = skipped + lineEnd - start
    skipped = 0
    if length > limit {
      try body(.tooLong(length: length), lineNumber)
    } else {
      try body(
        .text(Self.trimmed(UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]))), lineNumber)
    }
  }

  private func refill() throws(ActivityWatchError) {
    if start > 0 {
      if let base = buffer.baseAddress { memmove(base, base + start, end - start) }
      end -= start
      start = 0
    }
    if end == buffer.count {
      if skipped > 0 || buffer.count > limit {
        // More than `limit` bytes without a line break: drop them, keep counting.
        skipped += end
        end = 0
      } else {
        let larger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: min(buffer.count * 2, limit + 1), alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
      }
    }
    guard let base = buffer.baseAddress else { return }
    let count = Self.retrying { read(descriptor, base + end, buffer.count - end) }
    guard count >= 0 else {
      throw .io(operation: "read", path: path, errno: .init(rawValue: errno))
    }
    if count == 0 { reachedEnd = true }
    end += count
  }

  static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
  }

  static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result < 0, errno == EINTR { continue }
      return result
    }
  }
}

/// Writes a file through a buffer, to a temporary name that replaces the destination only when
/// everything was written.
final class LineFileWriter {
  private let descriptor: Int32
  private let temporaryPath: String
  private let path: String
  private var pending: [UInt8] = []
  private var committed = false
  private let flushThreshold = 1 << 20

  init(path: String) throws(ActivityWatchError) {
    let temporaryPath = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = LineReader.retrying {
      open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    }
    guard descriptor >= 0 else {
      throw .io(operation: "open", path: temporaryPath, errno: .init(rawValue: errno))
    }
    self.path = path
    self.temporaryPath = temporaryPath
    self.descriptor = descriptor
    pending.reserveCapacity(flushThreshold + 4096)
  }

  deinit {
    _ = close(descriptor)
    if !committed { _ = unlink(temporaryPath) }
  }

  /// Appends bytes with `body`, writing to the file whenever a megabyte has collected.
  func append(_ body: (inout [UInt8]) -> Void) throws(ActivityWatchError) {
    body(&pending)
    if pending.count >= flushThreshold { try flush() }
  }

  /// Writes what is pending, then renames the temporary file over the destination.
  func commit() throws(ActivityWatchError) {
    try flush()
    guard rename(temporaryPath, path) == 0 else {
      throw .io(operation: "rename", path: path, errno: .init(rawValue: errno))
    }
    committed = true
  }

  private func flush() throws(ActivityWatchError) {
    var written = 0
    while written < pending.count {
      let count = pending.withUnsafeBytes { bytes in
        LineReader.retrying {
          write(descriptor, bytes.baseAddress.map { $0 + written }, pending.count - written)
        }
      }
      guard count > 0 else {
        throw .io(
          operation: "write", path: temporaryPath, errno: .init(rawValue: count < 0 ? errno : EIO))
      }
      written += count
    }
    pending.removeAll(keepingCapacity: true)
  }
}
