import Foundation

extension JSONDecoder {
  /// Decodes stored bytes, refusing bytes that are not UTF-8 before the decoder sees them.
  ///
  /// JSON is UTF-8, and bytes read from a shared folder are input: a damaged file or a frame
  /// planted by another process may hold anything. Swift 6.0's Foundation (swift-corelibs and the
  /// swift-foundation it ships) traps on invalid UTF-8 inside a JSON string instead of throwing,
  /// so every decode of stored bytes goes through this check, and such bytes are a
  /// `DecodingError.dataCorrupted` like any other malformed JSON.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: The stored bytes.
  /// - Returns: The decoded value.
  /// - Throws: `DecodingError.dataCorrupted` for bytes that are not UTF-8, and what `decode`
  ///   throws.
  /// - Complexity: O(*n*) in the size of `data`: one pass over it (a quicker one when it is
  ///   ASCII), then the decoding.
  package func decodeStored<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    guard Self.isUTF8(data) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "the bytes are not UTF-8, so they are not JSON"))
    }
    return try decode(type, from: data)
  }

  /// Whether `data` is well-formed UTF-8.
  package static func isUTF8(_ data: Data) -> Bool {
    data.withUnsafeBytes { raw in
      if !raw.contains(where: { $0 >= 0x80 }) { return true }
      let hadError = transcode(
        raw.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
      return !hadError
    }
  }
}
