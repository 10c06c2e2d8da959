import UsageModel

extension TimelineRenderer {
  // MARK: - Legend

  /// One entry of the legend: a name, its colour and how its swatch is drawn.
  struct LegendItem {
    enum Swatch {
      case block
      case tick
      case frame
    }

    var name: String
    var fill: String
    var swatch: Swatch
    /// Where it goes: the left edge of its swatch and its row.
    var x = 0.0
    var row = 0
  }

  /// The legend's entries laid out in rows that never pass the right margin.
  func legend(categories: [AppCategory]) -> [LegendItem] {
    var items = categories.map {
      LegendItem(name: $0.displayName, fill: TimelineStyle.colour(of: $0), swatch: .block)
    }
    items.append(LegendItem(name: "heartbeat", fill: TimelineStyle.heartbeat, swatch: .tick))
    for classification in GapClass.allCases {
      items.append(
        LegendItem(
          name: "gap: " + classification.displayName,
          fill: TimelineStyle.colour(of: classification), swatch: .block))
    }
    items.append(
      LegendItem(name: "tracking expected", fill: TimelineStyle.expected, swatch: .frame))
    items.append(LegendItem(name: "not monitored", fill: "url(#unmonitored)", swatch: .frame))
    let left = 28.0
    let right = width - 28
    var x = left
    var row = 0
    for index in items.indices {
      // A swatch, a gap, the name (estimated at 6.6 px a character at 12 px), a gap.
      let itemWidth = 20 + Double(items[index].name.count) * 6.6
      if x > left, x + itemWidth > right {
        x = left
        row += 1
      }
      items[index].x = x
      items[index].row = row
      x += itemWidth + 22
    }
    return items
  }

  func writeLegend(_ svg: inout SVGWriter, items: [LegendItem], top: Double) {
    for item in items {
      let y = top + Double(item.row) * legendRowHeight
      switch item.swatch {
      case .tick:
        svg.element(
          "line",
          [
            ("x1", n(item.x + 6)), ("y1", n(y - 11)), ("x2", n(item.x + 6)), ("y2", n(y + 3)),
            ("stroke", item.fill), ("stroke-width", "2"),
          ])
      case .block, .frame:
        svg.element(
          "rect",
          [
            ("x", n(item.x)), ("y", n(y - 11)), ("width", "14"), ("height", "14"), ("rx", "3"),
            ("fill", item.fill), ("stroke", item.swatch == .frame ? "#cbd2d9" : "none"),
          ])
      }
      label(&svg, item.name, x: item.x + 20, y: y, size: 12, cssClass: "legend")
    }
  }
}
