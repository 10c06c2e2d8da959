/// A tiny writer of SVG markup: elements with escaped attributes and text, nothing else.
struct SVGWriter {
  private(set) var text = ""

  /// Opens an element; `attributes` are written in the order given.
  mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
    text += "<" + name + Self.attributes(attributes) + ">\n"
  }

  /// Closes an element.
  mutating func close(_ name: String) {
    text += "</" + name + ">\n"
  }

  /// Writes an empty element, or one with escaped text content.
  mutating func element(
    _ name: String, _ attributes: [(String, String)] = [], text content: String? = nil
  ) {
    if let content {
      text +=
        "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name
        + ">\n"
    } else {
      text += "<" + name + Self.attributes(attributes) + "/>\n"
    }
  }

  /// Writes raw markup (a comment or a prepared fragment).
  mutating func raw(_ markup: String) {
    text += markup
  }

  private static func attributes(_ attributes: [(String, String)]) -> String {
    attributes.map { " " + $0.0 + "=\"" + escape($0.1) + "\"" }.joined()
  }

  /// Makes `value` safe as XML character data or an attribute value.
  ///
  /// Works on Unicode scalars, not `Character`s, so that a `<` or `"` followed by a combining
  /// mark is escaped too. The five special characters become entity references; tab, line feed
  /// and carriage return become character references (attribute-value normalisation would
  /// otherwise turn them into spaces); code points XML 1.0 forbids (U+0000–U+0008, U+000B,
  /// U+000C, U+000E–U+001F, U+FFFE, U+FFFF) become U+FFFD, the replacement character.
  static func escape(_ value: String) -> String {
    // Built as a String: appending a view's scalars to a UnicodeScalarView copies what is
    // there already, which made a 1 MB title take minutes.
    var result = ""
    result.reserveCapacity(value.utf8.count)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t": result += "&#9;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A coordinate with at most one decimal: `12`, `12.5`.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    return magnitude % 10 == 0
      ? sign + String(magnitude / 10) : sign + String(magnitude / 10) + "." + String(magnitude % 10)
  }
}
