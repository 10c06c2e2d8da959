import Foundation
import SharedStore

/// `list` and `verify`: every file of the folder, from `FileStore.inventory()`.
struct Inventory {
  let folder: Folder
  /// The keys' files, sorted by key, then the store's other files and foreign ones by name.
  let items: [FileStore.InventoryItem]

  init(_ folder: Folder) throws(Failure) {
    self.folder = folder
    let all = try folder.inventory()
    let keys = all.filter(\.isKeyFile).sorted { ($0.key ?? "") < ($1.key ?? "") }
    items = keys + all.filter { !$0.isKeyFile }
  }

  /// Prints one line per file; the exit status is 0 whatever their state.
  func list() throws(Failure) -> Int32 {
    print(summary())
    guard !items.isEmpty else { return 0 }
    print("")
    let header = ["KEY OR FILE", "KIND", "BYTES", "FORMAT", "CHANGE TOKEN", "STATE"]
    let rows = items.map { item in
      [
        item.isKeyFile ? item.key ?? item.name : item.name, item.kind.rawValue, "\(item.size)",
        item.formatVersion.map(String.init) ?? "-", item.changeToken?.description ?? "-",
        state(of: item),
      ]
    }
    for line in table([header] + rows) { print(line) }
    return 0
  }

  /// Checks every key's file, and decodes the library's own keys; 1 when any does not read.
  func verify() throws(Failure) -> Int32 {
    var damaged = 0
    var newer = 0
    var checked = 0
    print("verify \(folder.path): \(count(items.filter(\.isKeyFile).count, "key"))")
    for item in items {
      guard item.isKeyFile, let key = item.key else {
        print("note     \(item.name): \(note(on: item))")
        continue
      }
      switch item.state {
      case .ok, .notChecked:
        checked += 1
        var detail = ""
        if let library = LibraryKey(key) {
          do {
            detail = ": " + (try library.check(folder.store))
          } catch {
            damaged += 1
            print("DAMAGED  \(key): \(typed(error))")
            continue
          }
        }
        if item.tornTailSize > 0 {
          detail +=
            " (a torn tail of \(count(item.tornTailSize, "byte")): an append was cut short; "
            + "readers ignore it and the next append removes it)"
        }
        print("ok       \(key)\(detail)")
      case .corrupted(let error), .unreadable(let error):
        damaged += 1
        print("DAMAGED  \(key): \(typed(error))")
      case .newerFormatVersion:
        newer += 1
        print("NEWER    \(key): \(item.error.map(typed) ?? "")")
      }
    }
    let failed = damaged + newer
    guard failed > 0 else {
      print(checked == 0 ? "no key to check" : "all \(count(checked, "key")) read")
      return 0
    }
    var kinds: [String] = []
    if damaged > 0 { kinds.append("\(damaged) damaged") }
    if newer > 0 { kinds.append("\(newer) of a newer format version") }
    print(
      "\(failed) of \(count(checked + failed, "key")) cannot be read: "
        + kinds.joined(separator: ", "))
    return 1
  }

  // MARK: - Words

  /// `/tmp/x: 8 keys — 6 ok, 1 corrupted; 1 leftover temporary file`.
  private func summary() -> String {
    let keys = items.filter(\.isKeyFile)
    let labels = keys.map { Self.label($0.state) }
    let states = ["ok", "corrupted", "of a newer format version", "unreadable"].compactMap {
      label in
      let number = labels.filter { $0 == label }.count
      return number == 0 ? nil : "\(number) \(label)"
    }
    var others: [String] = []
    for (kind, noun) in [
      (FileStore.InventoryItem.Kind.temporary, "leftover temporary file"),
      (.quarantined, "quarantined file"), (.foreign, "foreign file"),
    ] {
      let number = items.filter { $0.kind == kind }.count
      if number > 0 { others.append(count(number, noun)) }
    }
    return "\(folder.path): \(count(keys.count, "key"))"
      + (states.isEmpty ? "" : " — " + states.joined(separator: ", "))
      + (others.isEmpty ? "" : "; " + others.joined(separator: ", "))
  }

  /// How the summary counts a key's state.
  private static func label(_ state: FileStore.InventoryItem.State) -> String {
    switch state {
    case .ok, .notChecked: return "ok"
    case .corrupted: return "corrupted"
    case .newerFormatVersion: return "of a newer format version"
    case .unreadable: return "unreadable"
    }
  }

  /// The state column of `list`.
  private func state(of item: FileStore.InventoryItem) -> String {
    switch item.kind {
    case .value, .log:
      var text = validity(item.state)
      if let records = item.recordCount { text += ", " + count(records, "record") }
      if item.tornTailSize > 0 { text += ", a torn tail of \(count(item.tornTailSize, "byte"))" }
      return text
    case .temporary: return "leftover temporary file" + (item.key.map { " of \($0)" } ?? "")
    case .quarantined:
      return "quarantined" + (item.key.map { " from \($0)" } ?? "") + " (\(validity(item.state)))"
    case .lock: return "the store's lock file"
    case .foreign: return "not the store's; ignored"
    }
  }

  /// `ok`, `corrupted: the payload checksum does not match`, ….
  private func validity(_ state: FileStore.InventoryItem.State) -> String {
    switch state {
    case .ok: return "ok"
    case .corrupted(.corrupted(_, _, let reason)): return "corrupted: \(reason)"
    case .corrupted(let error): return "corrupted: \(error)"
    case .newerFormatVersion(let found, let supported):
      return "newer format version \(found) (this version reads \(supported))"
    case .unreadable(.io(let operation, _, let errno)): return "unreadable: \(operation): \(errno)"
    case .unreadable(let error): return "unreadable: \(error)"
    case .notChecked: return "not checked"
    }
  }

  /// What `verify` says about a file that is not a key's.
  private func note(on item: FileStore.InventoryItem) -> String {
    let of = item.key.map { " of \($0)" } ?? ""
    switch item.kind {
    case .temporary:
      return "a leftover temporary file\(of), left by a writer that was killed; readers ignore "
        + "it, `store-tool clean` removes it"
    case .quarantined:
      return "a quarantined file\(of) (\(validity(item.state))), kept as evidence; delete it "
        + "once it is no longer needed"
    case .lock: return "the store's lock file"
    case .foreign: return "not the store's; the store ignores it"
    case .value, .log: return validity(item.state)
    }
  }
}

extension FileStore.InventoryItem {
  /// Whether the file is a key's value or log.
  var isKeyFile: Bool { kind == .value || kind == .log }
}
