import BudgetMath
import Foundation
import SharedStore
import Shielding
import TrackerSignals

/// A shield token as the tool sees it: the app's token in whatever JSON form it has, kept as
/// that JSON text, so that the intents of any app decode without its token type.
struct AnyToken: ShieldToken, CustomStringConvertible {
  /// The token's JSON, with sorted keys.
  let json: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(JSONValue.self)
    json = try jsonLine(value)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
  }

  var description: String { json }
}

/// Any JSON value, to carry a token of unknown type.
indirect enum JSONValue: Codable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension LibraryKey {
  /// The shield intents, decoded where they decode.
  func shieldRecords(_ store: FileStore) throws -> [ShieldIntentRecord<AnyToken>] {
    try ShieldController<AnyToken>(store: store, layout: layout, timeZone: .gmt).intentRecords()
      .records
  }

  /// What the extension recorded of the shields it applies.
  func shieldApplied(_ store: FileStore) throws -> ShieldAppliedRecord<AnyToken>? {
    try ShieldController<AnyToken>(store: store, layout: layout, timeZone: .gmt).appliedRecord()
  }

  /// What `check` says of the shield keys.
  func checkShields(_ store: FileStore) throws -> String {
    if content == .shieldApplied {
      guard let record = try shieldApplied(store) else { return "absent" }
      let pending = record.pending.map {
        ", a decision pending over " + count($0.changedStores.count, "store")
      }
      return count(record.applied?.targets.count ?? 0, "shielded target") + (pending ?? "")
        + " decode"
    }
    let records = try shieldRecords(store)
    let bad = records.filter {
      if case .undecodable = $0 { return true }
      return false
    }
    guard bad.isEmpty else { throw ShieldIntentDamage(records: bad) }
    return count(records.count, "shield intent") + " decode"
  }

  /// Prints the shield intents or the applied state.
  func showShields(_ folder: Folder, header: String, json: Bool) throws {
    if content == .shieldApplied {
      guard let record = try shieldApplied(folder.store) else { return }
      if json {
        print(try jsonLine(record))
        return
      }
      print(header)
      if let state = record.applied {
        printShieldState(state, as: "the shields the extension last applied (ShieldController)")
      } else {
        print("the shields the extension last applied (ShieldController): none yet")
      }
      if let pending = record.pending {
        print("")
        printShieldState(
          pending.state,
          as: "a decision being applied, or killed before it was marked applied, changing "
            + (pending.changedStores.isEmpty
              ? "no store"
              : "stores " + pending.changedStores.map(String.init).joined(separator: ", "))
            + (pending.changesAllCategories ? " and every category's shield" : ""))
      }
      return
    }
    let records = try shieldRecords(folder.store)
    if json {
      for record in records {
        if case .intent(let intent) = record { print(try jsonLine(intent)) }
      }
      return
    }
    print(header)
    print("the app's shield intents (ShieldController): " + count(records.count, "intent"))
    guard !records.isEmpty else { return }
    print("")
    let rows = records.map { record -> [String] in
      switch record {
      case .intent(let intent):
        return [intent.id, instant(intent.at), Self.describe(intent.action)]
      case .undecodable(let position, let reason):
        return ["#\(position)", "-", "UNDECODABLE: \(reason)"]
      }
    }
    for line in table([["ID", "AT", "ACTION"]] + rows) { print(line) }
  }

  /// Prints a shield state: its instant, its counts, and a table of its targets.
  private func printShieldState(_ state: ShieldState<AnyToken>, as title: String) {
    print(
      "\(title), at \(instant(state.instant)): " + count(state.targets.count, "target") + " in "
        + count(state.stores.count, "store")
        + (state.shieldsAllCategories ? ", every category shielded" : ""))
    guard !state.targets.isEmpty else { return }
    print("")
    let rows = state.targets.map { entry in
      [
        entry.target.kind.rawValue, entry.target.token.json,
        entry.reasons.map(\.description).joined(separator: "; "),
      ]
    }
    for line in table([["KIND", "TOKEN", "REASONS"]] + rows) { print(line) }
  }

  private static func describe(_ action: ShieldIntent<AnyToken>.Action) -> String {
    switch action {
    case .setProfile(let profile):
      return "set profile \(profile.id): " + count(profile.targets.count, "target") + ", "
        + count(profile.schedules.count, "schedule") + ", budgets "
        + (profile.budgets.isEmpty ? "none" : profile.budgets.joined(separator: ", "))
    case .removeProfile(let id): return "remove profile \(id)"
    case .startFocus(let session, let profiles, let focus):
      return "start focus \(session) for \(format(focus)) on "
        + profiles.joined(separator: ", ")
    case .focus(let session, let event, let breakLength):
      return "focus \(session): \(event.rawValue)"
        + (breakLength.map { " for \(format($0))" } ?? "")
    case .earnedTime(let session, let duration, let profiles):
      return "earned time \(session) for \(format(duration)) on "
        + (profiles?.joined(separator: ", ") ?? "every profile")
    case .override(let profile, let mode, let until):
      return "\(mode.rawValue) \(profile) until \(instant(until))"
    case .budget(let name, let status, let until):
      return "budget \(name): \(status.level.rawValue), \(format(status.remaining)) left until "
        + instant(until)
    }
  }
}

/// Shield intents that did not decode, as `verify` reports them.
struct ShieldIntentDamage: Error, CustomStringConvertible {
  let records: [ShieldIntentRecord<AnyToken>]

  var description: String {
    let positions = records.compactMap { record -> String? in
      if case .undecodable(let position, let reason) = record { return "#\(position) (\(reason))" }
      return nil
    }
    return "undecodable shield intents: " + positions.joined(separator: ", ")
  }
}
