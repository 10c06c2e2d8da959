import Foundation
import UsageModel

extension TimelineRenderer {
  // MARK: - Parts

  func label(
    _ svg: inout SVGWriter, _ text: String, x: Double, y: Double, size: Double = 12,
    colour: String = TimelineStyle.muted, weight: String? = nil, anchor: String? = nil,
    cssClass: String? = nil
  ) {
    var attributes = [
      ("x", n(x)), ("y", n(y)), ("font-size", n(size)), ("fill", colour),
    ]
    if let cssClass { attributes.insert(("class", cssClass), at: 0) }
    if let weight { attributes.append(("font-weight", weight)) }
    if let anchor { attributes.append(("text-anchor", anchor)) }
    svg.element("text", attributes, text: text)
  }

  func writeHeader(_ svg: inout SVGWriter) {
    let day = report.day
    let title =
      "\(report.title) · \(TimelineStyle.name(of: day.weekday)), \(day.day) "
      + "\(TimelineStyle.monthNames[day.month - 1]) \(day.year)"
    label(&svg, title, x: 28, y: 42, size: 22, colour: TimelineStyle.ink, weight: "600")
    var subtitle = report.boundary.timeZone.identifier
    let hours = (dayEnd - dayStart) / 60_000
    if hours != 24 * 60 {
      let direction = hours < 24 * 60 ? "clocks went forward" : "clocks went back"
      subtitle += " · a \(ReadableText.duration(dayEnd - dayStart)) day (\(direction))"
    }
    subtitle += " · generated \(clock.dateTime(now))"
    label(&svg, subtitle, x: 28, y: 66, size: 13)

    let chips: [(String, String, String)] = [
      ("Tracked", ReadableText.duration(report.gaps.sum(\.trackedMs)), TimelineStyle.tracked),
      ("Idle", ReadableText.duration(report.gaps.sum(\.idleMs)), "#7b8794"),
      ("Unknown", ReadableText.duration(report.gaps.sum(\.unknownMs)), "#e03131"),
      ("Tracker", healthText, report.health.isHealthy ? TimelineStyle.tracked : "#e03131"),
    ]
    var chipX = 28.0
    for (name, value, colour) in chips {
      // Estimated text widths at 13 px: bold names are wider than regular values.
      let nameWidth = Double(name.count) * 9.2
      let chipWidth = 13 + nameWidth + 8 + Double(value.count) * 7.1 + 13
      svg.element(
        "rect",
        [
          ("x", n(chipX)), ("y", "82"), ("width", n(chipWidth)), ("height", "28"), ("rx", "14"),
          ("fill", colour), ("fill-opacity", "0.1"), ("stroke", colour), ("stroke-opacity", "0.35"),
        ])
      label(&svg, name, x: chipX + 13, y: 100.5, size: 13, colour: colour, weight: "600")
      label(
        &svg, value, x: chipX + 13 + nameWidth + 8, y: 100.5, size: 13,
        colour: TimelineStyle.ink)
      chipX += chipWidth + 10
    }
  }

  var healthText: String {
    switch report.health.status {
    case .healthy(let age): return "alive, heartbeat \(DiagnosticsReport.relativeTime(age))"
    case .stale(let age): return "stale, heartbeat \(DiagnosticsReport.relativeTime(age))"
    case .neverSeen: return "never seen"
    case .clockSkew(let ahead):
      return "clock skew, heartbeat \(DiagnosticsReport.relativeTime(.zero - ahead))"
    }
  }

  func writeBackground(_ svg: inout SVGWriter, top: Double, bottom: Double) {
    svg.element(
      "rect",
      [
        ("x", n(plotLeft)), ("y", n(top + 20)), ("width", n(plotRight - plotLeft)),
        ("height", n(bottom - top - 14)), ("fill", "url(#unmonitored)"),
      ])
    for window in report.gaps.windowBounds {
      svg.element(
        "rect",
        [
          ("class", "expected"), ("x", n(x(window.lowerBound))), ("y", n(top + 20)),
          ("width", n(max(0.5, x(window.upperBound) - x(window.lowerBound)))),
          ("height", n(bottom - top - 14)), ("fill", TimelineStyle.expected),
        ])
    }
  }

  func writeAxis(_ svg: inout SVGWriter, top: Double, bottom: Double) {
    let axis = HourAxis(from: dayStart, to: dayEnd, clock: clock)
    let spacing = (plotRight - plotLeft) / Double(max(1, axis.ticks.count))
    let every = spacing < 22 ? 2 : 1
    for (index, tick) in axis.ticks.enumerated() {
      let position = x(tick.instant)
      svg.element(
        "line",
        [
          ("x1", n(position)), ("y1", n(top + 20)), ("x2", n(position)), ("y2", n(bottom + 6)),
          ("stroke", TimelineStyle.grid), ("stroke-width", tick.hour % 6 == 0 ? "1.5" : "1"),
        ])
      let nearNow = now > dayStart && now < dayEnd && abs(position - x(now)) < 30
      guard index % every == 0, !nearNow else { continue }
      label(
        &svg, LocalClock.two(Int64(tick.hour)) + (tick.isRepeat ? "′" : ""), x: position,
        y: top + 12, size: 11, colour: tick.isRepeat ? "#c92a2a" : TimelineStyle.muted,
        anchor: "middle", cssClass: "hour")
    }
    svg.element(
      "line",
      [
        ("x1", n(plotRight)), ("y1", n(top + 20)), ("x2", n(plotRight)), ("y2", n(bottom + 6)),
        ("stroke", TimelineStyle.grid),
      ])
    for change in axis.changes {
      let position = x(change.instant)
      svg.element(
        "line",
        [
          ("class", "clock-change"), ("x1", n(position)), ("y1", n(top + 16)),
          ("x2", n(position)), ("y2", n(bottom + 6)), ("stroke", "#c92a2a"),
          ("stroke-dasharray", "4 3"),
        ])
      let forward = change.offsetAfter > change.offsetBefore
      label(
        &svg, forward ? "clocks go forward" : "clocks go back", x: position + 4, y: bottom + 18,
        size: 10.5, colour: "#c92a2a")
    }
  }

  func writeUsage(_ svg: inout SVGWriter, categories: [AppCategory], top: Double) {
    if categories.isEmpty {
      label(&svg, "Usage", x: 28, y: top + 17, size: 13, colour: TimelineStyle.ink)
      label(&svg, "no usage recorded", x: plotLeft + 8, y: top + 17, size: 12)
      return
    }
    for (lane, category) in categories.enumerated() {
      let laneTop = top + Double(lane) * (laneHeight + laneGap)
      // Blocks of a decoded report may overlap or reach past the day: each counts only within
      // the day, and the sum saturates, so that thousands of them cannot overflow.
      let total = report.usage.filter { $0.category == category }.reduce(Int64(0)) {
        let part = max(0, min($1.endInstant, dayEnd) - max($1.startInstant, dayStart))
        let (sum, overflow) = $0.addingReportingOverflow(part)
        return overflow ? .max : sum
      }
      label(&svg, category.displayName, x: 28, y: laneTop + 13, size: 13, colour: TimelineStyle.ink)
      label(&svg, ReadableText.duration(total), x: 28, y: laneTop + 26, size: 11)
      svg.open("g", [("class", "usage"), ("data-category", category.rawValue)])
      for block in report.usage where block.category == category {
        let left = x(block.startInstant)
        svg.open(
          "rect",
          [
            ("x", n(left)), ("y", n(laneTop + 3)), ("width", n(max(1, x(block.endInstant) - left))),
            ("height", n(laneHeight - 6)), ("rx", "3"),
            ("fill", TimelineStyle.colour(of: category)),
          ])
        svg.element(
          "title",
          text: "\(category.displayName) \(clock.time(block.startInstant))–"
            + "\(clock.time(block.endInstant)) (\(ReadableText.duration(block.endInstant - block.startInstant)))"
        )
        svg.close("rect")
      }
      svg.close("g")
    }
  }

  func writeHeartbeats(_ svg: inout SVGWriter, top: Double) {
    label(&svg, "Heartbeats", x: 28, y: top + 13, size: 13, colour: TimelineStyle.ink)
    label(&svg, "\(report.heartbeatInstants.count) today", x: 28, y: top + 26, size: 11)
    var path = ""
    var lastTenth = Int.min
    for instant in report.heartbeatInstants {
      let tenth = Int((x(instant) * 2).rounded())
      guard tenth != lastTenth else { continue }
      lastTenth = tenth
      path += "M" + n(Double(tenth) / 2) + " " + n(top + 4) + "v" + n(laneHeight - 8)
    }
    if !path.isEmpty {
      svg.element(
        "path",
        [
          ("class", "heartbeats"), ("d", path), ("stroke", TimelineStyle.heartbeat),
          ("stroke-width", "1"), ("stroke-opacity", "0.75"), ("fill", "none"),
        ])
    }
  }

  func writeGaps(_ svg: inout SVGWriter, top: Double, lanesTop: Double) {
    label(&svg, "Gaps", x: 28, y: top + 13, size: 13, colour: TimelineStyle.ink)
    label(&svg, "\(report.gaps.gaps.count) found", x: 28, y: top + 26, size: 11)
    for gap in report.gaps.gaps where gap.classification.mayHaveLostUsage {
      let left = x(gap.startInstant)
      svg.element(
        "rect",
        [
          ("class", "gap-band"), ("x", n(left)), ("y", n(lanesTop)),
          ("width", n(max(1, x(gap.endInstant) - left))), ("height", n(top - lanesTop - 4)),
          ("fill", TimelineStyle.colour(of: gap.classification)), ("fill-opacity", "0.08"),
        ])
    }
    for (index, gap) in report.gaps.gaps.enumerated() {
      let left = x(gap.startInstant)
      svg.open(
        "rect",
        [
          ("id", "gap-\(index + 1)"), ("class", TimelineStyle.cssClass(of: gap.classification)),
          ("x", n(left)), ("y", n(top + 3)), ("width", n(max(1.5, x(gap.endInstant) - left))),
          ("height", n(laneHeight - 6)), ("rx", "3"),
          ("fill", TimelineStyle.colour(of: gap.classification)),
        ])
      svg.element("title", text: gapSummary(gap))
      svg.close("rect")
    }
  }

  func writeNow(_ svg: inout SVGWriter, top: Double, bottom: Double) {
    guard now > dayStart, now < dayEnd else { return }
    let position = x(now)
    svg.element(
      "rect",
      [
        ("class", "future"), ("x", n(position)), ("y", n(top + 20)),
        ("width", n(plotRight - position)), ("height", n(bottom - top - 14)),
        ("fill", "#ffffff"), ("fill-opacity", "0.7"),
      ])
    svg.element(
      "line",
      [
        ("x1", n(position)), ("y1", n(top + 16)), ("x2", n(position)), ("y2", n(bottom + 6)),
        ("stroke", TimelineStyle.ink), ("stroke-width", "1.5"),
      ])
    label(
      &svg, "now " + clock.time(now), x: position, y: top + 12, size: 11,
      colour: TimelineStyle.ink, weight: "600", anchor: "middle")
  }

  func writeGapList(_ svg: inout SVGWriter, gaps: [Gap], top: Double) {
    if gaps.isEmpty {
      label(
        &svg, "No gaps: the tracker was alive whenever tracking was expected.", x: 28, y: top,
        size: 13)
      return
    }
    for (index, gap) in gaps.enumerated() {
      let y = top + Double(index) * 20
      svg.element(
        "circle",
        [
          ("cx", "34"), ("cy", n(y - 4.5)), ("r", "5"),
          ("fill", TimelineStyle.colour(of: gap.classification)),
        ])
      label(&svg, gapSummary(gap), x: 48, y: y, size: 13, colour: TimelineStyle.ink)
    }
    if report.gaps.gaps.count > gaps.count {
      label(
        &svg, "… and \(report.gaps.gaps.count - gaps.count) more", x: 48,
        y: top + Double(gaps.count) * 20, size: 12)
    }
  }

  func gapSummary(_ gap: Gap) -> String {
    let kinds = Set(gap.evidence.map(\.kind))
    let evidence = GapEvidence.Kind.allCases.filter(kinds.contains).map(\.displayName)
    return "\(clock.time(gap.startInstant))–\(clock.time(gap.endInstant))"
      + (gap.isOngoing ? " (ongoing)" : "") + " · \(gap.classification.displayName) · "
      + ReadableText.duration(gap.endInstant - gap.startInstant) + " · "
      + evidence.joined(separator: ", ")
  }
}
