import EmulatorMath
import RangingEstimation

/// The procedures of the last second or so (tones, the believed pose, the distance), so each
/// new one can be compared with the one about `lag` earlier: the carrier phase's change over
/// that baseline (`PhaseChange`) is what `DirectionFusion` takes. Half a second of a hand-held
/// sway moves the phone 0.2–0.3 m, a baseline long enough for a degree or two per change and
/// short enough that the room's reflections barely move.
struct PhaseBaseline {
    struct Entry {
        var time: Double
        var position: Vector3
        var distance: Double
        var tones: ToneSet
    }

    /// How far back the earlier procedure is looked for, seconds.
    var lag = 0.5
    private var entries: [Entry] = []

    /// Below this coherence the two procedures do not see the same channel (something in the
    /// room moved, or a controller's phase jumped): no change is read.
    var minimumCoherence = 0.5

    /// The change since the newest procedure at least `lag` before `time` (and not more than
    /// twice `lag`), its tones turned by the change of the two procedures' distances (a
    /// decimetre off costs the sum a per cent, see `PhaseChange`); nil when there is no such
    /// procedure or the tones do not give a coherent change.
    func change(to tones: ToneSet, at time: Double, distance: Double) -> (change: PhaseChange, from: Entry)? {
        guard let from = entries.last(where: { time - $0.time >= lag && time - $0.time <= 2 * lag }),
              let change = PhaseChange.measure(from: from.tones, to: tones, expectedChange: distance - from.distance),
              change.coherence >= minimumCoherence else { return nil }
        return (change, from)
    }

    /// Keeps a procedure that gave a distance; forgets those older than twice `lag`.
    mutating func add(_ entry: Entry) {
        entries.removeAll { entry.time - $0.time > 2 * lag }
        entries.append(entry)
    }

    mutating func reset() { entries.removeAll() }
}
