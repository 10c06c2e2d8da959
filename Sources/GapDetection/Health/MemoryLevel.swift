/// How close a process's memory use is to its limit.
///
/// JSON form: the raw value, for example `"warning"`.
public enum MemoryLevel: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
  /// At or below the warning threshold.
  case normal
  /// Above the warning threshold (4.5 MB by default).
  case warning
  /// Above the critical threshold (5.5 MB by default): use the minimal recording path.
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
