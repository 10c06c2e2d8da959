import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  static let appendLogChanges: [Self] = [
    Self(
      "log-appends-change-the-token",
      "Every append gives the log a new token, and reading the log leaves it as it was."
    ) { context in
      let store = try context.freshStore()
      var tokens: [ChangeToken] = []
      for index in 0..<30 {
        try store.append([record("\(index % 2)")], toLog: "log", capacity: 4)
        let token = try store.changeToken(for: "log")
        try context.expect(
          token.map { !tokens.contains($0) } ?? false, key: "log", "token after append \(index)",
          expected: "a token never seen before on this log", actual: describe(token as Any))
        _ = try store.readLog("log")
        _ = try store.readLog("log", newest: 1)
        try context.expect(try store.changeToken(for: "log"), token, key: "log", "after reads")
        if let token { tokens.append(token) }
      }
    },
    Self(
      "log-compaction-removes-on-purpose",
      "compactLog removes the records refused, does not count them as evicted, never hands their "
        + "positions out again, and writes nothing when it keeps every record."
    ) { context in
      let store = try context.freshStore()
      try store.append((1...6).map { record("\($0)") }, toLog: "log", capacity: 10)
      let removed = try store.compactLog("log") { $0.position % 2 == 1 }
      try context.expect(removed, 3, key: "log", "records removed keeping odd positions")
      let token = try store.changeToken(for: "log")
      try context.expect(try store.compactLog("log") { _ in true }, 0, key: "log", "keeping all")
      try context.expect(try store.changeToken(for: "log"), token, key: "log", "token after it")
      try store.append([record("7")], toLog: "log", capacity: 10)
      let log = try requireLog(store, "log", context, "readLog after compaction")
      try context.expect(log.records.map(\.position), [1, 3, 5, 7], key: "log", "positions")
      try context.expect(log.evictedCount, 0, key: "log", "evictedCount after compaction")
      try context.expect(
        try store.compactLog("log") { $0.position < 7 }, 1, key: "log", "removing the newest")
      try context.expect(
        try store.append([record("8")], toLog: "log", capacity: 10)?.positions, 8...8, key: "log",
        "the next append's positions")
      try context.expect(
        try store.compactLog("absent") { _ in false }, 0, key: "absent", "compacting no log")
    },
    Self(
      "log-capacity-changes-keep-the-newest",
      "An append with another capacity changes the log's, keeps the newest records and never "
        + "brings evicted ones back."
    ) { context in
      let store = try context.freshStore()
      for index in 1...9 { try store.append([record("\(index)")], toLog: "log", capacity: 6) }
      let shrunk = try store.append([record("10")], toLog: "log", capacity: 2)
      try context.expect(shrunk?.evictedCount, 5, key: "log", "evictions when shrinking 6 to 2")
      try context.expect(texts(try store.readLog("log")), ["9", "10"], key: "log", "kept")
      try store.append([record("11")], toLog: "log", capacity: 20)
      let log = try requireLog(store, "log", context, "readLog after growing")
      try context.expect(texts(log), ["9", "10", "11"], key: "log", "records after growing")
      try context.expect(log.capacity, 20, key: "log", "capacity")
      try context.expect(log.evictedCount, 8, key: "log", "evictedCount")
    },
    Self(
      "removed-log-starts-afresh",
      "A removed or quarantined log starts again at position 1 under a new identity, never with "
        + "an old token."
    ) { context in
      let store = try context.freshStore()
      var identities: Set<UInt64> = []
      var tokens: [ChangeToken] = []
      for round in 0..<6 {
        let appended = try store.append([record("a")], toLog: "log", capacity: 2)
        try context.expect(appended?.positions, 1...1, key: "log", "positions in round \(round)")
        if let appended { identities.insert(appended.identity) }
        let token = try store.changeToken(for: "log")
        try context.expect(
          token.map { !tokens.contains($0) } ?? false, key: "log", "token in round \(round)",
          expected: "a token never seen before on this key", actual: describe(token as Any))
        if let token { tokens.append(token) }
        if round % 2 == 0 {
          try store.remove("log")
        } else {
          try context.expect(
            try store.quarantine("log") != nil, key: "log", "quarantine of the log",
            expected: "where it was kept", actual: "nil")
        }
        try context.expect(try store.readLog("log"), nil, key: "log", "readLog after it")
      }
      try context.expect(identities.count, 6, key: "log", "distinct identities of 6 logs")
    },
  ]
}
