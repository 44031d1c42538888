import ToolJSON

/// A fault `serve --faults` injects on a served board, as real boards on a USB UART show them:
/// the controller resetting itself (Hardware Error, then as after power-on: links gone), an
/// octet garbled or lost on the line in either direction (`toBoard`: what the host sent;
/// `toHost`: what the board sent), and a controller that stops answering for a while.
public struct LineFault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case reset
        case garble(toBoard: Bool)
        case drop(toBoard: Bool)
        /// The board neither answers nor reports for this many seconds (what it is sent is lost).
        case silent(seconds: Double)
        /// The port goes away for this many seconds and comes back at the same path, the board
        /// started afresh, as a USB CDC board that resets or is replugged (ptys only).
        case reopen(seconds: Double)
    }

    public var kind: Kind
    /// Which board (0 = A, 1 = B).
    public var board: Int
    /// Seconds after serving started.
    public var at: Double
    /// Then again every this many seconds.
    public var every: Double?

    /// `reset`, `garble-in`, `garble-out`, `drop-in`, `drop-out`, `silent+S`, `reopen+S` (the spec's words).
    public var name: String {
        switch kind {
        case .reset: "reset"
        case .garble(let toBoard): toBoard ? "garble-in" : "garble-out"
        case .drop(let toBoard): toBoard ? "drop-in" : "drop-out"
        case .silent(let s): "silent+\(Self.number(s))"
        case .reopen(let s): "reopen+\(Self.number(s))"
        }
    }

    /// The schedule of `--faults SPEC`: comma-separated `KIND[:A|B]@SECONDS[/EVERY]`, for
    /// example `reset@5,garble-out:B@8/30,silent+2@12`. Throws the item that does not read,
    /// with what is allowed.
    public static func schedule(_ spec: String, boards: Int) throws(ToolError) -> [LineFault] {
        var out: [LineFault] = []
        for item in spec.split(separator: ",", omittingEmptySubsequences: false) {
            guard let fault = parse(item, boards: boards) else {
                throw .usage("serve: --faults item '\(item)' is not KIND[:A|B]@SECONDS[/EVERY] with KIND reset, garble-in, garble-out, "
                    + "drop-in, drop-out, silent+S or reopen+S (seconds from 0 to 86400; every at least 0.1 s; B only with two boards)")
            }
            out.append(fault)
        }
        return out
    }

    static func parse(_ item: Substring, boards: Int) -> LineFault? {
        let halves = item.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        var what = halves[0], board = 0
        if let colon = what.firstIndex(of: ":") {
            switch what[what.index(after: colon)...] {
            case "A": board = 0
            case "B" where boards == 2: board = 1
            default: return nil
            }
            what = what[..<colon]
        }
        let kind: Kind
        switch what {
        case "reset": kind = .reset
        case "garble-in": kind = .garble(toBoard: true)
        case "garble-out": kind = .garble(toBoard: false)
        case "drop-in": kind = .drop(toBoard: true)
        case "drop-out": kind = .drop(toBoard: false)
        default:
            if what.hasPrefix("silent+"), let s = seconds(what.dropFirst(7)), s > 0 {
                kind = .silent(seconds: s)
            } else if what.hasPrefix("reopen+"), let s = seconds(what.dropFirst(7)), s > 0 {
                kind = .reopen(seconds: s)
            } else {
                return nil
            }
        }
        let when = halves[1].split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(when.count), let at = seconds(when[0]) else { return nil }
        var every: Double?
        if when.count == 2 {
            guard let e = seconds(when[1]), e >= 0.1 else { return nil }
            every = e
        }
        return LineFault(kind: kind, board: board, at: at, every: every)
    }

    /// A plain decimal from 0 to 86,400 (no signs, exponents or infinities).
    static func seconds(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }), let v = Double(text), v <= 86_400 else { return nil }
        return v
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}

/// The faults due as time passes, each once per time it is due.
public struct LineFaultClock: Sendable {
    private var faults: [LineFault]
    private var next: [Double]

    public init(_ faults: [LineFault]) {
        self.faults = faults
        next = faults.map(\.at)
    }

    /// The faults due by `seconds`, in schedule order.
    public mutating func due(at seconds: Double) -> [LineFault] {
        var out: [LineFault] = []
        for i in faults.indices where next[i] <= seconds {
            out.append(faults[i])
            next[i] = faults[i].every.map { next[i] + $0 } ?? .infinity
        }
        return out
    }
}
