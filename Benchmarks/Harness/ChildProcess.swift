import Foundation

/// A benchmark's child process: the benchmark binary started again with a flag, whose standard
/// output is one JSON value.
enum ChildProcess {
  /// Runs this executable with `arguments`, waits for it, and decodes its standard output.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, the child's flag first.
  ///   - name: What the child is, for the error.
  /// - Returns: The child's output, decoded.
  /// - Throws: `BenchmarkError` when it exits with a status other than 0 (with its standard
  ///   error), or what decoding throws.
  static func run<Output: Decodable>(_ arguments: [String], name: String) throws -> Output {
    let process = Process()
    process.executableURL = ExtensionBenchmarks.MemoryChild.selfExecutable()
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchmarkError("\(name) exited with \(process.terminationStatus): \(errorText)")
    }
    return try JSONDecoder().decode(Output.self, from: data)
  }
}
