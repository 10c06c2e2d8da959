import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A problem that ends the program, told in one line.
struct Failure: Error, CustomStringConvertible {
  /// The exit status: 1 for bad input, 2 for a bad command line.
  let status: Int32
  /// The line to print after the program's name.
  let description: String

  /// A bad command line.
  static func usage(_ message: String) -> Failure {
    Failure(status: 2, description: message + " (see --help)")
  }

  /// Bad input at `location`, a file or `file:line`.
  static func input(_ location: String, _ message: String) -> Failure {
    Failure(status: 1, description: "\(location): \(message)")
  }
}

/// The values of a JSON Lines file, one per line, or the first line that is not one.
///
/// A final line break is optional; an empty line is an error, as in ActivityWatchInterop.
func decodeLines<Value: Decodable>(_ type: Value.Type, from file: String) throws(Failure)
  -> [Value]
{
  var lines = try contents(of: file).split(separator: 0x0A, omittingEmptySubsequences: false)
  if lines.last?.isEmpty == true { lines.removeLast() }
  var values: [Value] = []
  let decoder = JSONDecoder()
  for (index, slice) in lines.enumerated() {
    let line = Data(slice.last == 0x0D ? slice.dropLast() : slice)
    guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
      throw .input("\(file):\(index + 1)", "empty line; each line must hold one JSON object")
    }
    do {
      values.append(try decoder.decode(type, from: line))
    } catch {
      throw .input("\(file):\(index + 1)", syntaxProblem(line) ?? describe(error))
    }
  }
  return values
}

/// The bytes of `file`.
func contents(of file: String) throws(Failure) -> Data {
  let descriptor = open(file, O_RDONLY)
  guard descriptor >= 0 else { throw .input(file, String(cString: strerror(errno))) }
  let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  var status = stat()
  if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
    throw .input(file, "is a directory, not a file")
  }
  do {
    return try handle.readToEnd() ?? Data()
  } catch {
    throw .input(file, "cannot be read: \(error.localizedDescription)")
  }
}

/// Why `data` is not JSON at all, or `nil` when it is.
private func syntaxProblem(_ data: Data) -> String? {
  do {
    _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    return nil
  } catch {
    // Foundation says where: "Invalid value around character 12."
    let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return "not valid JSON"
      + (detail.map { " (\($0.lowercased().trimmingCharacters(in: ["."])))" } ?? "")
  }
}

/// A decoding error in one line: which field, and what is wrong with it.
private func describe(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return "\(error)" }
  func field(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text
  }
  switch error {
  case .keyNotFound(let key, let context):
    return "missing field \"\(field(context.codingPath + [key]))\""
  case .typeMismatch(_, let context), .valueNotFound(_, let context),
    .dataCorrupted(let context):
    let path = field(context.codingPath)
    return (path.isEmpty ? "" : "field \"\(path)\": ") + context.debugDescription
  @unknown default:
    return "\(error)"
  }
}

/// Parses an ISO 8601 instant with a `Z` or an offset, with or without a fraction of a second.
func parseInstant(_ text: String) -> Date? {
  let formatter = ISO8601DateFormatter()
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions.insert(.withFractionalSeconds)
  return formatter.date(from: text)
}
