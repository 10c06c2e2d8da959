import Foundation
import SharedStore
import TestSupport

// The kill storm's subcommands, for KillStormStressTests in SharedStoreTests (Scripts/stress.sh):
// writers SIGKILLed one after another while readers read the same keys without pause.
//
//   storm-write --dir D --key K --size S --first C [--durability M]
//       Writes the self-checking values (KillPattern) C, C+1, C+2, ... of S bytes to K until it is
//       killed, and prints each counter once its `write` has returned: a printed counter is an
//       acknowledged write, which a kill must not lose.
//   storm-read --dir D --keys K1,K2,... --size S --stop F
//       Reads the keys in turn until the file F exists, then prints one line,
//       "reads=N torn=T regressions=R": the reads made, those that were not one complete value
//       (an error, nothing, or a torn value), and those that found a key's counter lower than
//       this reader had seen before. A key's writers take up where the last one stopped, so its
//       counter never goes down unless a write that was seen is lost.

/// Runs a kill-storm subcommand; returns `false` when `name` is not one of them.
func runKillStormCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "storm-write":
    let store = try options.store()
    let key = try options.string("key")
    let size = try options.int("size")
    var counter = UInt64(try options.int("first"))
    while true {
      try store.write(KillPattern.value(counter, size: size), for: key)
      emit("\(counter)")
      counter += 1
    }

  case "storm-read":
    let store = try options.store()
    let keys = try options.string("keys").split(separator: ",").map(String.init)
    let size = try options.int("size")
    let stop = try options.string("stop")
    var newest = [String: UInt64]()
    var reads = 0
    var torn = 0
    var regressions = 0
    // Checking for the stop file costs a system call; every 64 reads is often enough.
    while reads % 64 != 0 || !FileManager.default.fileExists(atPath: stop) {
      let key = keys[reads % keys.count]
      reads += 1
      // A read that throws counts as torn: either way the reader did not get one whole value.
      guard let data = try? store.read(key), let counter = KillPattern.counter(in: data, size: size)
      else {
        torn += 1
        continue
      }
      if counter < newest[key, default: 0] { regressions += 1 }
      newest[key] = max(counter, newest[key, default: 0])
    }
    emit("reads=\(reads) torn=\(torn) regressions=\(regressions)")

  default:
    return false
  }
  return true
}
