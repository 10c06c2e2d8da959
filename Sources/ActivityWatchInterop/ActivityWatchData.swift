/// The `data` object of an ActivityWatch event, compared the way ActivityWatch compares it.
///
/// ActivityWatch merges two heartbeats only when their data are equal under Python's `==` on
/// the decoded JSON. This type keeps the object's text as given (``json``) and compares a
/// canonical form with the same meaning:
///
/// - key order and whitespace do not matter, and escapes are decoded (`"Saf\u0061ri"` is
///   `"Safari"`);
/// - numbers compare by value: `1`, `1.0` and `1e0` are equal; a literal with a fraction or an
///   exponent is a `Double` as Python's `float`, so `0.1` equals `0.10000000000000001`;
/// - as in Python, `true` equals `1` and `false` equals `0`;
/// - array order matters, and so does the difference between `null`, `""` and a missing key.
///
/// As in Python's ``json``, of duplicate keys in one object the last counts.
///
/// ```swift
/// let expected = ActivityWatchData(["app": "Safari", "title": "Docs"])
/// let read = try ActivityWatchData(json: text)   // text: {"title":"Docs", "app":"Safari"}
/// read == expected   // true
/// ```
public struct ActivityWatchData: Sendable, Hashable, CustomStringConvertible {
  /// The object's JSON text, as given.
  public let json: String
  /// The canonical form; equal exactly when the values are equal.
  let canonical: [UInt8]

  /// An empty object, `{}`.
  public static let empty = ActivityWatchData(unchecked: "{}", canonical: Array("{}".utf8))

  /// Creates data from the JSON text of an object.
  ///
  /// - Parameter json: A JSON object, for example `{"app": "Safari"}`.
  /// - Throws: ``ActivityWatchError/malformedEvent(reason:)`` when the text is not one valid JSON
  ///   object (strict RFC 8259, valid UTF-8, nesting up to 64).
  public init(json: String) throws(ActivityWatchError) {
    var text = json
    let canonical = text.withUTF8 { bytes in
      Result { () throws(JSONFailure) in try Self.canonicalObject(UnsafeRawBufferPointer(bytes)) }
    }
    switch canonical {
    case .success(let canonical): self.init(unchecked: json, canonical: canonical)
    case .failure(let failure): throw .malformedEvent(reason: "data: " + failure.reason)
    }
  }

  /// Creates data whose values are all strings, such as `{"app": "Safari", "title": "Docs"}`.
  ///
  /// - Parameter fields: The keys and their string values.
  public init(_ fields: [String: String]) {
    var text: [UInt8] = [UInt8(ascii: "{")]
    for (offset, key) in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
      .enumerated()
    {
      if offset > 0 { text.append(UInt8(ascii: ",")) }
      JSONScanner.appendCanonicalString(Array(key.utf8), to: &text)
      text.append(UInt8(ascii: ":"))
      JSONScanner.appendCanonicalString(Array((fields[key] ?? "").utf8), to: &text)
    }
    text.append(UInt8(ascii: "}"))
    self.init(unchecked: String(decoding: text, as: UTF8.self), canonical: text)
  }

  init(unchecked json: String, canonical: [UInt8]) {
    self.json = json
    self.canonical = canonical
  }

  /// The canonical form of the object in `bytes`, which must hold exactly one object.
  static func canonicalObject(_ bytes: UnsafeRawBufferPointer) throws(JSONFailure) -> [UInt8] {
    var scanner = JSONScanner(bytes)
    scanner.skipWhitespace()
    guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.failure("expected an object") }
    var canonical: [UInt8] = []
    try scanner.canonicalValue(into: &canonical)
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw scanner.failure("unexpected text after the object") }
    return canonical
  }

  /// Whether both hold equal values.
  public static func == (lhs: ActivityWatchData, rhs: ActivityWatchData) -> Bool {
    lhs.canonical == rhs.canonical
  }

  /// Hashes the canonical form.
  public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

  /// The JSON text.
  public var description: String { json }
}
