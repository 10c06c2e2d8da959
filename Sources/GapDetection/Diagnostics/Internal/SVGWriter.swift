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

  /// Escapes the five XML special characters.
  static func escape(_ value: String) -> String {
    var result = ""
    result.reserveCapacity(value.utf8.count)
    for character in value {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.append(character)
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
