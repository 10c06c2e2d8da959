import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What a run was measured on, so that figures from different runs can be told apart.
struct Machine: Encodable {
  /// The CPU's model name (`model name` of `/proc/cpuinfo`), or `unknown`.
  var cpu: String
  /// The processors available to the process.
  var cores: Int
  /// The physical memory, as `/proc/meminfo` gives it (`MemTotal`), or `unknown`.
  var memory: String
  /// The kernel's name and release (`uname -sr`).
  var kernel: String
  /// The first line of `swift --version`, or `unknown`.
  var swift: String
  /// The file system of the scratch directory, its device and mount point:
  /// `ext4 (/dev/vda on /)`.
  var fileSystem: String
  /// The 1-, 5- and 15-minute load averages when the run started, and when it ended.
  var loadAtStart: [Double]
  var loadAtEnd: [Double] = []
  /// `release` or `debug`.
  var build: String
  /// Whether the run was a `--quick` smoke run.
  var quick: Bool
  /// When the run started, ISO 8601 in UTC.
  var started: String
  /// How long the run took, in seconds.
  var seconds: Double = 0

  /// Whether this is a release build, whose figures are worth recording.
  static var isReleaseBuild: Bool {
    #if DEBUG
    false
    #else
    true
    #endif
  }

  /// Describes this machine now, for a run whose files go to `scratch`.
  static func describe(scratch: URL, quick: Bool) -> Machine {
    let build = isReleaseBuild ? "release" : "debug"
    return Machine(
      cpu: field("model name", of: "/proc/cpuinfo") ?? "unknown",
      cores: ProcessInfo.processInfo.activeProcessorCount,
      memory: field("MemTotal", of: "/proc/meminfo") ?? "unknown", kernel: kernel(),
      swift: swiftVersion(), fileSystem: fileSystem(of: scratch), loadAtStart: loadAverage(),
      build: build, quick: quick,
      started: ISO8601DateFormatter().string(from: Date()))
  }

  /// The load averages now: 1, 5 and 15 minutes.
  static func loadAverage() -> [Double] {
    var loads = [Double](repeating: 0, count: 3)
    let count = loads.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { getloadavg($0, 3) } ?? 0
    }
    return Array(loads.prefix(max(0, Int(count))))
  }

  /// The load averages as `1.93 2.10 2.35`.
  static func format(load: [Double]) -> String {
    load.map { String(format: "%.2f", $0) }.joined(separator: " ")
  }

  /// One line for a person.
  var summary: String {
    "\(cpu), \(cores) cores, \(memory) memory; \(kernel); \(swift); scratch on \(fileSystem); "
      + "load average \(Self.format(load: loadAtStart)) at the start"
      + (loadAtEnd.isEmpty ? "" : ", \(Self.format(load: loadAtEnd)) at the end")
      + "; \(build) build"
      + (quick ? ", --quick (smoke figures, not for recording)" : "")
  }

  // MARK: - Reading the system

  /// The value of the first line `name: value` (or `name<TAB>: value`) of a `/proc` file.
  private static func field(_ name: String, of path: String) -> String? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      guard key == name else { continue }
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  private static func kernel() -> String {
    var names = utsname()
    guard uname(&names) == 0 else { return "unknown" }
    func text<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return text(names.sysname) + " " + text(names.release)
  }

  /// The first line of `swift --version`, from the `swift` on the `PATH`.
  private static func swiftVersion() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "--version"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      return "unknown"
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let line = text.split(separator: "\n").first { $0.contains("Swift version") }
    return line.map(String.init) ?? "unknown"
  }

  /// The file system holding `url`: the entry of `/proc/self/mounts` with the longest mount
  /// point that contains it.
  private static func fileSystem(of url: URL) -> String {
    guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else {
      return "unknown"
    }
    let path = url.resolvingSymlinksInPath().standardizedFileURL.path
    var best: (point: String, type: String, device: String)?
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count >= 3 else { continue }
      let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
      let contains = point == "/" || path == point || path.hasPrefix(point + "/")
      if contains, point.count >= (best?.point.count ?? -1) {
        best = (point, fields[2], fields[0])
      }
    }
    return best.map { "\($0.type) (\($0.device) on \($0.point))" } ?? "unknown"
  }
}
