/// One line of the trace Silicon Labs' tools write of what passes on a board's serial port
/// (their BGAPI host tools; `cs_step_data_parser`'s input): the time since the start, the time
/// since the line before in parentheses (not on the first line), the direction (`<` from the
/// board, `>` to it), the kind and what it carried:
///
/// ```
/// 0:00:28.028747 (+0.053009) < event    bt_evt_cs_result(connection=1, config_id=1, ..., data=b'\x00\t...')
/// 0:00:28.047698 (+0.001770) < log      b'{"rtl_instance_id": 0, "cs_procedure": ...'
/// 0:00:26.623901 (+0.000031) > command  bt_cmd_system_set_tx_power(min_power=-30, max_power=200)
/// ```
///
/// A `log` line's payload is a Python bytes literal (`PythonBytesLiteral`); an `event`,
/// `command` or `response` line's is an API call `name(key=value, ...)` (`call`).
struct SiliconLabsSerialLine: Equatable {
    enum Kind: String {
        case log, event, command, response, sync
    }

    var fromBoard: Bool
    var kind: Kind
    var payload: Substring

    /// The line's parts; nil for a line that is not of this form (or of a kind not listed).
    init?(_ line: Substring) {
        var rest = line
        guard let time = Self.token(&rest), Self.isTime(time, clock: true) else { return nil }
        if rest.first == "(" {
            guard let delta = Self.token(&rest), delta.hasPrefix("(+"), delta.hasSuffix(")"), Self.isTime(delta.dropFirst(2).dropLast(), clock: false) else { return nil }
        }
        guard let direction = Self.token(&rest), direction == "<" || direction == ">" else { return nil }
        guard let word = Self.token(&rest), let kind = Kind(rawValue: String(word)) else { return nil }
        fromBoard = direction == "<"
        self.kind = kind
        payload = rest
    }

    /// An `event`, `command` or `response` payload `name(key=value, ...)`: the name and each
    /// argument's text as written (a quoted value with its quotes and `b`); nil when it is not a
    /// call or a quoted value has no end.
    static func call(_ text: Substring) -> (name: Substring, arguments: [(key: Substring, value: Substring)])? {
        var payload = text
        while payload.last == " " { payload = payload.dropLast() }
        guard let open = payload.firstIndex(of: "("), payload.last == ")" else { return nil }
        let name = payload[..<open]
        var rest = payload[payload.index(after: open)..<payload.index(before: payload.endIndex)]
        var arguments: [(key: Substring, value: Substring)] = []
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = rest[..<equals]
            let start = rest.index(after: equals)
            var tail = rest[start...]
            let value: Substring
            if tail.first == "'" || tail.first == "\"" || (tail.first == "b" && (tail.dropFirst().first == "'" || tail.dropFirst().first == "\"")) {
                guard let read = try? PythonBytesLiteral.read(tail, bytes: tail.first == "b") else { return nil }
                value = tail[..<read.rest.startIndex]
                tail = read.rest
            } else {
                let end = tail.firstIndex(of: ",") ?? tail.endIndex
                value = tail[..<end]
                tail = tail[end...]
            }
            arguments.append((key, value))
            if tail.hasPrefix(",") { tail = tail.dropFirst() }
            rest = tail.drop { $0 == " " }
        }
        return (name, arguments)
    }

    /// The next space-separated token of `rest`, which then starts after the spaces that follow it.
    private static func token(_ rest: inout Substring) -> Substring? {
        let t = rest.prefix { $0 != " " }
        guard !t.isEmpty else { return nil }
        rest = rest[t.endIndex...].drop { $0 == " " }
        return t
    }

    /// `H:MM:SS.ffffff` (`clock`) or `S.ffffff` (a delta), the fraction optional.
    private static func isTime(_ t: Substring, clock: Bool) -> Bool {
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == (clock ? 3 : 1), let last = parts.last else { return false }
        let seconds = last.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return (parts.dropLast() + seconds).allSatisfy { !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
