import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Peak resident memory of this process, measured from a reset.
///
/// - On Linux, `peakGrowth()` is `VmHWM` of `/proc/self/status` minus the resident size
///   (`VmRSS`) at the last `reset()`, which resets `VmHWM` to the resident size by writing `5`
///   to `/proc/self/clear_refs`. A failed reset is reported (``resetFailure``), never taken
///   for a measurement.
/// - Elsewhere (macOS), `ru_maxrss` is the process's lifetime peak and cannot be reset:
///   `peakGrowth()` is how much the lifetime peak grew since `reset()` — zero whenever the
///   measured work stayed below an earlier peak.
///
/// ``processPeak`` is the whole process's peak: the largest `VmHWM` read before any reset and
/// now (on Linux), or `ru_maxrss` (elsewhere).
struct PeakMemory {
  private var lifetimePeak = 0
  private var residentAtReset = 0
  /// Why the last reset failed, if it did; the growth is then not measured.
  private(set) var resetFailure: String?

  /// Resets the peak to the current resident size.
  ///
  /// On Linux, with `trimmingHeap` (the default), it first hands the heap's free memory back to
  /// the system (glibc's `malloc_trim`), so that what the measured work allocates shows as new
  /// resident pages instead of reusing pages that earlier work left resident. Without it, the
  /// heap stays as the process left it, as in a process that is not measured.
  mutating func reset(trimmingHeap: Bool = true) {
    #if os(Linux)
    lifetimePeak = max(lifetimePeak, Self.status("VmHWM") ?? 0)
    if trimmingHeap { Self.trimHeap() }
    do {
      try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
      resetFailure = nil
    } catch {
      resetFailure = "clear_refs failed: \(error)"
    }
    residentAtReset = Self.status("VmRSS") ?? 0
    #else
    residentAtReset = Self.maximumResidentSize()
    #endif
  }

  /// The growth of the peak since ``reset()``, in bytes, or `nil` when it was not measured.
  func peakGrowth() -> Int? {
    guard resetFailure == nil else { return nil }
    #if os(Linux)
    guard let peak = Self.status("VmHWM") else { return nil }
    return max(0, peak - residentAtReset)
    #else
    return max(0, Self.maximumResidentSize() - residentAtReset)
    #endif
  }

  /// The whole process's peak resident size so far, in bytes, or `nil` when unreadable.
  var processPeak: Int? {
    #if os(Linux)
    return Self.status("VmHWM").map { max(lifetimePeak, $0) }
    #else
    return Self.maximumResidentSize()
    #endif
  }

  /// The growth since the reset as `12.3 MiB`, or why it was not measured.
  func describeGrowth() -> String {
    guard let growth = peakGrowth() else {
      return "not measured (\(resetFailure ?? "VmHWM unreadable"))"
    }
    return Self.mebibytes(growth)
  }

  /// The process's peak as `30.6 MiB`, or `not measured`.
  func describeProcessPeak() -> String {
    processPeak.map(Self.mebibytes) ?? "not measured (VmHWM unreadable)"
  }

  static func mebibytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
  }

  static func kibibytes(_ bytes: Int?) -> String {
    bytes.map { "\($0 / 1024) KiB" } ?? "not measured"
  }

  /// A `kB` field of `/proc/self/status`, in bytes, or `nil` when it cannot be read.
  static func status(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
  }

  #if os(Linux)
  /// glibc's `malloc_trim(0)`, looked up at run time (Swift's Glibc module does not export it).
  private static func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
  }
  #else
  /// `ru_maxrss` in bytes, as macOS reports it.
  private static func maximumResidentSize() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  }
  #endif
}

/// Reads one `kB` field of `/proc/self/status` into a buffer allocated once, so that reading it
/// allocates nothing: the read that ends a memory measurement must not add its own pages to the
/// peak it reports.
///
/// `PeakMemory.status(_:)` reads the file into a new string; its buffers are allocated after
/// the measured work, so they raised a measured growth by up to 200 KB in a process that
/// allocated nothing that grows.
final class StatusField {
  private let name: [UInt8]
  private var buffer: [UInt8]

  /// A reader of `field` (`VmHWM`, `VmRSS`, …).
  init(_ field: String) {
    name = Array((field + ":").utf8)
    buffer = [UInt8](repeating: 0, count: 16 * 1024)
  }

  /// The field's value in bytes now, or `nil` when it cannot be read (there is no
  /// `/proc/self/status` outside Linux).
  func current() -> Int? {
    let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return buffer.withUnsafeMutableBytes { raw -> Int? in
      guard let base = raw.baseAddress else { return nil }
      var count = 0
      while count < raw.count {
        let got = read(descriptor, base + count, raw.count - count)
        guard got > 0 else { break }
        count += got
      }
      return name.withUnsafeBytes { field in
        Self.value(of: field, in: UnsafeRawBufferPointer(rebasing: raw[..<count]))
      }
    }
  }

  /// The number after `field` at the start of a line of `text`, times 1,024.
  private static func value(of field: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer)
    -> Int?
  {
    guard let textBase = text.baseAddress, let fieldBase = field.baseAddress else { return nil }
    var lineStart = 0
    while lineStart + field.count <= text.count {
      if memcmp(textBase + lineStart, fieldBase, field.count) == 0 {
        var index = lineStart + field.count
        var value = 0
        var digits = 0
        while index < text.count, text[index] != UInt8(ascii: "\n") {
          let byte = text[index]
          if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
          } else if digits > 0 {
            break
          }
          index += 1
        }
        return digits > 0 ? value * 1024 : nil
      }
      guard let newline = memchr(textBase + lineStart, 0x0A, text.count - lineStart) else {
        return nil
      }
      lineStart = textBase.distance(to: UnsafeRawPointer(newline)) + 1
    }
    return nil
  }
}
