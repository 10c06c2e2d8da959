// Checks every ```swift block of the documentation, so that no snippet a reader copies fails to
// compile. Run by Scripts/check-snippets.sh, which builds the library first.
//
//   swift Scripts/check-snippets.swift MODULES_DIR SCRATCH_DIR FILE...
//
// A block is one of four kinds, said by an HTML comment on the lines just before it (DocC and
// GitHub show neither the comment nor anything in it):
//
// - no comment: a snippet that needs only the library. It is type-checked on its own, in Swift 6
//   language mode, against the library's modules (MODULES_DIR). A block that imports nothing is
//   compiled with `import Foundation` and `import ScreenTimeKit`.
// - `<!-- snippet: given` … `-->`: the same, after the declarations between the two lines, which
//   stand for what the surrounding text has already introduced. A `let` or `var` line without
//   a value gets one (`let store: FileStore` declares a `FileStore` the snippet can use); any
//   other line (a `func` with its body, a `struct`) is taken as it is.
// - `<!-- snippet: ios PATH -->`: a snippet that needs Apple's frameworks (DeviceActivity,
//   FamilyControls, SwiftUI, WidgetKit…). It must appear verbatim, indentation aside, in the
//   file PATH of Examples/iOS, which Scripts/build-ios-examples.sh compiles for iOS on macOS.
// - `<!-- snippet: fragment REASON -->`: not compiled (a manifest excerpt, a module of the
//   reader's own). Keep these rare; REASON is required.
//
// Exits 1 if any snippet fails, printing the file and line of each failure and the compiler's
// diagnostics against the generated file.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
  FileHandle.standardError.write(
    Data("usage: check-snippets.swift MODULES_DIR SCRATCH_DIR FILE...\n".utf8))
  exit(2)
}
let modulesDirectory = arguments[1]
let scratch = URL(fileURLWithPath: arguments[2], isDirectory: true)
let files = Array(arguments.dropFirst(3))

enum Kind {
  case library(given: [String])
  case ios(path: String)
  case fragment(reason: String)
}

struct Snippet {
  let file: String
  let line: Int
  let kind: Kind
  let code: [String]
}

var problems: [String] = []

/// The snippets of one Markdown file, with the marker before each.
func snippets(in file: String) throws -> [Snippet] {
  let lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
  var result: [Snippet] = []
  var index = 0
  while index < lines.count {
    let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("```") else {
      index += 1
      continue
    }
    let info = trimmed.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
    let indentation = lines[index].prefix { $0 == " " }.count
    let start = index
    var code: [String] = []
    index += 1
    while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
      code.append(
        String(lines[index].dropFirst(min(indentation, lines[index].prefix { $0 == " " }.count))))
      index += 1
    }
    index += 1
    guard info == "swift" else { continue }
    result.append(
      Snippet(file: file, line: start + 1, kind: marker(before: start, in: lines), code: code))
  }
  return result
}

/// The marker comment that ends on the line before `fence` (blank lines allowed between).
func marker(before fence: Int, in lines: [String]) -> Kind {
  var end = fence - 1
  while end >= 0, lines[end].trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
  guard end >= 0, lines[end].trimmingCharacters(in: .whitespaces).hasSuffix("-->") else {
    return .library(given: [])
  }
  var begin = end
  while begin >= 0, !lines[begin].contains("<!--") { begin -= 1 }
  guard begin >= 0 else { return .library(given: []) }
  var text = lines[begin...end].map { $0.trimmingCharacters(in: .whitespaces) }
  text[0] = String(text[0].drop { $0 != "<" }.dropFirst("<!--".count))
    .trimmingCharacters(in: .whitespaces)
  text[text.count - 1] = String(text[text.count - 1].dropLast("-->".count))
    .trimmingCharacters(in: .whitespaces)
  let head = text[0]
  guard head.hasPrefix("snippet:") else { return .library(given: []) }
  let words = head.dropFirst("snippet:".count).split(separator: " ", maxSplits: 1)
    .map(String.init)
  switch words.first {
  case "given":
    return .library(given: text.dropFirst().filter { !$0.isEmpty })
  case "ios":
    return .ios(path: words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : "")
  case "fragment":
    return .fragment(reason: words.count > 1 ? words[1] : "")
  default:
    return .fragment(reason: "")  // reported below as an unknown marker
  }
}

/// The Swift file that type-checks a library snippet.
func source(of snippet: Snippet, given: [String]) -> String {
  let imports = snippet.code.filter { $0.hasPrefix("import ") }
  let body = snippet.code.filter { !$0.hasPrefix("import ") }
  var lines = ["// \(snippet.file):\(snippet.line)"]
  lines += imports.isEmpty ? ["import Foundation", "import ScreenTimeKit"] : imports
  if !given.isEmpty {
    lines.append(
      "func given<Value>() -> Value { fatalError(\"a snippet is type-checked, never run\") }")
    for declaration in given {
      let isStoredValue = declaration.hasPrefix("let ") || declaration.hasPrefix("var ")
      lines.append(
        isStoredValue && !declaration.contains("=") ? declaration + " = given()" : declaration)
    }
  }
  lines.append("// The snippet:")
  return (lines + body).joined(separator: "\n") + "\n"
}

func normalized(_ lines: [String]) -> String {
  lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
    separator: "\n")
}

/// Runs a command and returns its exit status and combined output.
func run(_ command: [String]) throws -> (Int32, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = command
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

try? FileManager.default.removeItem(at: scratch)
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

var compiled = 0
var verbatim = 0
var fragments = 0
for file in files {
  for (number, snippet) in try snippets(in: file).enumerated() {
    let place = "\(snippet.file):\(snippet.line)"
    switch snippet.kind {
    case .fragment(let reason):
      if reason.isEmpty {
        problems.append("\(place): a `snippet: fragment` needs a reason (or the marker is unknown)")
      }
      fragments += 1
    case .ios(let path):
      guard path.hasPrefix("Examples/iOS/"),
        let example = try? String(contentsOfFile: path, encoding: .utf8)
      else {
        problems.append(
          "\(place): `snippet: ios` names \(path.isEmpty ? "no file" : path), not a file of Examples/iOS"
        )
        continue
      }
      // Whole lines only: the snippet's first line may not match the end of a longer line.
      let inExample = "\n" + normalized(example.components(separatedBy: "\n")) + "\n"
      if !inExample.contains("\n" + normalized(snippet.code) + "\n") {
        problems.append("\(place): this iOS snippet is not, verbatim, in \(path)")
      }
      verbatim += 1
    case .library(let given):
      let name = file.replacingOccurrences(of: "/", with: "_") + "_\(number + 1).swift"
      let generated = scratch.appendingPathComponent(name)
      try source(of: snippet, given: given).write(to: generated, atomically: true, encoding: .utf8)
      let (status, output) = try run([
        "swiftc", "-typecheck", "-swift-version", "6", "-I", modulesDirectory,
        "-enable-upcoming-feature", "ExistentialAny", generated.path,
      ])
      if status != 0 {
        problems.append("\(place): does not compile (\(generated.path)):\n\(output)")
      }
      compiled += 1
    }
  }
}

if problems.isEmpty {
  print(
    "snippets: \(compiled) compiled on their own, \(verbatim) found verbatim in Examples/iOS, "
      + "\(fragments) fragments")
} else {
  for problem in problems { print("snippets: \(problem)") }
  print("snippets: \(problems.count) problems")
  exit(1)
}
