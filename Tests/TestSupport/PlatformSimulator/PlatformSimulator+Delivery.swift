import Foundation

extension PlatformSimulator {
  /// Delivers fired callbacks as the delivery behaviours say, in order of delivery.
  ///
  /// Behaviours apply in the order given: `late` delays each callback by up to its maximum;
  /// `outOfOrder` holds about half the callbacks until just after the next one, when it follows
  /// within 15 minutes; `duplicated` copies threshold callbacks, each copy within a minute;
  /// `catchUpStorm` moves every callback due in its span to its end, in a random order.
  ///
  /// - Parameters:
  ///   - fired: The callbacks in order of firing.
  ///   - random: The source of delays, swaps and copies.
  /// - Returns: The deliveries, ordered by instant, then by the order the behaviours left.
  /// - Complexity: O(*n* log *n*) for *n* callbacks.
  func deliver(_ fired: [Fired], random: inout SplitMix64) -> [SimulatedDelivery] {
    var pending = fired.enumerated().map { offset, fired in
      Pending(fired: fired, at: fired.at, order: Double(offset), isDuplicate: false)
    }
    for behaviour in behaviours {
      switch behaviour {
      case .late(let maxSeconds):
        for index in pending.indices {
          pending[index].at += Int.random(in: 0...max(0, maxSeconds), using: &random)
        }
        pending.sort { ($0.at, $0.order) < ($1.at, $1.order) }
      case .outOfOrder:
        var index = 0
        while index + 1 < pending.count {
          let next = pending[index + 1]
          if next.at - pending[index].at <= 900, Bool.random(using: &random) {
            pending[index].at = next.at
            pending[index].order = next.order + 0.5
            index += 2
          } else {
            index += 1
          }
        }
        pending.sort { ($0.at, $0.order) < ($1.at, $1.order) }
      case .duplicated(let probability):
        let copies = pending.filter { entry in
          entry.fired.threshold != nil && Double.random(in: 0..<1, using: &random) < probability
        }
        for var copy in copies {
          copy.at += Int.random(in: 0...60, using: &random)
          copy.order += 0.25
          copy.isDuplicate = true
          pending.append(copy)
        }
        pending.sort { ($0.at, $0.order) < ($1.at, $1.order) }
      case .catchUpStorm(let from, let to):
        let (start, end) = (LocalClock.seconds(from), LocalClock.seconds(to))
        for index in pending.indices where pending[index].at >= start && pending[index].at < end {
          pending[index].at = end
          pending[index].order = Double.random(in: 0..<1, using: &random) * 1e9
        }
        pending.sort { ($0.at, $0.order) < ($1.at, $1.order) }
      default: continue
      }
    }
    return pending.map(delivery)
  }

  private func delivery(_ entry: Pending) -> SimulatedDelivery {
    let fired = entry.fired
    let event = fired.threshold.flatMap { threshold in
      fired.app.map {
        ThresholdLadder.eventName(threshold: threshold, app: $0, generation: fired.generation)
      }
    }
    let callback = SimulatedCallback(
      kind: fired.kind, activity: Self.activity, event: event, at: LocalClock.date(entry.at),
      timeZone: zones.zone(at: entry.at))
    return SimulatedDelivery(
      callback: callback, interval: fired.interval, threshold: fired.threshold, app: fired.app,
      generation: fired.generation, isPhantom: fired.isPhantom, firedAt: fired.at,
      isDuplicate: entry.isDuplicate)
  }
}

/// A callback on its way to the extension.
private struct Pending {
  var fired: Fired
  var at: Int
  var order: Double
  var isDuplicate: Bool
}
