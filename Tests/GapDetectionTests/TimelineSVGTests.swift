import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG timeline of a day: well-formed whatever its text, one element per gap, an hour axis
/// that follows the wall clock, a legend that stays inside, and the rendered example.
@Suite("Diagnostics: the SVG timeline")
struct TimelineSVGTests {
  /// Counts elements and checks well-formedness with Foundation's XML parser.
  final class SVGCounter: NSObject, XMLParserDelegate {
    var gapIDs: [String] = []
    var gapClasses: [String] = []
    var texts: [String] = []
    /// The attributes of each `text` element, in the order of ``texts``.
    var textAttributes: [[String: String]] = []
    var hourLabels: [String] = []
    var rootAttributes: [String: String] = [:]
    var elements = 0
    private var isHour = false
    private var inText = false

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      elements += 1
      if elementName == "svg" { rootAttributes = attributes }
      if let id = attributes["id"], id.hasPrefix("gap-") { gapIDs.append(id) }
      if let classes = attributes["class"], classes.split(separator: " ").contains("gap") {
        gapClasses.append(classes)
      }
      inText = elementName == "text"
      isHour = attributes["class"] == "hour"
      if inText {
        texts.append("")
        textAttributes.append(attributes)
      }
      if isHour { hourLabels.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inText { texts[texts.count - 1] += string }
      if isHour { hourLabels[hourLabels.count - 1] += string }
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      inText = false
      isHour = false
    }
  }

  func parse(_ svg: String) throws -> SVGCounter {
    let parser = XMLParser(data: Data(svg.utf8))
    let counter = SVGCounter()
    parser.delegate = counter
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    return counter
  }

  @Test("the SVG is well-formed XML with one element per gap")
  func svgIsWellFormed() throws {
    let report = try DiagnosticsTests.exampleReport()
    let counter = try parse(report.svg)
    #expect(counter.gapIDs == report.gaps.gaps.indices.map { "gap-\($0 + 1)" })
    #expect(
      counter.gapClasses
        == report.gaps.gaps.map {
          "gap gap-" + $0.classification.rawValue.replacingOccurrences(of: "_", with: "-")
        })
    #expect(counter.gapClasses.count == 1)
    #expect(counter.texts.contains("Education"))
    #expect(counter.texts.contains("now 10:21"))
  }

  @Test(
    "the SVG's hour axis follows the wall clock on days with a clock change",
    arguments: [
      ("Europe/Paris", "2026-03-29", 23), ("Europe/Paris", "2026-10-25", 25),
      ("Europe/Paris", "2026-05-14", 24), ("Asia/Kolkata", "2026-05-14", 24),
    ])
  func hourAxis(identifier: String, dayText: String, hours: Int) throws {
    let boundary = DayBoundary(timeZone: try zone(identifier))
    let day = try LocalDay(parsing: dayText)
    let interval = boundary.interval(of: day)
    var random = SeededGenerator(seed: 5)
    var beats: [Heartbeat] = []
    var time = interval.start
    while time < interval.end {
      beats.append(try Heartbeat(at: time, source: .monitorExtension))
      time = time.addingTimeInterval(Int.random(in: 0..<40, using: &random) == 0 ? 900 : 30)
    }
    let report = DiagnosticsReport(
      day: day, now: interval.end, detector: GapDetector(boundary: boundary), heartbeats: beats,
      usage: [])
    let counter = try parse(report.svg)
    let hourLabels = counter.hourLabels
    #expect(hourLabels.count == hours)
    #expect(counter.gapIDs.count == report.gaps.gaps.count)
    #expect(counter.gapIDs.count > 3)
    if hours == 25 { #expect(hourLabels.contains("02′")) }
    if hours == 23 { #expect(!hourLabels.contains("02")) }
  }

  @Test(
    "text in the SVG is escaped, whatever it holds",
    arguments: [
      (#"Tom & Jerry's <"phone">"#, #"Tom & Jerry's <"phone">"#),
      ("a <\u{338} b", "a <\u{338} b"),
      ("say \"\u{301} hi", "say \"\u{301} hi"),
      ("&\u{20DD} 'é' <😀>", "&\u{20DD} 'é' <😀>"),
      ("tab\there\nand\r\nthere", "tab\there\nand\r\nthere"),
      ("Tom\u{1}Jerry", "Tom\u{FFFD}Jerry"),
      ("x\u{FFFE}y\u{FFFF}z\u{0}", "x\u{FFFD}y\u{FFFD}z\u{FFFD}"),
    ])
  func svgEscapes(title: String, shown: String) throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let day = try LocalDay(parsing: "2026-03-08")
    let report = DiagnosticsReport(
      title: title, day: day, now: boundary.interval(of: day).end,
      detector: GapDetector(boundary: boundary), heartbeats: [], usage: [])
    let counter = try parse(report.svg)
    #expect(counter.texts.first?.hasPrefix(shown + " · ") == true, "\(title.debugDescription)")
    #expect(counter.rootAttributes["aria-label"] == shown + ": 2026-03-08")
  }

  @Test("no text of the SVG runs past its right edge, however many categories the legend lists")
  func legendStaysInside() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let day = try LocalDay(parsing: "2026-03-08")
    let interval = boundary.interval(of: day)
    let categories: [AppCategory] = [
      .socialMedia, .entertainment, .gaming, .productivity, .shopping, .newsReading,
      .healthFitness, .education, .other,
    ]
    let usage = try categories.enumerated().map { index, category in
      try UsageRecord(
        app: AppID("com.example.app\(index)"), category: category,
        start: interval.start.addingTimeInterval(Double(index) * 3600), duration: minutes(20),
        source: .thresholdEvent)
    }
    let report = DiagnosticsReport(
      day: day, now: interval.end, detector: GapDetector(boundary: boundary),
      heartbeats: try heartbeats(from: interval.start, to: interval.end, every: 30), usage: usage)
    let counter = try parse(report.svg)
    let width = try #require(Double(counter.rootAttributes["width"] ?? ""))
    var checked = 0
    for (text, attributes) in zip(counter.texts, counter.textAttributes)
    where attributes["text-anchor"] == nil {
      let x = try #require(Double(attributes["x"] ?? ""))
      let size = try #require(Double(attributes["font-size"] ?? ""))
      // A generous estimate of the text's width: 0.55 em a character.
      #expect(x + Double(text.count) * size * 0.55 <= width, "\(text.debugDescription) at x \(x)")
      checked += 1
    }
    #expect(checked > 20)
    #expect(counter.texts.contains("not monitored"))
  }

  /// The GapDetection catalog's `Resources/gap-report-example.svg`, relative to this file: the
  /// article *Reading the gap report* shows it.
  static var exampleURL: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "Sources/GapDetection/GapDetection.docc/Resources/gap-report-example.svg")
  }

  /// A richer day for the documentation: a 25-hour day in Paris with a school window, usage in
  /// three categories, a dead tracker and a notification loss.
  static func documentationReport() throws -> DiagnosticsReport {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let day = try LocalDay(parsing: "2026-10-25")
    let at = { (text: String) in try instant("2026-10-25T" + text + "+01:00") }
    var random = SeededGenerator(seed: 2026)
    var beats: [Heartbeat] = []
    var time = try at("07:00:00")
    let dead = try at("13:10:00")...at("13:52:00")
    while time < (try at("21:30:00")) {
      if !dead.contains(time) {
        beats.append(try Heartbeat(at: time, source: .monitorExtension, memoryBytes: 3_500_000))
      }
      time = time.addingTimeInterval(Double(Int.random(in: 24_000...36_000, using: &random)) / 1000)
    }
    let apps: [(String, AppCategory, String, String)] = [
      ("com.duolingo", .education, "07:40", "08:05"),
      ("com.instagram", .socialMedia, "08:05", "08:20"),
      ("com.duolingo", .education, "12:30", "13:10"),
      ("com.youtube", .entertainment, "13:52", "14:30"),
      ("com.instagram", .socialMedia, "16:45", "17:20"),
      ("com.duolingo", .education, "18:00", "18:35"),
      ("com.youtube", .entertainment, "19:30", "20:40"),
      ("com.instagram", .socialMedia, "20:40", "21:05"),
    ]
    let usage = try apps.map { app, category, start, end in
      try UsageRecord(
        app: AppID(app), category: category, start: at(start + ":00"), end: at(end + ":00"),
        source: .thresholdEvent)
    }
    let school = try DailyWindow(start: TimeOfDay(hour: 7), end: TimeOfDay(hour: 22))
    let detector = GapDetector(boundary: boundary, expectation: .daily(school, in: paris))
    return DiagnosticsReport(
      day: day, now: try at("21:30:00"), detector: detector, heartbeats: beats, usage: usage,
      missedSequences: [
        try loss(41...43, after: at("17:20:00"), before: at("17:58:00"))
      ],
      diagnostics: [
        try DiagnosticEntry(
          id: UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID(),
          at: at("13:09:40"),
          eventName: "stk:15m:com.youtube", action: .memoryWarning, success: false,
          errorDescription: "high memory pressure, minimal path used", memoryBytes: 5_900_000)
      ])
  }

  @Test("the documentation's example SVG is what the renderer draws")
  func documentationExample() throws {
    let svg = try Self.documentationReport().svg
    _ = try parse(svg)
    if ProcessInfo.processInfo.environment["STK_WRITE_GAP_EXAMPLE"] == "1" {
      try svg.write(to: Self.exampleURL, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: Self.exampleURL, encoding: .utf8)
    #expect(
      committed == svg,
      "gap-report-example.svg is stale; rerun the tests with STK_WRITE_GAP_EXAMPLE=1")
  }
}
