/// The thresholds registered for every app: one every `step` seconds up to `top`, and the
/// event names that carry them.
///
/// Names are `stk:<threshold>:<app>` for generation 0 and `stk:g<N>:<threshold>:<app>` after,
/// with the threshold written `<minutes>m` when a whole number of minutes, else `<seconds>s`:
/// `stk:15m:com.a`, `stk:g2:15m:com.a`, `stk:90s:com.a`.
package struct ThresholdLadder: Hashable, Sendable {
  /// The distance between two rungs, in seconds.
  package let step: Int
  /// The highest rung, in seconds.
  package let top: Int

  /// The platform simulator's ladder: every 5 minutes up to 4 hours.
  package static let standard = ThresholdLadder(step: 300, top: 4 * 3_600)

  /// Every rung, ascending.
  package var thresholds: [Int] { Array(stride(from: step, through: top, by: step)) }

  /// An event's name.
  ///
  /// - Parameters:
  ///   - threshold: Seconds.
  ///   - app: The app's bundle identifier.
  ///   - generation: The registration generation; 0 writes no generation.
  /// - Returns: The name, such as `stk:g2:15m:com.a`.
  package static func eventName(threshold: Int, app: String, generation: Int) -> String {
    let written = threshold % 60 == 0 ? "\(threshold / 60)m" : "\(threshold)s"
    return generation == 0 ? "stk:\(written):\(app)" : "stk:g\(generation):\(written):\(app)"
  }

  /// Reads an event's name back.
  ///
  /// - Parameter name: A name written by ``eventName(threshold:app:generation:)``.
  /// - Returns: The threshold in seconds, the app and the generation, or `nil` if malformed.
  package static func parse(_ name: String) -> (threshold: Int, app: String, generation: Int)? {
    var parts = name.split(separator: ":", maxSplits: 3).map(String.init)
    guard parts.first == "stk", parts.count >= 3 else { return nil }
    var generation = 0
    if parts[1].hasPrefix("g"), parts.count == 4, let value = Int(parts[1].dropFirst()) {
      generation = value
      parts.remove(at: 1)
    } else if parts.count == 4 {
      parts = [parts[0], parts[1], parts[2] + ":" + parts[3]]
    }
    let written = parts[1]
    guard let value = Int(written.dropLast()), value > 0 else { return nil }
    switch written.last {
    case "m": return (value * 60, parts[2], generation)
    case "s": return (value, parts[2], generation)
    default: return nil
    }
  }
}
