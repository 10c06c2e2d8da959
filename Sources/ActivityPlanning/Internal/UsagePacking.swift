import UsageModel

/// Places apps' ladders into usage activities of at most `capacity` events each.
///
/// Apps first stay in the activity the previous plan gave them, when it has room, in the order
/// of their previous activities; the rest go first-fit by decreasing size (ties by app ID).
enum UsagePacking {
  /// The activity index (0-based) of each app, or `nil` when they do not fit in `bins`.
  ///
  /// - Complexity: O(*a* × *b*) for *a* apps and *b* bins.
  static func pack(
    sizes: [AppID: Int], bins: Int, capacity: Int, previous: [AppID: Int]
  ) -> [AppID: Int]? {
    guard bins > 0 else { return sizes.isEmpty ? [:] : nil }
    var load = [Int](repeating: 0, count: bins)
    var placed: [AppID: Int] = [:]
    let staying = sizes.compactMap { app, size in previous[app].map { (app, size, $0) } }
      .sorted { ($0.2, $0.0.rawValue) < ($1.2, $1.0.rawValue) }
    for (app, size, bin) in staying where bin < bins && load[bin] + size <= capacity {
      load[bin] += size
      placed[app] = bin
    }
    let rest = sizes.filter { placed[$0.key] == nil }
      .sorted { (-$0.value, $0.key.rawValue) < (-$1.value, $1.key.rawValue) }
    for (app, size) in rest {
      guard let bin = load.indices.first(where: { load[$0] + size <= capacity }) else {
        return nil
      }
      load[bin] += size
      placed[app] = bin
    }
    return placed
  }
}
