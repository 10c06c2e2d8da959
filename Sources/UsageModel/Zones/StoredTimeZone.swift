import Foundation

/// How every stored and wire form of the package writes a time zone: one identifier that
/// Apple platforms and Linux read as the same rules.
///
/// Foundation resolves some names differently by platform and by API: Linux keeps `"PST"` as a
/// zone named `"PST"` where Apple's Foundation gives `"America/Los_Angeles"`; on Linux
/// `TimeZone(identifier: "EST")` is the tz database's fixed UTC−5 while
/// `TimeZone(abbreviation: "EST")` is `"America/New_York"`, with daylight saving; `"UTC"` comes
/// back as `"GMT"` on Linux. A stored `timeZone` field must not change meaning when the app's
/// files are read by its extension, a test on Linux, or a later OS. The rule, the same on every
/// platform:
///
/// | written | read from |
/// |---|---|
/// | an IANA region identifier, as given: `"Europe/Paris"`, `"America/Argentina/Buenos_Aires"`, `"Etc/GMT+5"` | the same |
/// | `"GMT"` | `"GMT"`, `"UTC"`, `"UCT"`, `"Zulu"`, `"Universal"`, `"Greenwich"`, `"GMT0"`, and the same names under `"Etc/"` |
/// | `"GMT+hhmm"` or `"GMT-hhmm"`, a fixed offset of whole minutes up to 18 hours (`"GMT+0530"`) | `"GMT+h"`, `"GMT+hh"`, `"GMT+hhmm"`, `"GMT+hh:mm"`, the same with `-` and after `"UTC"`; a zero offset is written `"GMT"` |
/// | nothing: ``UsageModelError/unportableTimeZone(identifier:)`` | an abbreviation or a legacy name without an area: `"PST"`, `"EST"`, `"CET"`, `"EST5EDT"`, `"Japan"`, `"US/Pacific"` |
///
/// A region identifier is `Area/Location` (more parts allowed) whose area is one of the tz
/// database's: `Africa`, `America`, `Antarctica`, `Arctic`, `Asia`, `Atlantic`, `Australia`,
/// `Europe`, `Indian`, `Pacific` or `Etc`, and which Foundation knows. An identifier Foundation
/// does not know is ``UsageModelError/unknownTimeZone(identifier:)``.
///
/// ```swift
/// try StoredTimeZone.identifier(of: TimeZone(identifier: "Europe/Paris")!)  // "Europe/Paris"
/// try StoredTimeZone.identifier(of: TimeZone(secondsFromGMT: 19_800)!)      // "GMT+0530"
/// try StoredTimeZone.timeZone(identifier: "UTC").identifier                 // "GMT"
/// try StoredTimeZone.timeZone(identifier: "PST")  // throws .unportableTimeZone("PST")
/// ```
public enum StoredTimeZone {
  /// The tz database's areas: the first part of a region identifier.
  public static let areas: Set<String> = [
    "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
    "Indian", "Pacific", "Etc",
  ]

  /// The names of UTC, all written `"GMT"`.
  static let universalNames: Set<String> = {
    let names = ["GMT", "UTC", "UCT", "Zulu", "Universal", "Greenwich", "GMT0", "GMT+0", "GMT-0"]
    return Set(names + names.map { "Etc/" + $0 })
  }()

  /// The identifier to store for `zone`.
  ///
  /// - Parameter zone: A time zone.
  /// - Returns: Its region identifier, `"GMT"`, or `"GMT±hhmm"` for a fixed offset.
  /// - Throws: ``UsageModelError/unportableTimeZone(identifier:)`` for a zone named by an
  ///   abbreviation or a legacy name, or a fixed offset that is not whole minutes.
  /// - Complexity: O(*n*) in the identifier's length.
  public static func identifier(of zone: TimeZone) throws(UsageModelError) -> String {
    let identifier = zone.identifier
    if universalNames.contains(identifier) { return "GMT" }
    if fixedOffset(identifier) != nil {
      let seconds = zone.secondsFromGMT()
      guard seconds % 60 == 0 else { throw .unportableTimeZone(identifier: identifier) }
      return fixedOffsetName(seconds)
    }
    guard isRegion(identifier) else { throw .unportableTimeZone(identifier: identifier) }
    return identifier
  }

  /// The time zone a stored identifier names.
  ///
  /// - Parameter identifier: A stored identifier.
  /// - Returns: The zone, whose ``identifier(of:)`` is `identifier` or its canonical form.
  /// - Throws: ``UsageModelError/unportableTimeZone(identifier:)`` for an abbreviation or a
  ///   legacy name; ``UsageModelError/unknownTimeZone(identifier:)`` for a name Foundation does
  ///   not know or an offset beyond 18 hours.
  /// - Complexity: O(*n*) in the identifier's length, plus Foundation's lookup.
  public static func timeZone(identifier: String) throws(UsageModelError) -> TimeZone {
    if universalNames.contains(identifier), let zone = TimeZone(identifier: "GMT") { return zone }
    if let offset = fixedOffset(identifier) {
      guard let seconds = offset, let zone = TimeZone(secondsFromGMT: seconds) else {
        throw .unknownTimeZone(identifier: identifier)
      }
      return zone
    }
    if isRegion(identifier) {
      guard let zone = TimeZone(identifier: identifier) else {
        throw .unknownTimeZone(identifier: identifier)
      }
      return zone
    }
    if TimeZone(identifier: identifier) != nil || TimeZone(abbreviation: identifier) != nil {
      throw .unportableTimeZone(identifier: identifier)
    }
    throw .unknownTimeZone(identifier: identifier)
  }

  // MARK: - The forms

  /// Whether `identifier` has the form of a region identifier in one of the ``areas``.
  ///
  /// Read as UTF-8 bytes: a monitor extension writes the zone with every fact, and comparing
  /// `Character`s costs several times the rest of the fact's encoding.
  package static func isRegion(_ identifier: String) -> Bool {
    var identifier = identifier
    return identifier.withUTF8 { bytes in
      guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return false }
      let area = UnsafeBufferPointer(rebasing: bytes[..<slash])
      guard areaBytes.contains(where: { $0.count == area.count && $0.elementsEqual(area) }) else {
        return false
      }
      var partStart = true
      for byte in UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]) {
        switch byte {
        case UInt8(ascii: "/"):
          guard !partStart else { return false }
          partStart = true
          continue
        case UInt8(ascii: "-"):
          guard !partStart else { return false }
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"):
          break
        default:
          return false
        }
        partStart = false
      }
      return !partStart
    }
  }

  /// The ``areas`` as UTF-8 bytes, which ``isRegion(_:)`` compares without making a string.
  private static let areaBytes: [[UInt8]] = areas.map { Array($0.utf8) }

  /// The offset a fixed-offset name gives, in seconds.
  ///
  /// The form: `GMT` or `UTC`, a sign, then `h`, `hh`, `hhmm` or `hh:mm`. Returns `.some(seconds)`,
  /// `.some(nil)` when the form is right but the offset is beyond 18 hours or the minutes beyond
  /// 59, and `nil` when `identifier` does not have the form.
  static func fixedOffset(_ identifier: String) -> Int?? {
    guard identifier.hasPrefix("GMT") || identifier.hasPrefix("UTC") else { return nil }
    let rest = Array(identifier.utf8.dropFirst(3))
    guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
      return nil
    }
    let body = rest.dropFirst().filter { $0 != UInt8(ascii: ":") }
    let colons = rest.count - 1 - body.count
    guard colons <= 1, (1...4).contains(body.count), body.count != 3,
      body.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    if colons == 1 {
      // "hh:mm" or "h:mm": the colon stands before the last two digits.
      guard let colon = rest.lastIndex(of: UInt8(ascii: ":")), rest.count - colon == 3 else {
        return nil
      }
    }
    let digits = body.map { Int($0 - UInt8(ascii: "0")) }
    let hours = body.count <= 2 ? digits.reduce(0) { $0 * 10 + $1 } : digits[0] * 10 + digits[1]
    let minutes = body.count == 4 ? digits[2] * 10 + digits[3] : 0
    guard hours <= 18, minutes < 60, hours * 3600 + minutes * 60 <= 18 * 3600 else {
      return .some(nil)
    }
    let seconds = hours * 3600 + minutes * 60
    return .some(sign == UInt8(ascii: "-") ? -seconds : seconds)
  }

  /// `"GMT"` for zero, otherwise `"GMT+hhmm"` or `"GMT-hhmm"`.
  static func fixedOffsetName(_ seconds: Int) -> String {
    guard seconds != 0 else { return "GMT" }
    let magnitude = abs(seconds) / 60
    let hours = magnitude / 60
    let minutes = magnitude % 60
    return (seconds < 0 ? "GMT-" : "GMT+") + (hours < 10 ? "0" : "") + "\(hours)"
      + (minutes < 10 ? "0" : "") + "\(minutes)"
  }
}
