import Foundation
import UsageModel

/// Colours and names of the SVG timeline.
enum TimelineStyle {
  static let font = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
  static let ink = "#1f2933"
  static let muted = "#616e7c"
  static let grid = "#e4e7eb"
  static let expected = "#f5f7fa"
  static let heartbeat = "#3b5bdb"
  static let tracked = "#2f9e44"

  static func colour(of classification: GapClass) -> String {
    switch classification {
    case .trackerDown: return "#e03131"
    case .notificationLoss: return "#f08c00"
    case .idle: return "#b6c2d1"
    }
  }

  /// The CSS class of a gap's element: `gap gap-tracker-down`.
  static func cssClass(of classification: GapClass) -> String {
    "gap gap-" + classification.rawValue.replacingOccurrences(of: "_", with: "-")
  }

  static func colour(of category: AppCategory) -> String {
    switch category.rawValue {
    case "social_media": return "#d6336c"
    case "entertainment": return "#7048e8"
    case "gaming": return "#f76707"
    case "productivity": return "#1c7ed6"
    case "shopping": return "#f59f00"
    case "news_reading": return "#5c7cfa"
    case "health_fitness": return "#37b24d"
    case "education": return "#0ca678"
    case "other": return "#868e96"
    default:
      let palette = ["#15aabf", "#ae3ec9", "#e8590c", "#74b816", "#4263eb", "#c2255c"]
      let hash = category.rawValue.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }
      return palette[hash % palette.count]
    }
  }

  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  static func name(of weekday: Weekday) -> String {
    switch weekday {
    case .monday: return "Monday"
    case .tuesday: return "Tuesday"
    case .wednesday: return "Wednesday"
    case .thursday: return "Thursday"
    case .friday: return "Friday"
    case .saturday: return "Saturday"
    case .sunday: return "Sunday"
    }
  }
}
