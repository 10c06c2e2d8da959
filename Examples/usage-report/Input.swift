import BudgetMath
import Foundation
import UsageModel

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

/// A sync payload and the line it came from, so that a conflict can name it.
struct PayloadLine {
  let payload: UsageSyncPayload
  let location: String
}

/// Everything read from the files.
struct Input {
  var records: [UsageRecord] = []
  var payloads: [PayloadLine] = []
  var rules = CategoryRules()
  var plan: MonthlyPlan?
  var planFile = ""

  /// Reads categorisation rules: `CategoryRules`' JSON form, an array of rules.
  mutating func readRules(_ file: String) throws(Failure) {
    rules = try decode(CategoryRules.self, from: try contents(of: file), at: file)
  }

  /// Reads a monthly plan: `MonthlyPlan`'s JSON form.
  mutating func readPlan(_ file: String) throws(Failure) {
    plan = try decode(MonthlyPlan.self, from: try contents(of: file), at: file)
    planFile = file
  }

  /// Reads a file of JSON Lines, or a file that holds one object spread over several lines.
  mutating func read(_ file: String) throws(Failure) {
    let data = try contents(of: file)
    let lines = jsonLines(data)
    for (index, line) in lines.enumerated() {
      let location = "\(file):\(index + 1)"
      guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
        throw .input(location, "empty line; each line must hold one JSON object")
      }
      do {
        add(try JSONDecoder().decode(Entry.self, from: line), at: location)
      } catch {
        guard let problem = syntaxProblem(line) else { throw .input(location, describe(error)) }
        // The first line alone is not JSON: perhaps the file is one object over several lines.
        if index == 0, lines.count > 1, syntaxProblem(data) == nil {
          do {
            add(try JSONDecoder().decode(Entry.self, from: data), at: file)
            return
          } catch {
            throw .input(file, describe(error))
          }
        }
        throw .input(location, problem)
      }
    }
  }

  private mutating func add(_ entry: Entry, at location: String) {
    switch entry {
    case .record(let record): records.append(record)
    case .payload(let payload): payloads.append(PayloadLine(payload: payload, location: location))
    }
  }
}

/// One object of the input: a usage record, or a sync payload, which has a `usageDate`.
private enum Entry: Decodable {
  case record(UsageRecord)
  case payload(UsageSyncPayload)

  private enum Keys: String, CodingKey {
    case usageDate
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    if container.contains(.usageDate) {
      self = .payload(try UsageSyncPayload(from: decoder))
    } else {
      self = .record(try UsageRecord(from: decoder))
    }
  }
}

// MARK: - Files and lines

/// The bytes of `file`, or of standard input for `-`.
func contents(of file: String) throws(Failure) -> Data {
  if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
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

/// The lines of JSON Lines text; a final line break ends the last line, and a `\r` before a
/// line break is dropped.
func jsonLines(_ data: Data) -> [Data] {
  var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
  if lines.last?.isEmpty == true { lines.removeLast() }
  return lines.map { $0.last == 0x0D ? Data($0.dropLast()) : Data($0) }
}

/// Decodes a whole file as one JSON value, naming the file in any error.
func decode<Value: Decodable>(_ type: Value.Type, from data: Data, at file: String)
  throws(Failure) -> Value
{
  do {
    return try JSONDecoder().decode(type, from: data)
  } catch {
    throw .input(file, syntaxProblem(data) ?? describe(error))
  }
}

/// Why `data` is not JSON at all, or `nil` when it is.
private func syntaxProblem(_ data: Data) -> String? {
  do {
    _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    return nil
  } catch {
    // Foundation says where: "Invalid value around line 1, column 12."
    let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return "not valid JSON"
      + (detail.map { " (\($0.lowercased().trimmingCharacters(in: ["."])))" } ?? "")
  }
}

/// A decoding error in one line: which field, and what is wrong with it.
func describe(_ error: any Error) -> String {
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
