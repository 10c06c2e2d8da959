/// Glob matching over bytes: `*` any run, `?` one byte, anything else itself.
enum Glob {
  /// Whether `text` matches `pattern` as a whole, in O(*n* × *m*) without recursion.
  static func matches(_ text: [UInt8], pattern: [UInt8]) -> Bool {
    let star: UInt8 = 0x2A
    let question: UInt8 = 0x3F
    var textIndex = 0
    var patternIndex = 0
    var starIndex: Int?
    var resumeIndex = 0
    while textIndex < text.count {
      if patternIndex < pattern.count,
        pattern[patternIndex] == question || pattern[patternIndex] == text[textIndex]
      {
        textIndex += 1
        patternIndex += 1
      } else if patternIndex < pattern.count, pattern[patternIndex] == star {
        starIndex = patternIndex
        resumeIndex = textIndex
        patternIndex += 1
      } else if let star = starIndex {
        patternIndex = star + 1
        resumeIndex += 1
        textIndex = resumeIndex
      } else {
        return false
      }
    }
    while patternIndex < pattern.count, pattern[patternIndex] == star { patternIndex += 1 }
    return patternIndex == pattern.count
  }
}
