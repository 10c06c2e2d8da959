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
    var result = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": result.append(contentsOf: "&amp;".unicodeScalars)
      case "<": result.append(contentsOf: "&lt;".unicodeScalars)
      case ">": result.append(contentsOf: "&gt;".unicodeScalars)
      case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
      case "'": result.append(contentsOf: "&apos;".unicodeScalars)
      case "\t": result.append(contentsOf: "&#9;".unicodeScalars)
      case "\n": result.append(contentsOf: "&#10;".unicodeScalars)
      case "\r": result.append(contentsOf: "&#13;".unicodeScalars)
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result.append("\u{FFFD}")
      default: result.append(scalar)
      }
    }
    return String(result)
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
