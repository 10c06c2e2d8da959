// Checks the links of a merged DocC site that Scripts/build-docs.sh built, and exits 1 if any is
// broken:
//
//   - every reference a page uses (`doc://…` identifiers in its content, topics and See Also) is
//     among the page's references, and a page's reference leads to a page the site has;
//   - no link leaves the site except to a web address (a link to a repository file such as
//     `../Sources/…` or `Documentation/…` leads nowhere once the docs are rendered);
//   - no text cites a repository document (`Documentation/….md`) instead of linking a page;
//   - no code voice names a package type, protocol or module that the page links nowhere
//     (``X``, ``/Module/X``): the renderer shows such a name as plain code, so a reader cannot
//     follow it. One link per page is enough.
//
//   swift Scripts/check-doc-links.swift SITE.doccarchive
//
// It reads only the archive's render JSON (data/**/*.json) with Foundation.
import Foundation

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: check-doc-links.swift SITE.doccarchive\n".utf8))
  exit(2)
}
let site = URL(fileURLWithPath: CommandLine.arguments[1])
let dataFolder = site.appendingPathComponent("data")

/// Every render JSON file of the site, by its site path (`/documentation/sharedstore/filestore`).
var pages: [String: [String: Any]] = [:]
guard
  let walker = FileManager.default.enumerator(at: dataFolder, includingPropertiesForKeys: nil)
else {
  FileHandle.standardError.write(Data("check-doc-links: no data folder in \(site.path)\n".utf8))
  exit(2)
}
for case let file as URL in walker where file.pathExtension == "json" {
  let relative = String(file.path.dropFirst(dataFolder.path.count))
  let path = String(relative.dropLast(".json".count)).lowercased()
  guard let page = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
  else { continue }
  pages[path] = page
}

/// The names a reader expects to be links: the modules and their top-level types and protocols.
var linkableNames: Set<String> = []
for (path, page) in pages {
  let components = path.split(separator: "/")
  guard components.count == 2 || components.count == 3,
    let metadata = page["metadata"] as? [String: Any],
    let kind = metadata["symbolKind"] as? String
  else { continue }
  let title = metadata["title"] as? String ?? ""
  if kind == "module" || ["struct", "class", "enum", "protocol", "actor"].contains(kind) {
    linkableNames.insert(title)
  }
}

var problems: [String] = []

/// Visits every value of a JSON tree.
func walk(_ value: Any, _ visit: ([String: Any]) -> Void) {
  if let dictionary = value as? [String: Any] {
    visit(dictionary)
    for child in dictionary.values { walk(child, visit) }
  } else if let array = value as? [Any] {
    for child in array { walk(child, visit) }
  }
}

/// A repository document cited by its path: the guides are pages of the site now.
let citation = try NSRegularExpression(
  pattern: #"(^|[^A-Za-z])(Documentation/[^ ]*\.md|\.\./[^ ]*\.md)"#)

for (path, page) in pages.sorted(by: { $0.key < $1.key }) {
  let references = page["references"] as? [String: Any] ?? [:]
  // A name counts as linked on the page if any link or declaration on it leads to its page.
  let title = (page["metadata"] as? [String: Any])?["title"] as? String
  var linkedTitles: Set<String> = title.map { [$0] } ?? []
  for case let reference as [String: Any] in references.values {
    if reference["type"] as? String == "topic", let title = reference["title"] as? String {
      linkedTitles.insert(title)
    }
  }
  for (identifier, reference) in references {
    guard let reference = reference as? [String: Any] else { continue }
    let url = reference["url"] as? String ?? ""
    switch reference["type"] as? String {
    case "topic":
      let target = String(url.split(separator: "#").first ?? "").lowercased()
      if pages[target] == nil {
        problems.append("\(path): \(identifier) leads to \(url), which the site does not have")
      }
    case "link":
      if !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
        problems.append("\(path): a link to \(url) leaves the site for a file it does not have")
      }
    default: break
    }
  }
  // Content, topics and See Also: what is shown, not the declaration's type references.
  for key in ["abstract", "primaryContentSections", "topicSections", "seeAlsoSections", "sections"]
  {
    guard let content = page[key] else { continue }
    walk(content) { node in
      if let identifier = node["identifier"] as? String, identifier.hasPrefix("doc://"),
        references[identifier] == nil
      {
        problems.append("\(path): \(identifier) is not resolved")
      }
      let type = node["type"] as? String
      if type == "text" || type == "codeVoice" {
        let text = (node["text"] as? String) ?? (node["code"] as? String) ?? ""
        let range = NSRange(text.startIndex..., in: text)
        if citation.firstMatch(in: text, range: range) != nil {
          problems.append("\(path): cites a repository file as text: \(text)")
        }
      }
      if key != "primaryContentSections" || node["kind"] as? String == "declarations" { return }
      if type == "codeVoice", let code = node["code"] as? String, linkableNames.contains(code),
        !linkedTitles.contains(code)
      {
        problems.append("\(path): `\(code)` names a documented symbol the page links nowhere")
      }
    }
  }
}

if problems.isEmpty {
  print("links: \(pages.count) pages, every link resolves")
} else {
  for problem in problems.sorted() { print("links: \(problem)") }
  print("links: \(problems.count) problems in \(pages.count) pages")
  exit(1)
}
