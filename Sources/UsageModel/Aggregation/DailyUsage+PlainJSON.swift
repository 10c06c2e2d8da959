import Foundation

extension DailyUsage {
  /// Reads the documented JSON form without `JSONDecoder`, when it is in the plain form the
  /// package writes; `nil` otherwise.
  ///
  /// A dashboard reads a day's usage for each past day of its month at launch, and
  /// `JSONDecoder` builds a keyed container for each of the day's objects, several times the
  /// cost of the bytes. This reader takes exactly the documented members, strings in plain ASCII
  /// and integers (`FlatJSON`), and checks what ``init(from:)`` checks. For anything else — an
  /// escape, an unknown or missing member, a value the decoder would refuse — it returns `nil`,
  /// and the caller decodes with `JSONDecoder`, which decides and explains. So it never accepts
  /// what the decoder refuses, and gives the decoder's value for what it accepts.
  ///
  /// - Parameter bytes: A stored day's usage.
  /// - Complexity: O(*n* log *n*) in the length of `bytes`.
  package init?(plainJSON bytes: some Collection<UInt8>) {
    guard case .object(let members)? = FlatJSON.node(of: bytes), members.count == 6,
      case .string(let dayText)? = members["day"],
      let day = try? LocalDay(parsing: dayText),
      let start = Self.instant(members["start"]), let end = Self.instant(members["end"]),
      end >= start,
      let total = Self.milliseconds(members["totalMs"]),
      case .array(let categoryNodes)? = members["categories"],
      case .array(let appNodes)? = members["apps"]
    else { return nil }
    var categories: [CategoryUsage] = []
    for node in categoryNodes {
      guard case .object(let category) = node, category.count == 3,
        case .string(let name)? = category["category"],
        let value = try? AppCategory(name),
        let categoryTotal = Self.milliseconds(category["totalMs"]),
        case .array(let apps)? = category["apps"],
        let categoryApps = Self.apps(apps)
      else { return nil }
      categories.append(CategoryUsage(category: value, total: categoryTotal, apps: categoryApps))
    }
    guard let apps = Self.apps(appNodes),
      (try? Self.checkTotal(total, length: Milliseconds.duration(end - start))) != nil,
      (try? Self.check(categories: categories, within: total)) != nil,
      (try? Self.check(apps: apps, within: total)) != nil
    else { return nil }
    self.init(
      day: day, startInstant: start, endInstant: end, total: total,
      categories: categories.sorted(by: CategoryUsage.mostUsedFirst),
      apps: apps.sorted(by: AppUsage.mostUsedFirst))
  }

  /// The instant of an ISO 8601 string, as `decodeInstant` reads it.
  private static func instant(_ node: FlatJSON.Node?) -> Int64? {
    guard case .string(let text)? = node, case .success(let instant) = ISO8601Instant.parse(text)
    else { return nil }
    return instant
  }

  /// A whole, non-negative number of milliseconds, as `decodeMilliseconds` reads it.
  private static func milliseconds(_ node: FlatJSON.Node?) -> Duration? {
    guard case .integer(let value)? = node, value >= 0 else { return nil }
    return Milliseconds.duration(value)
  }

  /// Apps' usage, each `{"app": …, "totalMs": …}`.
  private static func apps(_ nodes: [FlatJSON.Node]) -> [AppUsage]? {
    var apps: [AppUsage] = []
    apps.reserveCapacity(nodes.count)
    for node in nodes {
      guard case .object(let members) = node, members.count == 2,
        case .string(let name)? = members["app"], let app = try? AppID(name),
        let total = milliseconds(members["totalMs"])
      else { return nil }
      apps.append(AppUsage(app: app, total: total))
    }
    return apps
  }
}
