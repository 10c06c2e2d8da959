/// How close a process's memory use is to its limit.
///
/// JSON form: the raw value, for example `"warning"`.
public enum MemoryLevel: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
  /// At or below the warning threshold.
  case normal
  /// Above the warning threshold (seed 000's orange, 4.5 MB).
  case warning
  /// Above the critical threshold (seed 000's red, 5.5 MB): use the minimal recording path.
  case critical
  /// Above the limit: the system kills a process that stays there.
  case overLimit = "over_limit"

  /// Whether `lhs` is a less severe level than `rhs`.
  public static func < (lhs: MemoryLevel, rhs: MemoryLevel) -> Bool { lhs.rank < rhs.rank }

  private var rank: Int {
    switch self {
    case .normal: return 0
    case .warning: return 1
    case .critical: return 2
    case .overLimit: return 3
    }
  }
}
