import Foundation
import ScreenTimeKit

/// The built-in sample: one person's Sunday, 2026-03-08, in New York — the day the clocks jump
/// from 02:00 to 03:00, so the local day is 23 hours long.
enum SampleDay {
  static let timeZone = TimeZone(identifier: "America/New_York") ?? .gmt
  static let boundary = DayBoundary(timeZone: timeZone)
  static let day = LocalDay(uncheckedDemoYear: 2026, month: 3, day: 8)

  /// One stretch of use of one app, in local wall-clock time.
  struct Session {
    var app: String
    var start: (hour: Int, minute: Int)
    var minutes: Int
  }

  /// What the person did with their phone.
  static let sessions: [Session] = [
    Session(app: "com.burbn.instagram", start: (7, 10), minutes: 25),
    Session(app: "com.duolingo.DuolingoMobile", start: (7, 40), minutes: 20),
    Session(app: "com.supercell.clashroyale", start: (12, 5), minutes: 35),
    Session(app: "com.burbn.instagram", start: (14, 0), minutes: 30),
    Session(app: "com.netflix.Netflix", start: (19, 30), minutes: 95),
    Session(app: "com.burbn.instagram", start: (22, 10), minutes: 20),
  ]

  /// The daily use the app had already recorded on each of March 1–7, per category.
  static let earlierEachDay: [AppCategory: Duration] = [
    .socialMedia: .seconds(70 * 60), .entertainment: .seconds(80 * 60),
    .gaming: .seconds(25 * 60), .education: .seconds(15 * 60),
  ]

  /// How the app files bundle identifiers under categories.
  static let rules = CategoryRules([
    .exact(AppID(demo: "com.netflix.Netflix"), .entertainment),
    CategoryRule.prefixForDemo("com.burbn.", .socialMedia),
    CategoryRule.prefixForDemo("com.supercell.", .gaming),
    CategoryRule.prefixForDemo("com.duolingo.", .education),
  ])

  /// The instant of a local wall-clock time on the sample day.
  static func instant(_ hour: Int, _ minute: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let components = DateComponents(year: 2026, month: 3, day: 8, hour: hour, minute: minute)
    return calendar.date(from: components) ?? boundary.start(of: day)
  }
}

extension LocalDay {
  /// A day the demo knows is valid.
  init(uncheckedDemoYear year: Int, month: Int, day: Int) {
    do {
      self = try LocalDay(year: year, month: month, day: day)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

extension AppID {
  /// An identifier the demo knows is valid.
  init(demo rawValue: String) {
    do {
      self = try AppID(rawValue)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

extension CategoryRule {
  /// A prefix rule the demo knows is valid.
  static func prefixForDemo(_ prefix: String, _ category: AppCategory) -> CategoryRule {
    do {
      return try .prefix(prefix, category)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}
