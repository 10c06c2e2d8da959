import Foundation
import UsageModel

/// Lays out and writes the timeline of a ``DiagnosticsReport``.
struct TimelineRenderer {
  let report: DiagnosticsReport
  let clock: LocalClock
  let dayStart: Int64
  let dayEnd: Int64
  let now: Int64
  let width = 1200.0
  let plotLeft = 168.0
  let plotRight = 1168.0
  let laneHeight = 26.0
  let laneGap = 10.0
  let legendRowHeight = 24.0

  init(report: DiagnosticsReport) {
    self.report = report
    clock = LocalClock(timeZone: report.boundary.timeZone)
    (dayStart, dayEnd) = TimeValues.bounds(of: report.boundary.interval(of: report.day))
    now = TimeValues.clampedInstant(report.generatedAt)
  }

  func x(_ instant: Int64) -> Double {
    let clamped = min(max(instant, dayStart), dayEnd)
    return plotLeft + Double(clamped - dayStart) / Double(max(1, dayEnd - dayStart))
      * (plotRight - plotLeft)
  }

  func n(_ value: Double) -> String { SVGWriter.number(value) }

  func render() -> String {
    let categories = Array(Set(report.usage.map(\.category))).sorted()
    let usageLanes = max(1, categories.count)
    let axisTop = 132.0
    let lanesTop = axisTop + 26
    let heartbeatTop = lanesTop + Double(usageLanes) * (laneHeight + laneGap)
    let gapsTop = heartbeatTop + laneHeight + laneGap
    let plotBottom = gapsTop + laneHeight
    let listedGaps = Array(report.gaps.gaps.prefix(8))
    let legendItems = legend(categories: categories)
    let legendRows = (legendItems.map(\.row).max() ?? 0) + 1
    let legendTop = plotBottom + 34
    let listTop = legendTop + 40 + Double(legendRows - 1) * legendRowHeight
    let height = listTop + Double(max(1, listedGaps.count)) * 20 + 28

    var svg = SVGWriter()
    svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    svg.open(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("width", n(width)), ("height", n(height)),
        ("viewBox", "0 0 \(n(width)) \(n(height))"), ("font-family", TimelineStyle.font),
        ("role", "img"), ("aria-label", "\(report.title): \(report.day)"),
      ])
    svg.element("title", text: "\(report.title) — \(report.day)")
    svg.open("defs")
    svg.open(
      "pattern",
      [
        ("id", "unmonitored"), ("width", "8"), ("height", "8"),
        ("patternUnits", "userSpaceOnUse"), ("patternTransform", "rotate(45)"),
      ])
    svg.element("rect", [("width", "8"), ("height", "8"), ("fill", "#fbfcfd")])
    svg.element(
      "line",
      [
        ("x1", "0"), ("y1", "0"), ("x2", "0"), ("y2", "8"), ("stroke", "#dde2e8"),
        ("stroke-width", "3"),
      ])
    svg.close("pattern")
    svg.close("defs")
    svg.element(
      "rect", [("width", n(width)), ("height", n(height)), ("rx", "14"), ("fill", "#ffffff")])

    writeHeader(&svg)
    writeBackground(&svg, top: axisTop, bottom: plotBottom)
    writeAxis(&svg, top: axisTop, bottom: plotBottom)
    writeUsage(&svg, categories: categories, top: lanesTop)
    writeHeartbeats(&svg, top: heartbeatTop)
    writeGaps(&svg, top: gapsTop, lanesTop: lanesTop)
    writeNow(&svg, top: axisTop, bottom: plotBottom)
    writeLegend(&svg, items: legendItems, top: legendTop)
    writeGapList(&svg, gaps: listedGaps, top: listTop)
    svg.close("svg")
    return svg.text
  }
}
