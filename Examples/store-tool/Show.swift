import Foundation
import SharedStore

/// `show`: one key's value or log, decoded when the key is one of the library's own.
struct Show {
  let folder: Folder
  let key: String
  let json: Bool

  init(_ folder: Folder, key: String, json: Bool) {
    self.folder = folder
    self.key = key
    self.json = json
  }

  func run() throws(Failure) -> Int32 {
    try Folder.validate(key)
    let store = folder.store
    // A value first; a key that holds a log says so, and is read as one.
    let data: Data?
    do {
      data = try store.read(key)
    } catch .kindMismatch(_, .log) {
      return try showLog()
    } catch {
      throw .reading(key, error)
    }
    guard let data else { throw folder.noKey(key) }
    if let library = LibraryKey(key), !json {
      try library.show(folder, header: header(kind: "a value", bytes: data.count))
      return 0
    }
    if json {
      guard let text = prettyJSON(data) else { throw .input("\(key) holds no JSON") }
      print(text)
      return 0
    }
    let body: [String]
    let form: String
    if let accountant = AccountantView.decode(data) {
      (form, body) = ("a ThresholdAccountant", AccountantView.lines(accountant))
    } else if let text = prettyJSON(data) {
      (form, body) = ("JSON", [text])
    } else if let text = Self.text(data) {
      (form, body) = ("text", [text])
    } else {
      (form, body) = ("binary", hexDump(data))
    }
    print(header(kind: "a value", bytes: data.count) + ", \(form)")
    print("")
    for line in body { print(line) }
    return 0
  }

  private func showLog() throws(Failure) -> Int32 {
    if let library = LibraryKey(key) {
      try library.show(folder, header: header(kind: "an append-only log", bytes: nil), json: json)
      return 0
    }
    let log: LogSnapshot?
    do {
      log = try folder.store.readLog(key)
    } catch {
      throw .reading(key, error)
    }
    guard let log else { throw folder.noKey(key) }
    if json {
      for record in log.records {
        guard prettyJSON(record.bytes) != nil else {
          throw .input("\(key): record \(record.position) holds no JSON")
        }
        print(String(decoding: record.bytes, as: UTF8.self))
      }
      return 0
    }
    print(header(kind: "an append-only log", bytes: nil))
    print(describe(log))
    guard !log.records.isEmpty else { return 0 }
    print("")
    let rows = log.records.map { record in
      [
        "#\(record.position)",
        Self.text(record.bytes) ?? hexDump(record.bytes).joined(separator: " "),
      ]
    }
    for line in table(rows) { print(line) }
    return 0
  }

  /// `app.settings: a value of 58 bytes, change token gen:1f…`.
  private func header(kind: String, bytes: Int?) -> String {
    let size = bytes.map { " of \(count($0, "byte"))" } ?? ""
    let token: String
    do {
      token = try folder.store.changeToken(for: key).map { ", change token \($0)" } ?? ""
    } catch {
      // The key was just read whole, header included; a header that fails now was replaced
      // meanwhile, and the token is left out rather than guessed.
      token = ""
    }
    return "\(key): \(kind)\(size)\(token)"
  }
}

/// `3 records (positions 1...3), capacity 100, 0 evicted`.
func describe(_ log: LogSnapshot) -> String {
  let positions =
    log.records.first.map { first in
      " (positions \(first.position)...\(log.records.last?.position ?? first.position))"
    } ?? ""
  return count(log.count, "record") + positions
    + ", capacity \(log.capacity), \(log.evictedCount) evicted"
}

extension Failure {
  /// A store error while reading `key`: damage (1) or a failed call or invalid key (3).
  static func reading(_ key: String, _ error: SharedStoreError) -> Failure {
    switch error {
    case .io, .invalidKey: return .input("\(key): \(typed(error))")
    default: return .damaged(key, error)
    }
  }
}

// MARK: - Bytes

/// `data` as pretty-printed JSON with sorted keys, or `nil` when it is not JSON.
func prettyJSON(_ data: Data) -> String? {
  do {
    let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let pretty = try JSONSerialization.data(
      withJSONObject: object,
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    return String(decoding: pretty, as: UTF8.self)
  } catch {
    // Not JSON: the caller shows the bytes as text or in hexadecimal instead.
    return nil
  }
}

extension Show {
  /// `data` as text when it is UTF-8 without control characters other than tab and newline.
  static func text(_ data: Data) -> String? {
    guard !data.isEmpty, let text = String(data: data, encoding: .utf8) else { return nil }
    let printable = text.unicodeScalars.allSatisfy {
      $0 == "\n" || $0 == "\t" || !($0.properties.generalCategory == .control)
    }
    return printable ? text : nil
  }
}

/// Lines of 16 bytes: offset, hexadecimal, and the printable ASCII characters.
func hexDump(_ data: Data) -> [String] {
  let bytes = Array(data)
  return stride(from: 0, to: bytes.count, by: 16).map { start in
    let row = bytes[start..<min(start + 16, bytes.count)]
    let offset = String(start, radix: 16)
    let hex = row.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    let ascii = String(row.map { (0x20..<0x7F).contains($0) ? Character(.init($0)) : "." })
    return String(repeating: "0", count: max(0, 8 - offset.count)) + offset + "  "
      + hex.padding(toLength: 47, withPad: " ", startingAt: 0) + "  |" + ascii + "|"
  }
}
